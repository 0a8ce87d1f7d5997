import { afterEach, describe, expect, it } from 'vitest';
import { AlertEngine, riskAlertText } from '../../../../src/main/core/alerts/alert-engine';
import type { WatchedLookup } from '../../../../src/main/core/watch-registry';
import type { TrackerState } from '../../../../src/main/core/alerts/escalation';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { Store } from '../../../../src/main/core/store/store';
import { NO_CHANNELS, UnroutedAlertError } from '../../../../src/main/core/store/risk-alert-repo';
import type { AlertRecord, CreditUsage, RiskReading } from '../../../../src/shared/contract';
import { NO_CHANNEL } from '../../../../src/shared/status';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { alertsHeard } from '../../../support/events';

const rules = { warning: 1.275, critical: 1.225, near_pct: 3, liquidation: 1.2 };
const about = {
  pool: 'WAL_USDC',
  headline: 'Long 10,175.0000 WAL on WAL_USDC: 1.199, liquidation at $0.1965, \u22120.1\u202F%',
  action: 'Deposit 307.41 USDC or repay 70.71 USDC \u2192 1.275',
  text: 'Assets $2,000, debt 1,668 USDC ($1,668): ratio 1.199.',
  liquidation: 1.2,
  ratio: 1.199,
  distance: -0.1,
  updated: 5_000,
};
const reading = (risk_ratio: number, ts_ms: number, distance_pct = -0.1): RiskReading => ({
  manager_id: `0x${'ab'.repeat(32)}`,
  owner: '0xowner',
  ts_ms,
  risk_ratio,
  debt_usd: 1668,
  assets_usd: 1668 * risk_ratio,
  distance_pct,
});

/** A liquidation's words when nothing more is known of it. */
const NO_WORDS = { amounts: () => undefined, pool: () => undefined };

let store: Store | undefined;
afterEach(() => store?.close());

function start(): { engine: AlertEngine; pushed: AlertRecord[] } {
  store = Store.openInMemory();
  store.risk.routeWith(NO_CHANNELS);
  const pushed: AlertRecord[] = [];
  return { engine: new AlertEngine(store.risk, alertsHeard(pushed), 15 * 60_000), pushed };
}

describe('the alert engine (injected clock, a store in memory)', () => {
  it('says a liquidatable position with the action first, at the channels\u2019 critical level', () => {
    const { engine, pushed } = start();
    const fired = engine.onReadings(
      [reading(1.199, 1_000)],
      () => rules,
      1_000,
      () => about,
    );
    expect(fired).toHaveLength(1);
    expect(pushed).toEqual(fired);
    expect(fired[0]).toMatchObject({
      rule: 'risk-threshold',
      level: 'critical',
      title: `Liquidatable now \u2014 ${about.headline}`,
    });
    expect(fired[0]!.message).toBe(
      `${about.action} now. Its ratio 1.199 is at or below its liquidation ratio 1.200: liquidators can take it at any moment. ` +
        `${about.text} It is liquidated at or below a ratio of 1.200.`,
    );
    // The same reading again within the cooldown: nothing new.
    expect(
      engine.onReadings(
        [reading(1.199, 2_000)],
        () => rules,
        2_000,
        () => about,
      ),
    ).toEqual([]);
  });

  it('says a critical position that came half as close again, and never twice for one reading', () => {
    const text = riskAlertText(
      { level: 'critical', kind: 'worse', from: 'critical' },
      reading(1.21, 0),
      rules,
      undefined,
    );
    expect(text.title).toBe('Critical, closer \u2014 Margin manager 0xababab\u2026abab: risk ratio 1.210');
    expect(text.message).toMatch(
      /^Still critical, and half as far from liquidation as at the last alert\. A 0\.1\u202F% fall/,
    );
  });

  it('a valuation of the records from before a liquidation alerts nothing; one from after alerts afresh', () => {
    const { engine } = start();
    const id = `0x${'ab'.repeat(32)}`;
    expect(
      engine.onReadings(
        [reading(1.199, 1_000)],
        () => rules,
        1_000,
        () => about,
      ),
    ).toHaveLength(1);
    // Liquidated on chain at 6,000 (after the records' 5,000): the Liquidated alert, then a
    // valuation still of the old records (the owner's records not read again yet).
    const liquidation = {
      id: '6000-0',
      type: 'liquidation',
      margin_manager_id: id,
      timestamp_ms: 6_000,
      data: '{}',
    } as unknown as IncomingMarginEvent;
    expect(
      engine.onLiquidation(liquidation, '0xowner', 0, {}, { amounts: () => undefined, pool: () => undefined }, 6_100)
        ?.title,
    ).toBe('Liquidated');
    expect(
      engine.onReadings(
        [reading(1.199, 6_200)],
        () => rules,
        6_200,
        () => about,
      ),
    ).toEqual([]);
    // The records read again (changed at 6,000): what is left is judged as a new position.
    const after = { ...about, updated: 6_000 };
    expect(
      engine.onReadings(
        [reading(1.199, 7_000)],
        () => rules,
        7_000,
        () => after,
      ),
    ).toHaveLength(1);
  });

  it('tells "cannot reach you" apart from "cannot see" when only the channels fail', () => {
    const { engine } = start();
    const unheard = engine.onBlind(0, [`${NO_CHANNEL} (phone (ntfy): connection refused)`], 180_000)!;
    expect(unheard.title).toBe('Tidewatch cannot reach you');
    expect(unheard.message).toMatch(/still watches .* none reaches your phone .* Settings/);
    const blind = engine.onBlind(1, ['the service cannot be reached', `${NO_CHANNEL} (phone (ntfy): x)`], 180_000)!;
    expect(blind.title).toBe('Tidewatch cannot see');
  });
});

const MANAGER = `0x${'ab'.repeat(32)}`;
const OWNER = `0x${'cd'.repeat(32)}`;

/** A margin event as the stream hands it over. */
function event(over: Partial<IncomingMarginEvent> = {}): IncomingMarginEvent {
  return {
    id: '6000-0',
    type: 'dex_margin_manager_updates_liquidation',
    timestamp_ms: 6_000,
    checkpoint_id: 1,
    tx_hash: '0xtx',
    margin_manager_id: MANAGER,
    data: JSON.stringify({ margin_manager_id: MANAGER, risk_ratio: 1_150_000 }),
    valid: true,
    problem: null,
    ...over,
  };
}

describe('the alert engine: readings', () => {
  it('alerts each rise in level once, a critical position half as far again, and a steady one never twice', () => {
    const { engine, pushed } = start();
    const at = (ratio: number, distance: number, ts: number): AlertRecord[] =>
      engine.onReadings([reading(ratio, ts, distance)], () => rules, ts);
    const warning = at(1.26, -5, 1_000);
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatchObject({
      rule: 'risk-threshold',
      level: 'warning',
      manager_id: MANAGER,
      owner: '0xowner',
      title: `Warning \u2014 Margin manager 0xababab\u2026abab: risk ratio 1.260`,
      created_at: 1_000,
    });
    expect(warning[0]!.message).toBe(
      'Its ratio 1.260 fell below the warning threshold 1.275. A 5.0\u202F% fall in the base price liquidates it. It is liquidated at or below a ratio of 1.200.',
    );
    // The same level a minute later, and again after the cooldown: a steady position said once.
    expect(at(1.262, -5, 61_000)).toEqual([]);
    expect(at(1.26, -5, 20 * 60_000)).toEqual([]);
    const critical = at(1.22, -2, 21 * 60_000);
    expect(critical.map((a) => [a.level, a.title.split(' \u2014 ')[0]])).toEqual([['critical', 'Critical']]);
    expect(critical[0]!.message).toMatch(/^Its ratio 1\.220 fell below the critical threshold 1\.225\./);
    // Half as far from liquidation (2 % -> 0.9 %): said again, cooldown or not.
    const closer = at(1.215, -0.9, 21 * 60_000 + 5_000);
    expect(closer.map((a) => a.title.split(' \u2014 ')[0])).toEqual(['Critical, closer']);
    expect(at(1.214, -0.8, 21 * 60_000 + 10_000)).toEqual([]);
    const liquidatable = at(1.19, -0.1, 21 * 60_000 + 15_000);
    expect(liquidatable.map((a) => [a.level, a.title.split(' \u2014 ')[0]])).toEqual([
      ['critical', 'Liquidatable now'],
    ]);
    // Everything fired was pushed, in order, and stored once.
    expect(pushed.map((a) => a.id)).toEqual([...warning, ...critical, ...closer, ...liquidatable].map((a) => a.id));
    expect(
      store!.risk
        .alerts()
        .map((a) => a.id)
        .sort(),
    ).toEqual(pushed.map((a) => a.id).sort());
  });

  it('keeps the levels across a restart, writing them only when they change', () => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    let kept: TrackerState | undefined;
    let saves = 0;
    const levels = {
      load: () => kept,
      save: (s: TrackerState) => {
        kept = s;
        saves++;
      },
    };
    const first = new AlertEngine(store.risk, new EventBus<CoreEvents>(), 15 * 60_000, () => {}, levels);
    expect(first.onReadings([reading(1.26, 1_000, -5)], () => rules, 1_000)).toHaveLength(1);
    expect(saves).toBe(1);
    first.onReadings([reading(1.262, 2_000, -5)], () => rules, 2_000);
    expect(saves).toBe(1);
    expect(kept?.levels).toEqual({ [MANAGER]: 'warning' });
    // Restarted: the position still at warning is not news.
    const second = new AlertEngine(store.risk, new EventBus<CoreEvents>(), 15 * 60_000, () => {}, levels);
    expect(second.tracker.level(MANAGER)).toBe('warning');
    expect(second.onReadings([reading(1.26, 3_000, -5)], () => rules, 3_000)).toEqual([]);
    expect(second.onReadings([reading(1.22, 4_000, -2)], () => rules, 4_000)).toHaveLength(1);
    expect(saves).toBe(2);
  });
});

describe('the alert engine: out of danger', () => {
  it('says once that a position told critical is back above its warning line, and never after a warning alone', () => {
    const { engine } = start();
    const at = (ratio: number, distance: number, ts: number): AlertRecord[] =>
      engine.onReadings(
        [reading(ratio, ts, distance)],
        () => rules,
        ts,
        () => ({ ...about, ratio }),
      );
    expect(at(1.26, -5, 1_000).map((a) => a.level)).toEqual(['warning']);
    // Back above 1.275 x 1.02 after a warning only: nothing to say.
    expect(at(1.31, -12, 2_000)).toEqual([]);
    expect(at(1.22, -2, 3_000).map((a) => a.level)).toEqual(['critical']);
    // Above the critical line but still in warning (or inside the hysteresis band): not yet.
    expect(at(1.25, -5, 4_000)).toEqual([]);
    expect(at(1.29, -8, 5_000)).toEqual([]);
    const [out, ...more] = at(1.31, -12, 6_000);
    expect(more).toEqual([]);
    expect(out).toMatchObject({ rule: 'recovered', level: 'info', manager_id: MANAGER, owner: '0xowner' });
    expect(out!.title).toBe(`Out of danger \u2014 ${about.headline}`);
    expect(out!.message).toBe(
      `Its ratio 1.310 is back above the warning threshold 1.275 since its critical alert: nothing to do now. ${about.text} It is liquidated at or below a ratio of 1.200.`,
    );
    expect(at(1.32, -13, 7_000)).toEqual([]); // once per spell
    // A new spell is told again.
    expect(at(1.21, -1, 8_000).map((a) => a.title.split(' \u2014 ')[0])).toEqual(['Critical']);
    expect(at(1.4, -20, 9_000).map((a) => a.rule)).toEqual(['recovered']);
  });

  it('says nothing of a position liquidated meanwhile, nor of a watched wallet whose group is info', () => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    const engine = new AlertEngine(
      store.risk,
      new EventBus<CoreEvents>(),
      15 * 60_000,
      () => {},
      undefined,
      undefined,
      (owner) => (owner === '0xwhale' ? 'info' : 'alert'),
    );
    const whale = { ...reading(1.21, 1_000, -1), owner: '0xwhale', manager_id: `0x${'cd'.repeat(32)}` };
    expect(engine.onReadings([whale], () => rules, 1_000).map((a) => a.level)).toEqual(['info']);
    expect(engine.onReadings([{ ...whale, risk_ratio: 1.4, ts_ms: 2_000 }], () => rules, 2_000)).toEqual([]);

    expect(engine.onReadings([reading(1.21, 1_000, -1)], () => rules, 1_000)).toHaveLength(1);
    const liquidation = {
      id: '1500-0',
      type: 'liquidation',
      margin_manager_id: MANAGER,
      timestamp_ms: 1_500,
      data: '{}',
    } as unknown as IncomingMarginEvent;
    expect(engine.onLiquidation(liquidation, '0xowner', 0, {}, NO_WORDS, 2_000)?.rule).toBe('liquidation');
    // What remains after the liquidation (records changed at 1,500) is a new position: its healthy
    // ratio is not a recovery.
    const after = { ...about, updated: 1_500, ratio: 1.6 };
    expect(
      engine.onReadings(
        [reading(1.6, 3_000, -30)],
        () => rules,
        3_000,
        () => after,
      ),
    ).toEqual([]);
  });
});

describe('the alert engine: margin events', () => {
  it('alerts a watched manager’s liquidation once, shown before it is stored, naming the pool, ratio and amounts', () => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    const pushed: AlertRecord[] = [];
    const storedWhenPushed: boolean[] = [];
    const bus = new EventBus<CoreEvents>();
    bus.on('alertsRaised', ({ alerts }) => {
      pushed.push(...alerts);
      storedWhenPushed.push(...alerts.map((a) => store!.risk.alert(a.id) !== undefined));
    });
    const engine = new AlertEngine(store.risk, bus, 15 * 60_000);
    let worded = 0;
    const watched: WatchedLookup = {
      ownerOf: (id) => (id === MANAGER ? OWNER : undefined),
      since: () => 1_000,
    };
    const events = [
      event({ id: '5000-0', type: 'dex_margin_manager_updates_deposit' }),
      event({ id: '5500-0', margin_manager_id: `0x${'ef'.repeat(32)}` }),
      // Before the owner was watched (a first start's replay of history): stored, not alerted.
      event({ id: '900-0', timestamp_ms: 900 }),
      event(),
    ];
    const fired = engine.onMarginEvents(
      events,
      watched,
      {
        wordsOf: (e, data) => ({
          amounts: () => (worded++, `repaid 12.5 USDC; left 3 SUI (${(data as { risk_ratio: number }).risk_ratio})`),
          pool: () => (e.margin_manager_id === MANAGER ? 'SUI_USDC' : undefined),
        }),
      },
      7_000,
    );
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({
      rule: 'liquidation',
      level: 'critical',
      manager_id: MANAGER,
      owner: OWNER,
      event_id: '6000-0',
      title: 'Liquidated: SUI_USDC',
      message:
        'Margin manager 0xababab\u2026abab (SUI_USDC) of 0xcdcdcd\u2026cdcd was liquidated at a risk ratio of 1.150: repaid 12.5 USDC; left 3 SUI (1150000). Open the position to see what remains.',
      created_at: 7_000,
    });
    expect(pushed).toEqual(fired);
    // On the screen before its row was written; written by the time the engine answered.
    expect(storedWhenPushed).toEqual([false]);
    expect(store.risk.alert(fired[0]!.id)).toMatchObject({ title: 'Liquidated: SUI_USDC' });
    expect(worded).toBe(1);
    // The same event again (a reconnect's replay): nothing, and its words are not read again.
    expect(
      engine.onMarginEvents(
        events,
        watched,
        { wordsOf: () => ({ amounts: () => `${++worded}`, pool: () => undefined }) },
        8_000,
      ),
    ).toEqual([]);
    expect(worded).toBe(1);
    expect(pushed).toHaveLength(1);
  });

  it('still alerts a liquidation whose data, amounts or pool cannot be read', () => {
    const { engine } = start();
    const locked = (): never => {
      throw new Error('database is locked');
    };
    const a = engine.onLiquidation(
      event({ data: 'not json' }),
      OWNER,
      0,
      undefined,
      { amounts: locked, pool: locked },
      7_000,
    );
    expect(a).toMatchObject({
      title: 'Liquidated',
      message:
        'Margin manager 0xababab\u2026abab of 0xcdcdcd\u2026cdcd was liquidated. Open the position to see what remains.',
    });
    expect(engine.onLiquidation(event({ id: '7000-0', timestamp_ms: 500 }), OWNER, 1_000, {}, NO_WORDS)).toBe(
      undefined,
    );
  });

  it('says a large liquidation once per event', () => {
    const { engine, pushed } = start();
    const a = engine.onLargeLiquidation(event(), 1_234_567.8, '1,000,000 USDC', 7_000);
    expect(a).toMatchObject({
      rule: 'large-liquidation',
      level: 'warning',
      owner: null,
      title: 'Large liquidation: $1,234,568',
    });
    expect(a!.message).toMatch(
      /^Margin manager 0xababab\u2026abab was liquidated for 1,000,000 USDC \(about \$1,234,568\)\./,
    );
    expect(engine.onLargeLiquidation(event(), 1_234_567.8, '1,000,000 USDC', 8_000)).toBeUndefined();
    expect(pushed).toHaveLength(1);
  });
});

describe('the alert engine: the monitor itself', () => {
  it('says the store refuses writes even when it cannot store that, and tells the store health', () => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    const pushed: AlertRecord[] = [];
    const notes: unknown[] = [];
    const engine = new AlertEngine(store.risk, alertsHeard(pushed), 15 * 60_000, (err) => notes.push(err));
    const stored = engine.onStoreFailure('cannot write to the store: disk full', 3_600_000);
    expect(stored).toMatchObject({ rule: 'store-write', level: 'critical', title: 'Tidewatch cannot save data' });
    expect(stored.id).toBeGreaterThan(0);
    expect(stored.message).toMatch(/^Cannot write to the store: disk full\. A stream whose data cannot be saved/);
    // The disk fills for good: nothing can be written, the alert is pushed all the same, unstored.
    store.close();
    const unstored = engine.onStoreFailure('cannot write to the store: disk I/O error', 7_200_000);
    expect(unstored).toMatchObject({ id: 0, rule: 'store-write', acknowledged_at: null, snoozed_until: null });
    expect(pushed.map((a) => a.id)).toEqual([stored.id, 0]);
    // Any other alert too: the write's failure goes to the store health, the alert to the screen.
    const gap = engine.onHistoryGap(1_000, 2_000, 'The service keeps 24 hours of history.', 7_300_000);
    expect(gap).toMatchObject({ id: 0, rule: 'history-gap', level: 'info' });
    expect(pushed.at(-1)).toBe(gap);
    expect(notes).toHaveLength(1);
    expect(String(notes[0])).toMatch(/database connection is not open/);
  });

  it('hears on the bus the store refusing writes and the credit budget reached', () => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    const pushed: AlertRecord[] = [];
    const bus = alertsHeard(pushed);
    new AlertEngine(store.risk, bus, 15 * 60_000);
    bus.emit('storeFailed', { reason: 'cannot write to the store: disk full' });
    bus.emit('creditBudgetReached', {
      share: 1,
      usage: { month: '2026-11', thisMonth: 10_000, budget: 10_000 } as unknown as CreditUsage,
    });
    expect(pushed.map((a) => [a.rule, a.title])).toEqual([
      ['store-write', 'Tidewatch cannot save data'],
      ['credit-budget', 'Monthly credit budget used up'],
    ]);
    expect(store.risk.alerts().map((a) => a.rule)).toEqual(['credit-budget', 'store-write']);
  });

  it('dedupes by its keys: a history gap per span, a stream refusal per hour, interest per day, the budget per month', () => {
    const { engine, pushed } = start();
    const H = 3_600_000;
    expect(engine.onHistoryGap(1_000, 2_000, 'm', 10)).toBeDefined();
    expect(engine.onHistoryGap(1_000, 2_000, 'm', 20)).toBeUndefined();
    expect(engine.onHistoryGap(2_000, 3_000, 'm', 30)).toBeDefined();

    const auth = engine.onStreamAuthStopped('margin', 'the service answered 401', 'the stream key', 5 * H);
    expect(auth).toMatchObject({
      title: 'Stream key rejected',
      message: 'The margin stream stopped: the service answered 401',
    });
    expect(engine.onStreamAuthStopped('margin', 'again', 'the stream key', 5 * H + 59 * 60_000)).toBeUndefined();
    expect(engine.onStreamAuthStopped('margin', 'again', 'the stream key', 6 * H)).toBeDefined();
    expect(engine.onStreamAuthStopped('margin', 'x', undefined, 6 * H)?.title).toBe('API key rejected');

    const words = {
      position: 'Long 1,000.0000 SUI on SUI_USDC',
      inMs: 72 * H,
      inWords: 'in 3 days',
      action: 'Deposit 184.00 USDC or repay 180.33 USDC \u2192 1.227',
      rate: '39.00\u202F%',
      liquidation: '1.125',
      facts: 'Assets $3,000.00, debt 2,600.00 USDC ($2,600.00): ratio 1.154.',
    };
    const drift = (now: number): AlertRecord | undefined => engine.onInterestDrift(MANAGER, OWNER, words, now);
    // The day in the reader's zone (UTC in the tests), the repair first.
    expect(drift(24 * H)).toMatchObject({
      title: 'Interest alone liquidates Long 1,000.0000 SUI on SUI_USDC by Jan 5, 12:00 AM UTC (in 3 days)',
      message:
        "Deposit 184.00 USDC or repay 180.33 USDC \u2192 1.227. At today's prices its debt grows at 39.00\u202F% a year " +
        'until it is liquidated by Jan 5, 12:00 AM UTC (in 3 days), its ratio falling to 1.125. ' +
        'Assets $3,000.00, debt 2,600.00 USDC ($2,600.00): ratio 1.154.',
    });
    expect(drift(47 * H)).toBeUndefined();
    expect(drift(48 * H)).toBeDefined();

    const usage = (budget: number): CreditUsage =>
      ({ month: '2026-11', thisMonth: 8_000, budget }) as unknown as CreditUsage;
    expect(engine.onCreditBudget(0.8, usage(10_000), 1)?.title).toBe('80\u202F% of the monthly credit budget used');
    expect(engine.onCreditBudget(0.8, usage(10_000), 2)).toBeUndefined();
    // A budget raised past what is spent warns again when that is reached.
    expect(engine.onCreditBudget(0.8, usage(10_000 * 1.25), 3)).toBeDefined();
    expect(engine.onCreditBudget(1, usage(8_000), 4)?.title).toBe('Monthly credit budget used up');
    expect(pushed).toHaveLength(10);
  });

  it('says how long it was blind and what the catch-up found, once per spell', () => {
    const { engine } = start();
    const since = Date.UTC(2026, 10, 25, 14, 0);
    engine.onBlind(since, ['the service cannot be reached'], since + 3 * 60_000);
    engine.onLiquidation(event(), OWNER, 0, {}, NO_WORDS, since + 4 * 60_000);
    engine.onReadings([reading(1.22, since + 5 * 60_000, -2)], () => rules, since + 5 * 60_000);
    engine.onHistoryGap(1, 2, 'm', since + 5 * 60_000);
    const back = engine.onSight(since, since + 7 * 60_000)!;
    expect(back).toMatchObject({ rule: 'blind', level: 'info', title: 'Tidewatch sees again' });
    expect(back.message).toBe(
      'Blind for 7 min (2:00 PM UTC to 2:07 PM UTC). While you were away: 1 liquidation of a watched manager, 1 threshold crossing, 1 other alert.',
    );
    expect(engine.onSight(since, since + 8 * 60_000)).toBeUndefined();
    expect(engine.onBlind(since, ['the service cannot be reached'], since + 9 * 60_000)).toBeUndefined();
    expect(engine.onSight(since + 60 * 60_000, since + 61 * 60_000)!.message).toMatch(
      /While you were away: nothing happened to the watched positions\.$/,
    );
  });
});

describe('the alert engine: a store with no router', () => {
  it('throws an alert stored before its router is wired, shown first or not, and never passes it off as a store failure', () => {
    store = Store.openInMemory();
    const pushed: AlertRecord[] = [];
    const notes: unknown[] = [];
    const engine = new AlertEngine(store.risk, alertsHeard(pushed), 15 * 60_000, (err) => notes.push(err));
    expect(() => engine.onHistoryGap(1_000, 2_000, 'gap', 3_000)).toThrow(UnroutedAlertError);
    expect(() => engine.onLiquidation(event(), OWNER, 0, JSON.parse(event().data), NO_WORDS, 7_000)).toThrow(
      UnroutedAlertError,
    );
    expect(() => engine.onStoreFailure('the disk is full', 8_000)).toThrow(UnroutedAlertError);
    expect(notes).toEqual([]);
    expect(store.risk.alerts()).toEqual([]);
  });
});
