import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { compose, fits, MESSAGE_LIMIT, type Outgoing } from '../../../../src/main/core/notify/compose';
import { blind, liquidation, riskAlert, SUI, SUI2, WAL, type Position } from '../../../support/glance-alerts';

const out = (alert: AlertRecord, repeat = 0, ackUrl: string | null = null): Outgoing => ({ alert, repeat, ackUrl });
/** Twenty positions of SUI_USDC at warning. */
const twenty = Array.from({ length: 20 }, (_, i) =>
  out(riskAlert(i + 1, { ...SUI, manager: `0x${(i + 1).toString(16).padStart(64, '0')}` } satisfies Position, 1.19)),
);

describe('compose', () => {
  it("one alert: its title, the action as the first line, the details after, the link and the alert's number", () => {
    const d = compose([out(riskAlert(7, WAL, 1.19))], { linkBase: 'http://127.0.0.1:5173/', hideAmounts: false });
    expect(d.id).toBe('tidewatch-alert-7');
    expect(d.title).toBe('Long 10,175 WAL on WAL_USDC: 1.19, liquidation at $0.1965, −1.2 %');
    expect(d.message.split('\n')).toEqual([
      'Deposit 307.4 USDC or repay 70.7 WAL → 1.20.',
      'Assets $2,400, debt 1,950 USDC ($1,950): ratio 1.190. WAL at $0.1965 (−1.2 %) liquidates it. It is liquidated below 1.10.',
      'Tidewatch alert 7',
    ]);
    expect(d.click).toBe(`http://127.0.0.1:5173/#/manager/${WAL.manager}`);
    // The webhook's JSON keeps the message as the alert has it.
    expect(d.payload.message).toBe(riskAlert(7, WAL, 1.19).message);
  });

  it('keeps the first line within 120 characters; a cut action comes whole in the details', () => {
    const action = `Deposit ${'12 USDC, '.repeat(14)}or repay 70.7 SUI → 1.20.`;
    const d = compose([out(riskAlert(8, SUI, 1.12, { message: `${action} Details.` }))], {
      linkBase: null,
      hideAmounts: false,
    });
    const [first, second] = d.message.split('\n');
    expect(first!.length).toBeLessThanOrEqual(120);
    expect(first!.endsWith('…')).toBe(true);
    expect(action.startsWith(first!.slice(0, -1))).toBe(true);
    expect(second).toBe(`${action} Details.`);
    // A message that opens with no action is sent as it is.
    const b = compose([out(blind(9))], { linkBase: null, hideAmounts: false });
    expect(b.message).toBe(`${blind(9).message}\nTidewatch alert 9`);
  });

  it('hides amounts when the channel says so, and says so', () => {
    const hidden = compose([out(riskAlert(7, WAL, 1.19))], { linkBase: null, hideAmounts: true });
    expect(hidden.title).toBe('Long ••••• WAL on WAL_USDC: 1.19, liquidation at $•••••, −1.2 %');
    expect(hidden.message.split('\n')[0]).toBe('Deposit ••••• USDC or repay ••••• WAL → 1.20.');
    expect(hidden.message).not.toMatch(/\$2,400|1,950/);
    expect(hidden.message).toContain('ratio 1.190');
    expect(hidden.message).toContain('(Amounts hidden on this channel.)');
  });

  it('a repeat says so and carries the acknowledge link', () => {
    const d = compose([out(riskAlert(8, SUI, 1.12), 2, 'http://h/ack/tok')], { linkBase: null, hideAmounts: false });
    expect(d.id).toBe('tidewatch-alert-8-r2');
    expect(d.title).toBe(
      'Repeat 2, not acknowledged yet: Long 1,200 SUI on SUI_USDC: 1.12, liquidation at $0.1965, −1.2 %',
    );
    expect(d.message.split('\n')[0]).toBe('Deposit 307.4 USDC or repay 70.7 SUI → 1.20.');
    expect(d.message).toContain('Acknowledge (stops the repeats): http://h/ack/tok');
  });

  it('a burst: the summary title of the screen, worst first; compact when the receiver is small', () => {
    const d = compose(twenty, { linkBase: null, hideAmounts: false });
    expect(d.title).toBe('20 positions at warning on SUI_USDC');
    expect(d.message.split('\n').slice(0, 3)).toEqual([
      '• Long 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %',
      '  Deposit 307.4 USDC or repay 70.7 SUI → 1.20.',
      '  Assets $2,400, debt 1,950 USDC ($1,950): ratio 1.190. SUI at $0.1965 (−1.2 %) liquidates it. It is liquidated below 1.10.',
    ]);
    expect(fits(d, MESSAGE_LIMIT['discord'])).toBe(false);
    const small = compose(twenty, { linkBase: null, hideAmounts: false, limit: MESSAGE_LIMIT['discord'] });
    expect(small.message.split('\n').at(-1)).toBe(`Tidewatch alerts ${twenty.map((i) => i.alert.id).join(', ')}`);
    expect(small.message.split('\n')[0]).toBe(
      '• Long 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %: Deposit 307.4 USDC or repay 70.7 SUI → 1.20.',
    );
  });

  it('names a mixed burst as the screen does, the liquidation first, the highest level', () => {
    const one = { linkBase: 'http://h', hideAmounts: false };
    const pool = compose([out(riskAlert(1, SUI, 1.19)), out(liquidation(2, SUI2)), out(riskAlert(3, SUI, 1.12))], one);
    expect(pool.title).toBe('2 positions on SUI_USDC: 1 liquidated, 1 critical');
    expect(pool.message.split('\n')[0]).toBe('• Short 800 SUI on SUI_USDC liquidated at 1.08');
    expect(pool.level).toBe('critical');
    expect(pool.click).toBe('http://h/#/alerts');
    const across = compose([out(riskAlert(1, SUI, 1.19)), out(riskAlert(2, WAL, 1.12)), out(blind(3))], one);
    expect(across.title).toBe('3 alerts: 2 critical, 1 warning');
    expect(across.title).not.toMatch(/0x[0-9a-f]{4}/);
    // One position's alerts: its worst alert's own title, and its page.
    const mine = compose([out(riskAlert(1, WAL, 1.19)), out(riskAlert(2, WAL, 1.13))], one);
    expect(mine.title).toBe('Long 10,175 WAL on WAL_USDC: 1.13, liquidation at $0.1965, −1.2 %');
    expect(mine.click).toBe(`http://h/#/manager/${WAL.manager}`);
    // Repeats, all of them: said once, before the summary.
    const again = compose([out(riskAlert(1, SUI, 1.12), 1), out(riskAlert(2, SUI2, 1.1), 1)], one);
    expect(again.title).toBe('Repeat, not acknowledged yet: 2 positions critical on SUI_USDC');
  });
});
