import type { RiskReading, StatusSnapshot } from '../../shared/contract';
import { LEVEL_RANK, type PositionLevel } from '../../shared/risk-model';
import { clockText, CORE_LOCALE } from '../../shared/format';
import { ratioText } from '../../shared/units';

/** `unreached`: an alert channel has not been reached for a minute (docs/notify.md#a-failing-channel). */
export type TrayLevel = 'ok' | 'warning' | 'critical' | 'unreached' | 'offline';

/** What the tray shows; computed here so the tray itself holds no logic (rotki's tray-manager). */
export interface TrayState {
  level: TrayLevel;
  watchedLoans: number;
  worstRatio: number | null;
  tooltip: string;
  alertsPausedUntil: number | null;
  /** Each alert channel not reached, in words for the menu: "phone (ntfy) not reached since 12:55: connection refused". */
  unreached: string[];
}

export interface TrayInput {
  status: StatusSnapshot | undefined;
  /**
   * The latest reading of each watched manager, with its level as the valuation judged it (the
   * alerts judge alike); `alerted` false: its wallet's group is recorded at info only (Settings
   * `groupRules`: others' wallets by default), so it neither colours the tray nor is its worst.
   */
  readings: ReadonlyArray<RiskReading & { level: PositionLevel; alerted?: boolean }>;
  /** When the valuation snapshot those readings are of was made (the Portfolio's time); null: none yet. */
  valuedAt?: number | null;
  privacy: boolean;
  alertsPausedUntil: number | null;
  now: number;
}

/** The tray's clock, read on this very machine (no zone): "12:55 PM". */
const time = (ms: number): string => clockText(ms, CORE_LOCALE, false);

export function trayStateOf(i: TrayInput): TrayState {
  const withDebt = i.readings.filter((r) => r.risk_ratio !== null);
  const loans = withDebt.filter((r) => r.alerted !== false);
  const infoOnly = withDebt.length - loans.length;
  // The worst level first (a position near its liquidation price is critical at any ratio), then the lowest ratio.
  let worst: (RiskReading & { level: PositionLevel }) | undefined;
  for (const r of loans) {
    if (
      !worst ||
      LEVEL_RANK[r.level] > LEVEL_RANK[worst.level] ||
      (r.level === worst.level && r.risk_ratio! < worst.risk_ratio!)
    )
      worst = r;
  }
  const authStopped = i.status?.streams.some((s) => s.state === 'stopped-auth') ?? false;
  const unreached = (i.status?.unreached ?? []).map((u) => `${u.words} not reached since ${time(u.since)}: ${u.short}`);
  // A position at its critical level first; then alerts that do not reach the phone, above a warning.
  let level: TrayLevel = 'ok';
  if (i.status && (!i.status.online || authStopped)) level = 'offline';
  else if (worst?.level === 'critical') level = 'critical';
  else if (unreached.length > 0) level = 'unreached';
  else if (worst && worst.level !== 'ok') level = 'warning';
  const paused = i.alertsPausedUntil !== null && i.alertsPausedUntil > i.now ? i.alertsPausedUntil : null;
  const parts = ['Tidewatch'];
  if (level === 'offline') {
    parts.push(
      authStopped
        ? 'API key rejected'
        : `offline${i.status?.offlineSince ? ` since ${time(i.status.offlineSince)}` : ''}`,
    );
  }
  parts.push(...unreached);
  parts.push(loans.length === 1 ? '1 watched loan' : `${loans.length} watched loans`);
  if (infoOnly > 0) parts.push(`${infoOnly} more in others' wallets (info only)`);
  // Before the ratio: the macOS menu bar title is the tooltip's last part.
  if (worst && i.valuedAt) parts.push(`valued ${time(i.valuedAt)}`);
  if (worst) parts.push(`worst risk ratio ${i.privacy ? '•••' : ratioText(worst.risk_ratio!)}`);
  if (paused) parts.push(`alerts paused until ${time(paused)}`);
  return {
    level,
    watchedLoans: loans.length,
    worstRatio: worst?.risk_ratio ?? null,
    tooltip: parts.join(' · '),
    alertsPausedUntil: paused,
    unreached,
  };
}
