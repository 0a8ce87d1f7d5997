import { describe, expect, it } from 'vitest';
import {
  Bursts,
  burstText,
  cutAt,
  isAction,
  leadOf,
  sentencesOf,
  splitAction,
  summaryTitle,
} from '../../../src/shared/alert-notice';
import { blind, liquidation, riskAlert, SUI, SUI2, SUI3, WAL } from '../../support/glance-alerts';

const HEX = /0x[0-9a-f]{4}/;

describe('the action first, within 120 characters', () => {
  it('leaves a short text alone and cuts a long one on a word boundary with "…"', () => {
    expect(cutAt('Deposit 307.4 USDC or repay 70.7 SUI → 1.20.')).toBe('Deposit 307.4 USDC or repay 70.7 SUI → 1.20.');
    const long =
      'Deposit 307.4 USDC, 1,200 SUI, 40,000 WAL or 12 DEEP, or repay 70.7 SUI and 1,950 USDC of the debt, or close the position before the price falls → 1.20.';
    const cut = cutAt(long);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(cut).toBe(
      'Deposit 307.4 USDC, 1,200 SUI, 40,000 WAL or 12 DEEP, or repay 70.7 SUI and 1,950 USDC of the debt, or close the…',
    );
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(long[cut.length - 1]).toBe(' ');
    // A word that ends on the 119th character is kept whole; a text of one giant word is cut inside it.
    const edge = `${'a'.repeat(118)}b and more`;
    expect(cutAt(edge)).toBe(`${'a'.repeat(118)}b…`);
    expect(cutAt('x'.repeat(300))).toBe(`${'x'.repeat(119)}…`);
    // A cut after a comma drops the comma.
    expect(cutAt(`${'a '.repeat(58)}bb, cc dd`)).toBe(`${'a '.repeat(58)}bb…`);
    // A percentage's narrow no-break space is not white space to fold, nor a place to cut.
    expect(cutAt('WAL at $0.1965  (\u22121.2\u202F%) liquidates it.')).toBe(
      'WAL at $0.1965 (\u22121.2\u202F%) liquidates it.',
    );
    expect(cutAt(`${'a '.repeat(58)}12.5\u202F% of it`)).toBe(`${'a '.repeat(58).trimEnd()}…`);
  });

  it('tells sentences apart by a full stop before a space, not by a decimal point', () => {
    expect(sentencesOf('Deposit 307.4 USDC or repay 70.7 SUI → 1.20. WAL at $0.1965 (−1.2 %) liquidates it.')).toEqual([
      'Deposit 307.4 USDC or repay 70.7 SUI → 1.20.',
      'WAL at $0.1965 (−1.2 %) liquidates it.',
    ]);
    expect(sentencesOf('Repay 70.7072 SUI.  WAL at $0.1965 (\u22121.2\u202F%) liquidates it.')).toEqual([
      'Repay 70.7072 SUI.',
      'WAL at $0.1965 (\u22121.2\u202F%) liquidates it.',
    ]);
    expect(isAction('Deposit 307.4 USDC or repay 70.7 SUI → 1.20.')).toBe(true);
    expect(isAction('Repay 70.7 SUI → 1.20.')).toBe(true);
    expect(isAction('Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the warning threshold (1.2).')).toBe(false);
    expect(isAction('deposit is lower case, a continuation')).toBe(false);
  });

  it("takes a notification's body from the message's action sentence, else its first sentences", () => {
    const a = riskAlert(1, WAL, 1.19);
    expect(leadOf(a.message)).toBe('Deposit 307.4 USDC or repay 70.7 WAL → 1.20.');
    // An engine message of before (the action last): its first sentences that fit, nothing cut mid-word.
    const before =
      'Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the critical threshold (1.15). Assets $3,000, debt 2,600 USDC ($2,600): ratio 1.154. Deposit 120 USDC or repay 100 USDC to get back to 1.20.';
    expect(leadOf(before)).toBe('Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the critical threshold (1.15).');
    // Whole sentences while they fit; the first one alone cut when it is longer than 120 characters.
    expect(leadOf(blind(2).message)).toBe('Since 14:02 (3 min): the margin stream is down.');
    const lead = leadOf(blind(2, { message: blind(2).message.slice(48) }).message);
    expect(lead.length).toBeLessThanOrEqual(120);
    expect(lead).toBe(
      'Liquidations and threshold crossings are not seen until it sees again; what happened meanwhile is read then and…',
    );
  });

  it('splits a message into its action line and the details; a cut action comes whole in the details', () => {
    expect(splitAction(riskAlert(1, WAL, 1.19).message)).toEqual({
      action: 'Deposit 307.4 USDC or repay 70.7 WAL → 1.20.',
      details:
        'Assets $2,400, debt 1,950 USDC ($1,950): ratio 1.190. WAL at $0.1965 (−1.2 %) liquidates it. It is liquidated below 1.10.',
    });
    const long = `Deposit ${'12 USDC, '.repeat(15)}or repay 70.7 SUI → 1.20. Details.`;
    const split = splitAction(long);
    expect(split.action!.length).toBeLessThanOrEqual(120);
    expect(split.action!.endsWith('…')).toBe(true);
    expect(split.details).toBe(long);
    expect(splitAction(blind(1).message)).toEqual({ action: null, details: blind(1).message });
  });
});

describe('summary titles', () => {
  it('names positions of one pool in one state: "3 positions critical on SUI_USDC"', () => {
    const three = [riskAlert(1, SUI, 1.12), riskAlert(2, SUI2, 1.1), riskAlert(3, SUI3, 1.14)];
    expect(summaryTitle(three)).toBe('3 positions critical on SUI_USDC');
    expect(summaryTitle([riskAlert(1, SUI, 1.19), riskAlert(2, SUI2, 1.18)])).toBe(
      '2 positions at warning on SUI_USDC',
    );
    expect(summaryTitle([liquidation(1, SUI), liquidation(2, SUI2)])).toBe('2 positions liquidated on SUI_USDC');
    // A position counts once, at its worst: SUI went warning then critical.
    expect(summaryTitle([riskAlert(1, SUI, 1.19), riskAlert(2, SUI2, 1.12), riskAlert(3, SUI, 1.13)])).toBe(
      '2 positions critical on SUI_USDC',
    );
    expect(summaryTitle([riskAlert(1, SUI, 1.19), riskAlert(2, SUI2, 1.12), liquidation(3, SUI3)])).toBe(
      '3 positions on SUI_USDC: 1 liquidated, 1 critical, 1 warning',
    );
  });

  it('counts by level across pools and other alerts: "3 alerts: 2 critical, 1 warning"', () => {
    expect(summaryTitle([riskAlert(1, SUI, 1.19), riskAlert(2, WAL, 1.12), riskAlert(3, SUI2, 1.1)])).toBe(
      '3 alerts: 2 critical, 1 warning',
    );
    expect(summaryTitle([riskAlert(1, SUI, 1.12), blind(2)])).toBe('2 alerts: 2 critical');
  });

  it("gives one position's alerts its worst alert's own title, and never a manager's hex id", () => {
    const one = [riskAlert(1, WAL, 1.19), riskAlert(2, WAL, 1.13), riskAlert(3, WAL, 1.14)];
    expect(summaryTitle(one)).toBe('Long 10,175 WAL on WAL_USDC: 1.14, liquidation at $0.1965, −1.2 %');
    const many = [riskAlert(1, SUI, 1.12), riskAlert(2, WAL, 1.19), liquidation(3, SUI2), blind(4)];
    expect(summaryTitle(many)).not.toMatch(HEX);
    expect(burstText(many).body).not.toMatch(HEX);
  });

  it('lists the worst first in the body of several, at most four lines', () => {
    const alerts = [
      riskAlert(1, SUI, 1.19),
      riskAlert(2, WAL, 1.12),
      liquidation(3, SUI2),
      riskAlert(4, SUI3, 1.18),
      blind(5),
      riskAlert(6, SUI, 1.13),
    ];
    expect(burstText(alerts)).toEqual({
      title: '5 alerts: 1 liquidated, 3 critical, 1 warning',
      body: [
        'Short 800 SUI on SUI_USDC liquidated at 1.08',
        'Long 10,175 WAL on WAL_USDC: 1.12, liquidation at $0.1965, −1.2 %',
        'Tidewatch cannot see',
        'Long 1,200 SUI on SUI_USDC: 1.13, liquidation at $0.1965, −1.2 %',
        'and 1 more',
      ].join('\n'),
    });
    expect(burstText([riskAlert(1, WAL, 1.19)])).toEqual({
      title: 'Long 10,175 WAL on WAL_USDC: 1.19, liquidation at $0.1965, −1.2 %',
      body: 'Deposit 307.4 USDC or repay 70.7 WAL → 1.20.',
    });
  });
});

describe('bursts', () => {
  it('joins an alert within 30 s of the previous one, for at most 5 minutes; a click ends the burst', () => {
    let now = 0;
    const bursts = new Bursts(() => now);
    expect(bursts.add([])).toBeNull();
    const first = bursts.add([riskAlert(1, SUI, 1.19)])!;
    expect(first).toMatchObject({ started: true, rose: true, level: 'warning' });
    now += 29_000;
    const second = bursts.add([riskAlert(2, SUI2, 1.18)])!;
    expect(second).toMatchObject({ key: first.key, started: false, rose: false });
    expect(second.alerts.map((a) => a.id)).toEqual([1, 2]);
    now += 30_000; // 30 s after the previous one: still the same burst
    expect(bursts.add([riskAlert(3, SUI3, 1.12)])).toMatchObject({
      key: first.key,
      rose: true,
      level: 'critical',
    });
    now += 30_001;
    const third = bursts.add([riskAlert(4, WAL, 1.19)])!;
    expect(third).toMatchObject({ started: true, rose: true, level: 'warning' });
    expect(third.key).not.toBe(first.key);
    expect(third.alerts.map((a) => a.id)).toEqual([4]);
    // Alerts every 20 s: the burst is closed 5 minutes after its first.
    const keys = new Set<string>();
    for (let i = 0; i < 16; i++) {
      now += 20_000;
      keys.add(bursts.add([riskAlert(10 + i, WAL, 1.19)])!.key);
    }
    expect(keys.size).toBe(2);
    // An alert pushed again (a change) keeps its place.
    const again = bursts.add([riskAlert(25, WAL, 1.19, { snoozed_until: 1 })])!;
    expect(again.alerts.filter((a) => a.id === 25)).toHaveLength(1);
    bursts.end();
    expect(bursts.add([riskAlert(30, WAL, 1.19)])).toMatchObject({ started: true });
  });
});
