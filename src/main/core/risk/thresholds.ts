import type { AlertLevel, RiskParams, Settings, Thresholds } from '../../../shared/contract';
import { thresholdsOnPool } from '../../../shared/portfolio';
import type { RiskThresholds } from '../../../shared/risk-model';

export type RiskLevel = 'ok' | 'warning' | 'critical';

const RANK: Record<RiskLevel, number> = { ok: 0, warning: 1, critical: 2 };

/** What a tracker remembers: each manager's level (when not ok) and when each manager:level last alerted. */
export interface TrackerState {
  levels: Record<string, RiskLevel>;
  lastAlertAt: Record<string, number>;
}

/**
 * Threshold crossings with hysteresis and a cooldown: a level is entered when the ratio falls
 * below its threshold (critical also within `near_pct` of the liquidation price: levels.ts) and
 * left only when the ratio climbs above threshold x (1 + hysteresis), the distance likewise;
 * an alert fires when the level gets worse, and not again for the same manager and level
 * within the cooldown. A ratio hovering at a threshold therefore alerts once.
 */
export class ThresholdTracker {
  private readonly levels = new Map<string, RiskLevel>();
  private readonly lastAlertAt = new Map<string, number>();

  constructor(
    private readonly hysteresis = 0.02,
    private cooldownMs = 15 * 60_000,
  ) {}

  setCooldown(ms: number): void {
    this.cooldownMs = ms;
  }

  /**
   * What to keep across a restart (`restore`): without it a restarted app took every position as
   * ok and alerted again each one still below a threshold, at every start. Alert times older
   * than the cooldown (`now`) are left out.
   */
  state(now = Date.now()): TrackerState {
    const levels: Record<string, RiskLevel> = {};
    for (const [id, level] of this.levels) if (level !== 'ok') levels[id] = level;
    const lastAlertAt: Record<string, number> = {};
    for (const [key, at] of this.lastAlertAt) if (now - at < this.cooldownMs) lastAlertAt[key] = at;
    return { levels, lastAlertAt };
  }

  restore(s: TrackerState): void {
    for (const [id, level] of Object.entries(s.levels ?? {}))
      if (Object.hasOwn(RANK, level)) this.levels.set(id, level);
    for (const [key, at] of Object.entries(s.lastAlertAt ?? {}))
      if (typeof at === 'number') this.lastAlertAt.set(key, at);
  }

  /**
   * The manager was liquidated: what is left is a new position (the liquidation restored its
   * ratio), so its level and cooldowns start again and a second approach is alerted as the first.
   */
  forget(managerId: string): void {
    this.levels.delete(managerId);
    for (const key of [...this.lastAlertAt.keys()]) if (key.startsWith(`${managerId}:`)) this.lastAlertAt.delete(key);
  }

  level(managerId: string): RiskLevel {
    return this.levels.get(managerId) ?? 'ok';
  }

  /** Feed a reading (its ratio, and its distance to the liquidation price); returns the level to alert on, if any. */
  observe(
    managerId: string,
    ratio: number | null,
    t: RiskThresholds,
    now = Date.now(),
    distancePct: number | null = null,
  ): AlertLevel | null {
    const prev = this.level(managerId);
    const up = 1 + this.hysteresis;
    const near = (factor: number): boolean =>
      t.near_pct !== null && distancePct !== null && Math.abs(distancePct) <= t.near_pct * factor;
    let next: RiskLevel;
    if (ratio === null) next = 'ok';
    else {
      const critical = (factor: number): boolean => ratio < t.critical * factor || near(factor);
      if (critical(1)) next = 'critical';
      else if (ratio < t.warning) next = prev === 'critical' && critical(up) ? 'critical' : 'warning';
      else if (prev !== 'ok' && ratio < t.warning * up)
        next = prev === 'critical' && critical(up) ? 'critical' : 'warning';
      else if (prev === 'critical' && critical(up)) next = 'critical';
      else next = 'ok';
    }
    this.levels.set(managerId, next);
    if (RANK[next] <= RANK[prev] || next === 'ok') return null;
    const key = `${managerId}:${next}`;
    const last = this.lastAlertAt.get(key);
    if (last !== undefined && now - last < this.cooldownMs) return null;
    this.lastAlertAt.set(key, now);
    return next;
  }
}

/**
 * The thresholds in force for a manager on its pool: its own ratios where set, else the user's
 * defaults moved to the pool's liquidation ratio (portfolio.ts thresholdsOnPool); the
 * near-liquidation rule is the user's, for every position.
 */
export function thresholdsFrom(
  s: Pick<Settings, 'warningRatio' | 'criticalRatio' | 'nearLiquidationPct'>,
  perManager: Readonly<Record<string, Thresholds>>,
): (managerId: string, params: Pick<RiskParams, 'liquidation'>) => RiskThresholds {
  return (id, params) => {
    const t =
      perManager[id] ?? thresholdsOnPool({ warning: s.warningRatio, critical: s.criticalRatio }, params.liquidation);
    return { warning: t.warning, critical: t.critical, near_pct: s.nearLiquidationPct };
  };
}
