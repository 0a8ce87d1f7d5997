import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord } from '../../../src/shared/contract';
import { liquidation, riskAlert, SUI, SUI2, SUI3, WAL } from '../../support/glance-alerts';
import { electron } from './electron-mock';

// Electron is mocked: these tests run where no Electron binary exists.
vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module));

const { AlertNotifier, tomorrowAt0 } = await import('../../../src/main/shell/alert-notifier');

const alert = (patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 1,
  rule: 'liquidation',
  level: 'critical',
  manager_id: '0xm',
  owner: '0xo',
  event_id: 'e',
  title: 'Liquidated',
  message: 'gone',
  created_at: 1,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

/** A notifier on a clock the test moves. */
function onClock(onClick: (a: AlertRecord | null) => void = () => {}, privacy = () => false) {
  const clock = { now: Date.UTC(2026, 10, 25, 12) };
  const notifier = new AlertNotifier(onClick, () => clock.now, privacy);
  return {
    notifier,
    clock,
    at: (s: number, alerts: AlertRecord[]) => ((clock.now += s * 1000), notifier.notify(alerts)),
  };
}

describe('AlertNotifier', () => {
  beforeEach(() => electron.shown.splice(0));

  it("shows one alert's title and its action; a click opens the window on it", () => {
    const onClick = vi.fn();
    const { notifier } = onClock(onClick);
    notifier.notify([riskAlert(1, WAL, 1.12), alert({ id: 3, level: 'info', rule: 'interest' })]);
    expect(electron.shown).toEqual([
      expect.objectContaining({
        title: 'Long 10,175 WAL on WAL_USDC: 1.12, liquidation at $0.1965, −1.2 %',
        body: 'Deposit 307.4 USDC or repay 70.7 WAL → 1.20.',
        urgency: 'critical',
        silent: false,
      }),
    ]);
    electron.shown[0]!.click!();
    expect(onClick).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
    expect(notifier.notify([alert({ id: 4, level: 'info', rule: 'interest' })])).toBeNull();
  });

  it('shows one notification per burst, in place as it grows, sounding only when it starts or its level rises', () => {
    const onClick = vi.fn();
    const { at } = onClock(onClick);
    const first = at(0, [riskAlert(1, SUI, 1.19)]); // a warning: a new notification, with its sound
    expect(at(10, [riskAlert(2, SUI2, 1.12)])).toBe(first); // critical: the level rose, it sounds again
    expect(at(25, [riskAlert(3, SUI3, 1.13)])).toBe(first); // replaced quietly
    at(30, [riskAlert(4, SUI, 1.14)]); // 30 s after the previous: still the burst; SUI counts once, at its worst
    const next = at(31, [liquidation(5, WAL)]); // 31 s after: a new burst
    expect(next).not.toBe(first);
    const id = electron.shown[0]!.id;
    expect(electron.shown.map(({ id: i, title, urgency, silent }) => [i === id, title, urgency, silent])).toEqual([
      [true, 'Long 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %', 'normal', false],
      [true, '2 positions on SUI_USDC: 1 critical, 1 warning', 'critical', false],
      [true, '3 positions on SUI_USDC: 2 critical, 1 warning', 'critical', true],
      [true, '3 positions critical on SUI_USDC', 'critical', true],
      [false, 'Long 10,175 WAL on WAL_USDC liquidated at 1.08', 'critical', false],
    ]);
    expect(electron.shown[3]!.body).toBe(
      [
        'Short 800 SUI on SUI_USDC: 1.12, liquidation at $0.1965, −1.2 %',
        'Long 3,050 SUI on SUI_USDC: 1.13, liquidation at $0.1965, −1.2 %',
        'Long 1,200 SUI on SUI_USDC: 1.14, liquidation at $0.1965, −1.2 %',
      ].join('\n'),
    );
    // Several: the click opens the Alerts page. A click ends the burst: the next alert is shown afresh.
    electron.shown[3]!.click!();
    expect(onClick).toHaveBeenLastCalledWith(null);
    electron.shown[4]!.click!();
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 5 }));
    const after = at(1, [riskAlert(6, SUI, 1.19)]);
    expect(after).not.toBeNull();
    expect(after).not.toBe(next);
    expect(electron.shown.at(-1)).toMatchObject({
      title: 'Long 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %',
      silent: false,
    });
  });

  it("turns the trader's 34 alerts in 15 minutes into 3 notifications and 6 sounds", () => {
    const { clock, notifier } = onClock();
    const start = clock.now;
    const positions = [SUI, SUI2, SUI3, WAL];
    let id = 0;
    // Three bursts 5 minutes apart (12, 12 and 10 alerts, 8 s apart): warnings, then critical, then liquidations.
    for (const [from, count] of [
      [0, 12],
      [300, 12],
      [600, 10],
    ] as const) {
      for (let i = 0; i < count; i++) {
        clock.now = start + (from + i * 8) * 1000;
        const p = positions[i % 4]!;
        id++;
        notifier.notify([i >= 10 ? liquidation(id, p) : riskAlert(id, p, i < 4 ? 1.19 : 1.12)]);
      }
    }
    expect(electron.shown).toHaveLength(34);
    expect(new Set(electron.shown.map((s) => s.id)).size).toBe(3);
    // Each burst sounds as it starts (a warning) and once more as it turns critical.
    expect(electron.shown.filter((s) => !s.silent)).toHaveLength(6);
  });

  it("masks the amounts of the user's own positions in privacy mode, not other traders'", () => {
    let privacy = true;
    const { at } = onClock(
      () => {},
      () => privacy,
    );
    at(0, [riskAlert(1, WAL, 1.12)]);
    expect(electron.shown[0]).toMatchObject({
      title: 'Long ••••• WAL on WAL_USDC: 1.12, liquidation at $•••••, −1.2 %',
      body: 'Deposit ••••• USDC or repay ••••• WAL → 1.20.',
    });
    at(60, [
      alert({
        id: 2,
        rule: 'large-liquidation',
        level: 'warning',
        owner: null,
        title: 'Large liquidation: $3,600',
        message: 'Margin manager 0x5dc2…e25f was liquidated for 1,200 SUI (about $3,600).',
      }),
    ]);
    expect(electron.shown[1]).toMatchObject({
      title: 'Large liquidation: $3,600',
      body: 'Margin manager 0x5dc2…e25f was liquidated for 1,200 SUI (about $3,600).',
    });
    privacy = false;
    at(60, [riskAlert(3, WAL, 1.12)]);
    expect(electron.shown[2]!.body).toBe('Deposit 307.4 USDC or repay 70.7 WAL → 1.20.');
  });

  it('respects a pause (1 hour, until tomorrow) and resumes', () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const n = new AlertNotifier(
      () => {},
      () => now,
    );
    n.pause(3_600_000);
    expect(n.notify([alert()])).toBeNull();
    now += 3_600_001;
    expect(n.notify([alert()])).not.toBeNull();
    n.pause('tomorrow');
    expect(n.pausedUntil).toBe(tomorrowAt0(now));
    expect(n.notify([alert()])).toBeNull();
    n.pause(null);
    expect(n.notify([alert({ rule: 'stream-auth', level: 'warning', title: 'API key rejected' })])).not.toBeNull();
  });
});
