import { describe, expect, it } from 'vitest';
import type { RiskReading, StatusSnapshot } from '../../../src/shared/contract';
import { clockText, CORE_LOCALE } from '../../../src/shared/format';
import type { PositionLevel } from '../../../src/shared/risk-model';
import { trayStateOf } from '../../../src/main/core/tray-state';
import { statusWith } from '../../support/status';

/** A reading with the level the valuation gave it (by the 1.5 / 1.25 thresholds unless said). */
const reading = (id: string, ratio: number | null, level?: PositionLevel): RiskReading & { level: PositionLevel } => ({
  manager_id: id,
  owner: '0xo',
  ts_ms: 1,
  risk_ratio: ratio,
  debt_usd: 1,
  assets_usd: 1,
  distance_pct: -5,
  level: level ?? (ratio === null || ratio >= 1.5 ? 'ok' : ratio >= 1.25 ? 'warning' : 'critical'),
});

const status = (patch: Partial<StatusSnapshot> = {}): StatusSnapshot => statusWith({ network: 'demo', ...patch });

describe('tray state (computed in core)', () => {
  const base = { privacy: false, alertsPausedUntil: null, now: Date.UTC(2026, 10, 22, 12) };
  it('goes ok -> warning -> critical with the worst watched loan, and says so in the tooltip', () => {
    expect(trayStateOf({ ...base, status: status(), readings: [] })).toMatchObject({
      level: 'ok',
      watchedLoans: 0,
      tooltip: 'Tidewatch · 0 watched loans',
    });
    expect(trayStateOf({ ...base, status: status(), readings: [reading('a', 2), reading('b', 1.4)] })).toMatchObject({
      level: 'warning',
      worstRatio: 1.4,
      tooltip: 'Tidewatch · 2 watched loans · worst risk ratio 1.400',
    });
    expect(trayStateOf({ ...base, status: status(), readings: [reading('a', 1.2), reading('b', null)] }).level).toBe(
      'critical',
    );
  });
  it('leaves wallets whose group is recorded at info out of its colour and its worst ratio, and counts them apart', () => {
    const whale = { ...reading('w', 1.1), owner: '0xwhale', alerted: false };
    const t = trayStateOf({ ...base, status: status(), readings: [{ ...reading('a', 1.4), alerted: true }, whale] });
    expect(t).toMatchObject({
      level: 'warning',
      watchedLoans: 1,
      worstRatio: 1.4,
      tooltip: "Tidewatch · 1 watched loan · 1 more in others' wallets (info only) · worst risk ratio 1.400",
    });
    // Watched wallets set to alert like one's own: they count.
    expect(trayStateOf({ ...base, status: status(), readings: [{ ...whale, alerted: true }] }).level).toBe('critical');
  });
  it('is offline when the service is unreachable or the key was rejected, and masks the ratio in privacy mode', () => {
    const off = trayStateOf({
      ...base,
      status: status({ online: false, offlineSince: base.now - 60_000 }),
      readings: [reading('a', 1.2)],
    });
    expect(off.level).toBe('offline');
    expect(off.tooltip).toMatch(
      /^Tidewatch · offline since \d{1,2}:\d\d [AP]M · 1 watched loan · worst risk ratio 1.200$/,
    );
    const auth = trayStateOf({
      ...base,
      status: status({
        streams: [
          {
            id: 'margin',
            state: 'stopped-auth',
            lastEventAt: null,
            lastByteAt: null,
            nextTryAt: null,
            reconnects: 0,
            events: 0,
            lastError: '401',
          },
        ],
      }),
      readings: [],
    });
    expect(auth).toMatchObject({ level: 'offline' });
    expect(auth.tooltip).toContain('API key rejected');
    const priv = trayStateOf({ ...base, privacy: true, status: status(), readings: [reading('a', 1.3)] });
    expect(priv.tooltip).toContain('worst risk ratio •••');
    expect(priv.tooltip).not.toContain('1.3');
  });
  it('judges by the level the alerts use (a position near its liquidation price), not the lowest ratio, and shows a pause', () => {
    const s = trayStateOf({
      ...base,
      status: status(),
      readings: [reading('a', 2, 'critical'), reading('b', 1.4)],
      alertsPausedUntil: base.now + 3_600_000,
    });
    expect(s.level).toBe('critical');
    expect(s.worstRatio).toBe(2);
    expect(s.tooltip).toMatch(/alerts paused until \d{1,2}:\d\d [AP]M$/);
  });
  it('says when the snapshot it shows was valued, before the worst ratio (the macOS title)', () => {
    const valuedAt = base.now - 90_000;
    const s = trayStateOf({ ...base, status: status(), readings: [reading('a', 1.4)], valuedAt });
    expect(s.tooltip).toMatch(/^Tidewatch · 1 watched loan · valued \d{1,2}:\d\d [AP]M · worst risk ratio 1\.400$/);
    expect(trayStateOf({ ...base, status: status(), readings: [], valuedAt }).tooltip).toBe(
      'Tidewatch · 0 watched loans',
    );
  });
  it('shows an alert channel not reached: its own icon above a warning, below a critical position, said in the tooltip', () => {
    const unreached: StatusSnapshot['unreached'] = [
      {
        channel: 'phone',
        words: 'phone (ntfy)',
        since: base.now - 5 * 60_000,
        reason: 'ntfy (phone) could not be reached: connection refused; it is tried again.',
        short: 'connection refused',
        waiting: 28,
        fallback: null,
      },
    ];
    const calm = trayStateOf({ ...base, status: status({ unreached }), readings: [reading('a', 1.4)] });
    expect(calm.level).toBe('unreached');
    expect(calm.unreached).toEqual([
      `phone (ntfy) not reached since ${hhmm(base.now - 5 * 60_000)}: connection refused`,
    ]);
    expect(calm.tooltip).toBe(`Tidewatch · ${calm.unreached[0]} · 1 watched loan · worst risk ratio 1.400`);
    expect(trayStateOf({ ...base, status: status({ unreached }), readings: [reading('a', 1.2)] }).level).toBe(
      'critical',
    );
    expect(trayStateOf({ ...base, status: status({ unreached: [] }), readings: [] })).toMatchObject({
      level: 'ok',
      unreached: [],
    });
  });
});

/** The tray's clock (read on the machine itself: no zone), as the format module writes it. */
const hhmm = (ms: number): string => clockText(ms, CORE_LOCALE, false);
