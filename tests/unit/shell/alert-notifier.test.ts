import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord } from '../../../src/shared/contract';
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

describe('AlertNotifier', () => {
  beforeEach(() => electron.shown.splice(0));

  it('shows critical and warning alerts, and a click opens the window on the alert', () => {
    const onClick = vi.fn();
    const n = new AlertNotifier(onClick);
    n.notify([
      alert(),
      alert({ id: 2, rule: 'risk-threshold', level: 'warning', title: 'Warning' }),
      alert({ id: 3, level: 'info' }),
    ]);
    expect(electron.shown.map((s) => [s.title, s.urgency])).toEqual([
      ['Liquidated', 'critical'],
      ['Warning', 'normal'],
    ]);
    electron.shown[0]!.click!();
    expect(onClick).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
  });

  it("masks the amounts of the user's own positions in privacy mode, not other traders'", () => {
    let privacy = true;
    const n = new AlertNotifier(
      () => {},
      Date.now,
      () => privacy,
    );
    const message =
      'Margin manager 0x5dc2…e25f (WAL_USDC) fell below the critical threshold (1.25). Debt 791.5 USDC ($791.50). WAL at $0.1925 (-10.8 %) liquidates it.';
    n.notify([
      alert({ message }),
      alert({
        id: 2,
        rule: 'large-liquidation',
        level: 'warning',
        owner: null,
        message: 'liquidated for 1,200 SUI (about $3,600)',
      }),
    ]);
    expect(electron.shown[0]!.body).toBe(
      'Margin manager 0x5dc2…e25f (WAL_USDC) fell below the critical threshold (1.25). Debt ••••• USDC ($•••••). WAL at $••••• (-10.8 %) liquidates it.',
    );
    expect(electron.shown[1]!.body).toBe('liquidated for 1,200 SUI (about $3,600)');
    privacy = false;
    n.notify([alert({ id: 3, message })]);
    expect(electron.shown[2]!.body).toBe(message);
  });

  it('respects a pause (1 hour, until tomorrow) and resumes', () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const n = new AlertNotifier(
      () => {},
      () => now,
    );
    n.pause(3_600_000);
    expect(n.notify([alert()])).toHaveLength(0);
    now += 3_600_001;
    expect(n.notify([alert()])).toHaveLength(1);
    n.pause('tomorrow');
    expect(n.pausedUntil).toBe(tomorrowAt0(now));
    expect(n.notify([alert()])).toHaveLength(0);
    n.pause(null);
    expect(n.notify([alert({ rule: 'stream-auth', level: 'warning', title: 'API key rejected' })])).toHaveLength(1);
  });
});
