import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { AssetBookCache } from '../../../../src/main/core/risk/asset-book';
import { EventUnits } from '../../../../src/main/core/risk/event-amounts';
import { LateUnits } from '../../../../src/main/core/risk/late-units';
import { ManagerPoolLookup } from '../../../../src/main/core/risk/manager-pools';
import { Store } from '../../../../src/main/core/store/store';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import type { Pool } from '../../../../src/shared/api';
import type { StoredMarginEvent } from '../../../../src/shared/contract';

const MANAGER = `0x${'cd'.repeat(32)}`;
const POOL = {
  pool_id: '0xpool',
  pool_name: 'SUI_USDC',
  base_asset_id: '0x2::sui::SUI',
  base_asset_symbol: 'SUI',
  base_asset_decimals: 9,
  quote_asset_id: '0xusdc::usdc::USDC',
  quote_asset_symbol: 'USDC',
  quote_asset_decimals: 6,
} as Pool;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const deposit = (i: number): StoredMarginEvent => ({
  id: `${1_800_000_000_000 + i}-0`,
  type: 'dex_margin_manager_updates_deposit',
  timestamp_ms: 1_800_000_000_000 + i,
  checkpoint_id: i,
  tx_hash: `tx${i}`,
  margin_manager_id: MANAGER,
  data: { margin_manager_id: MANAGER, base_asset_amount: 0, quote_asset_amount: 1_000_000 + i },
  valid: true,
  problem: null,
  received_at: 0,
});

/**
 * Late units over a real store and asset book whose service answers the pool list only when
 * `answer()` is called (or fails it with `fail()`); the manager's pool is known, the book is not.
 */
function setUp() {
  const store = Store.openInMemory();
  cleanups.push(() => store.close());
  let answer!: () => void;
  let fail!: () => void;
  const poolList = new Promise<Pool[]>((resolve, reject) => {
    answer = () => resolve([POOL]);
    fail = () => reject(new Error('the service is down'));
  });
  const client = {
    pools: () => poolList,
    activeSupplies: async () => ({ items: [], isLastPage: true, currentPage: 0, perPage: 10 }),
    marginPools: async () => [],
    registeredDexPools: async () => [],
  } as unknown as ServiceClient;
  const assets = new AssetBookCache(
    () => client,
    () => true,
  );
  const eventUnits = new EventUnits(store.margin, store.cache, () => assets.now());
  eventUnits.notePool(MANAGER, POOL.pool_id);
  const managerPools = new ManagerPoolLookup({
    client: () => client,
    units: eventUnits,
    remember: () => {},
    canRun: () => false,
    log: () => {},
  });
  const again: StoredMarginEvent[] = [];
  const bus = new EventBus<CoreEvents>();
  bus.on('marginEventsReady', ({ events }) => again.push(...events));
  const late = new LateUnits({
    eventUnits,
    managerPools,
    assets,
    watch: { managers: new Map() },
    link: { mayAsk: () => true },
    events: bus,
  });
  /** What the page was pushed: the events with the units known now. */
  const push = (events: StoredMarginEvent[]): StoredMarginEvent[] => {
    const pushed = eventUnits.apply(events);
    late.afterPush(pushed);
    return pushed;
  };
  return { answer, fail, push, again, late, eventUnits };
}

/** Every promise the answer set going has settled: nothing here waits on a timer. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('units that come late', () => {
  it('pushes events again once the pool list is read, but not those more than 5,000 pushes old', async () => {
    const { answer, push, again } = setUp();
    const old = push([deposit(0), deposit(1), deposit(2)]);
    expect(old.every((e) => e.amounts === undefined)).toBe(true);
    const recent = push(Array.from({ length: 5_000 }, (_, i) => deposit(10 + i)));
    answer();
    await settle();
    expect(again.map((e) => e.id)).toEqual(recent.map((e) => e.id));
    expect(again.every((e) => e.replaces === true)).toBe(true);
    expect(again[0]!.amounts).toEqual([{ label: '', raw: '1000010', decimals: 6, symbol: 'USDC' }]);
  });

  it('pushes nothing again when nothing was learnt, nor what already had its units', async () => {
    const failing = setUp();
    failing.push([deposit(0)]);
    failing.fail();
    await settle();
    expect(failing.again).toEqual([]);

    const loaded = setUp();
    loaded.push([deposit(0)]);
    loaded.answer();
    await settle();
    expect(loaded.again).toHaveLength(1);
    // The book is loaded now: an event pushed with its units is not looked at again.
    loaded.push([deposit(1)]);
    await settle();
    expect(loaded.again).toHaveLength(1);
  });

  it('hands a Live events answer the rows it showed without units, once they have them', async () => {
    const { answer, late, eventUnits, again } = setUp();
    const rows = [deposit(0), deposit(1)];
    const learnt = late.lookUp(rows);
    expect(learnt).toBeDefined();
    const shown = eventUnits.apply(rows);
    late.pushWhenLearnt(shown, learnt!);
    answer();
    expect(await learnt).toBe(true);
    await settle();
    expect(again.map((e) => [e.id, e.amounts?.length])).toEqual([
      [rows[0]!.id, 1],
      [rows[1]!.id, 1],
    ]);
  });
});
