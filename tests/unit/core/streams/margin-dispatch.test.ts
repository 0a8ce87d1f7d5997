import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord, RiskReading, StoredMarginEvent } from '../../../../src/shared/contract';
import { EVENT_TYPES } from '../../../../src/shared/api';
import { riskRatioToStream } from '../../../../src/shared/units';
import { AlertEngine } from '../../../../src/main/core/alerts/alert-engine';
import { EventUnits } from '../../../../src/main/core/risk/event-amounts';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { Store } from '../../../../src/main/core/store/store';
import { NO_CHANNELS } from '../../../../src/main/core/store/risk-alert-repo';
import { MarginDispatch, type MarginDispatchServices } from '../../../../src/main/core/streams/margin-dispatch';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { WatchRegistry } from '../../../../src/main/core/watch-registry';
import { alertsHeard } from '../../../support/events';

const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function liquidation(id: string, manager: string, ms: number): IncomingMarginEvent {
  return {
    id,
    type: EVENT_TYPES.liquidation,
    timestamp_ms: ms,
    checkpoint_id: 1,
    tx_hash: `tx-${id}`,
    margin_manager_id: manager,
    data: JSON.stringify({
      margin_manager_id: manager,
      liquidation_amount: 10,
      risk_ratio: riskRatioToStream(1.1),
      timestamp: ms,
    }),
    valid: true,
    problem: null,
  };
}

/** An in-memory store watching one owner whose one manager is known, and the alerts it pushes. */
function watched() {
  const store = Store.openInMemory();
  store.risk.routeWith(NO_CHANNELS);
  cleanups.push(() => store.close());
  const owner = `0x${'ab'.repeat(32)}`;
  const manager = `0x${'cd'.repeat(32)}`;
  store.settings.addWatch(owner, null, 0);
  const pushed: AlertRecord[] = [];
  const alerts = new AlertEngine(store.risk, alertsHeard(pushed), 60_000);
  const watch = new WatchRegistry(store.settings, store.margin);
  watch.managers.set(manager, owner);
  const eventUnits = new EventUnits(store.margin, store.cache, () => undefined);
  return { store, manager, pushed, watch, eventUnits, alerts };
}

type Overrides = Partial<Omit<MarginDispatchServices, 'risk'>> & { risk?: Partial<MarginDispatchServices['risk']> };

/**
 * The dispatch over `w`'s watch list, units and engine; the rest (the large-liquidation rule, the
 * page, the risk room after a commit) as `over` gives it, else doing nothing and no page showing.
 */
function dispatchOf(w: ReturnType<typeof watched>, over: Overrides = {}): MarginDispatch {
  return new MarginDispatch({
    watch: w.watch,
    alerts: w.alerts,
    large: { check() {} },
    hub: { count: () => 0 },
    events: new EventBus<CoreEvents>(),
    ...over,
    risk: {
      eventUnits: w.eventUnits,
      lateUnits: { afterPush() {} },
      refresh: { refreshSoon() {} },
      danger: { onMarketLiquidations() {} },
      ...over.risk,
    },
  });
}

describe('a watched liquidation is alerted on receipt', () => {
  it('alerts before the commit, once, and the commit and a replay do not alert again', () => {
    const w = watched();
    const { store, manager, pushed } = w;
    const dispatch = dispatchOf(w);
    const e = liquidation('1800000000000-0', manager, 1_800_000_000_000);

    dispatch.onReceipt(e, JSON.parse(e.data));
    expect(pushed.map((a) => [a.rule, a.event_id, a.manager_id])).toEqual([['liquidation', e.id, manager]]);
    expect(pushed[0]!.message).toContain('was liquidated at a risk ratio of 1.100');
    expect(store.margin.cursor()).toBeUndefined();

    // The dispatch after the commit finds the alert and does not price the event again.
    const priced = vi.spyOn(w.eventUnits, 'amountsOfOne');
    const fresh = store.margin.commit([e]);
    dispatch.afterCommit(fresh);
    expect(priced).not.toHaveBeenCalled();
    dispatch.onReceipt(e, JSON.parse(e.data)); // the same event again after a reconnect
    expect(pushed).toHaveLength(1);
    expect(store.risk.alerts().filter((a) => a.rule === 'liquidation')).toHaveLength(1);

    // Another manager's liquidation, and other event types, alert nothing.
    dispatch.onReceipt(liquidation('1800000000001-0', `0x${'ee'.repeat(32)}`, 1_800_000_000_001), {});
    dispatch.onReceipt(
      { ...liquidation('1800000000002-0', manager, 1_800_000_000_002), type: EVENT_TYPES.deposit },
      {},
    );
    expect(pushed).toHaveLength(1);
  });

  it('replayed history from before the owner was watched is stored without an alert, and without a lookup per liquidation', () => {
    const w = watched();
    const { store, manager, pushed } = w;
    const lookups = vi.spyOn(store.risk, 'hasAlert');
    const old = [
      liquidation('1800000000000-0', manager, 1_800_000_000_000),
      liquidation('1800000000001-0', manager, 1_800_000_000_001),
    ];
    vi.spyOn(w.watch, 'since').mockReturnValue(1_900_000_000_000); // watched later than these
    dispatchOf(w).afterCommit(store.margin.commit(old));
    expect(pushed).toEqual([]);
    expect(lookups).not.toHaveBeenCalled();
    expect(store.margin.count()).toBe(2);
  });

  it('after a commit, events are dressed and pushed only while something shows them; alerts and risk refreshes do not depend on it', () => {
    const w = watched();
    const { store, manager, pushed: alerted } = w;
    const published: StoredMarginEvent[][] = [];
    let refreshes = 0;
    let listening = false;
    const events = new EventBus<CoreEvents>();
    events.on('marginEventsReady', ({ events: e }) => published.push(e));
    const dispatch = dispatchOf(w, {
      events,
      hub: { count: () => (listening ? 1 : 0) },
      risk: { refresh: { refreshSoon: () => refreshes++ } },
    });
    const deposit = { ...liquidation('1800000000000-0', manager, 1_800_000_000_000), type: EVENT_TYPES.deposit };
    dispatch.afterCommit(store.margin.commit([deposit, liquidation('1800000000000-1', manager, 1_800_000_000_000)]));
    expect(published).toEqual([]);
    expect(alerted.map((a) => a.event_id)).toEqual(['1800000000000-1']);
    expect(refreshes).toBe(1);

    listening = true;
    dispatch.afterCommit(store.margin.commit([{ ...deposit, id: '1800000000001-0' }]));
    expect(published.map((batch) => batch.map((e) => [e.id, e.data]))).toEqual([
      [['1800000000001-0', JSON.parse(deposit.data)]],
    ]);
    expect(refreshes).toBe(2);
  });
});

describe('history replayed and events of now', () => {
  it('reads the owners of both, but only events of now count as live and tell of the market, watched or not', () => {
    const w = watched();
    const { store, manager } = w;
    const now = 1_800_000_600_000;
    const refreshed: Array<{ owners: string[]; live: string[] }> = [];
    const market: string[][] = [];
    // Each manager's pool named after the manager, to see which managers the guard is told of.
    vi.spyOn(w.eventUnits, 'poolNamesOf').mockImplementation((ids) => [...ids]);
    const dispatch = dispatchOf(w, {
      risk: {
        refresh: {
          refreshSoon: (owners: ReadonlySet<string>, live: ReadonlySet<string>) =>
            refreshed.push({ owners: [...owners], live: [...live] }),
        },
        danger: { onMarketLiquidations: (pools) => market.push(pools.map((p) => p!)) },
      },
    });
    const owner = w.watch.ownerOf(manager)!;
    const other = `0x${'ef'.repeat(32)}`;
    // Ten minutes old: a first start's replay, or the time an outage missed.
    const replayed = [
      { ...liquidation('1800000000000-0', manager, 1_800_000_000_000), type: EVENT_TYPES.deposit },
      liquidation('1800000000000-1', other, 1_800_000_000_000),
    ];
    dispatch.afterCommit(store.margin.commit(replayed), now);
    expect(refreshed).toEqual([{ owners: [owner], live: [] }]);
    expect(market).toEqual([]);

    const live = [
      { ...liquidation('1800000590000-0', manager, now - 10_000), type: EVENT_TYPES.deposit },
      liquidation('1800000590000-1', other, now - 10_000),
    ];
    dispatch.afterCommit(store.margin.commit(live), now);
    expect(refreshed.at(-1)).toEqual({ owners: [owner], live: [owner] });
    expect(market).toEqual([[other]]);
    // A watched manager's liquidation moved its pool's market too: its siblings there are read.
    dispatch.afterCommit(store.margin.commit([liquidation('1800000590000-2', manager, now - 5_000)]), now);
    expect(market.at(-1)).toEqual([manager]);
  });
});

describe('an alert that cannot be stored (a full disk) is shown all the same', () => {
  /** The app's connection refuses alert rows as a full disk does (the error SQLite gives then). */
  function diskFullForAlerts(store: Store): () => void {
    store.db.exec(
      `CREATE TEMP TRIGGER full BEFORE INSERT ON main.alerts BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END`,
    );
    return () => store.db.exec('DROP TRIGGER temp.full');
  }

  it('a liquidation is shown on receipt and after its commit, the failure told, nothing thrown; once writes work it is stored', () => {
    const w = watched();
    const { store, manager, pushed } = w;
    const failures: unknown[] = [];
    let worked = 0;
    const alerts = new AlertEngine(store.risk, alertsHeard(pushed), 60_000, (err) =>
      err === undefined ? worked++ : failures.push(err),
    );
    const free = diskFullForAlerts(store);
    const e = liquidation('1800000000000-0', manager, 1_800_000_000_000);

    const dispatch = dispatchOf(w, { alerts });
    dispatch.onReceipt(e, JSON.parse(e.data));
    expect(pushed.map((a) => [a.rule, a.event_id])).toEqual([['liquidation', e.id]]);
    expect(String(failures[0])).toContain('database or disk is full');

    // Its row is committed (the writer thread's connection has room); the alert still cannot be stored.
    expect(() => dispatch.afterCommit(store.margin.commit([e]))).not.toThrow();
    expect(pushed.map((a) => a.event_id)).toEqual([e.id, e.id]);
    expect(failures).toHaveLength(2);
    expect(store.risk.alerts()).toEqual([]);

    // Space again: the same event replayed is stored, shown once more, and then never again.
    free();
    dispatch.onReceipt(e, JSON.parse(e.data));
    dispatch.onReceipt(e, JSON.parse(e.data));
    expect(store.risk.alerts().map((a) => a.event_id)).toEqual([e.id]);
    expect(pushed).toHaveLength(3);
    expect(failures).toHaveLength(2);
    expect(worked).toBe(1); // the store health hears that writes work again
  });

  it('a risk threshold crossing goes out unstored (id 0) and the failure is told', () => {
    const { store, manager, pushed } = watched();
    const failures: unknown[] = [];
    const alerts = new AlertEngine(
      store.risk,
      alertsHeard(pushed),
      60_000,
      (err) => err !== undefined && failures.push(err),
    );
    diskFullForAlerts(store);
    const reading: RiskReading = {
      manager_id: manager,
      owner: 'o',
      ts_ms: 1_800_000_000_000,
      risk_ratio: 1.12,
      debt_usd: 1000,
      assets_usd: 1120,
      distance_pct: -4.2,
    };
    const fired = alerts.onReadings(
      [reading],
      () => ({ warning: 1.5, critical: 1.2, near_pct: null, liquidation: 1.1 }),
      1_800_000_000_000,
    );
    expect(fired.map((a) => [a.id, a.rule, a.level])).toEqual([[0, 'risk-threshold', 'critical']]);
    expect(pushed).toEqual(fired);
    expect(failures).toHaveLength(1);
  });
});

describe('every liquidation read is published for the liquidation map', () => {
  it('names each liquidated manager with its time, live or replayed, and nothing for other events', () => {
    const w = watched();
    const events = new EventBus<CoreEvents>();
    const heard: Array<Array<{ manager_id: string; at: number }>> = [];
    events.on('managersLiquidated', ({ liquidations }) => heard.push(liquidations));
    const dispatch = dispatchOf(w, { events });
    const now = 1_800_000_600_000;
    const other = `0x${'ef'.repeat(32)}`;
    dispatch.afterCommit(
      w.store.margin.commit([
        { ...liquidation('1800000000000-0', w.manager, 1_800_000_000_000), type: EVENT_TYPES.deposit },
        liquidation('1800000000000-1', other, 1_800_000_000_000),
        liquidation('1800000590000-1', w.manager, now - 10_000),
      ]),
      now,
    );
    expect(heard).toEqual([
      [
        { manager_id: other, at: 1_800_000_000_000 },
        { manager_id: w.manager, at: now - 10_000 },
      ],
    ]);
    dispatch.afterCommit(
      w.store.margin.commit([{ ...liquidation('1800000590000-2', w.manager, now), type: EVENT_TYPES.deposit }]),
      now,
    );
    expect(heard).toHaveLength(1);
  });
});
