import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { liquidationsRead, POOLS_READ } from '../../../../src/main/core/credits/credit-plan';
import type { AssetBook } from '../../../../src/main/core/risk/asset-book';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import {
  LIQUIDATION_MAP_STORE_RETRY_MS,
  LiquidationMapWatch,
  mapOf,
} from '../../../../src/main/core/risk/liquidation-map';
import {
  plannedCreditsPerDay,
  planReads,
  readPlanOf,
  type BudgetState,
} from '../../../../src/main/core/risk/price-schedule';
import { DEFAULT_RISK_PARAMS } from '../../../../src/main/core/risk/risk-params';
import { LiquidationMapRepo } from '../../../../src/main/core/store/liquidation-map-repo';
import { migrate } from '../../../../src/main/core/store/migrations';
import { StoreHealth } from '../../../../src/main/core/store/store-health';
import type { ActiveLoan, Pool } from '../../../../src/shared/api';
import type { PositionSummary } from '../../../../src/shared/contract';
import { PLANS } from '../../../../src/shared/credit-prices';
import { PRIOR_DAILY_VOL } from '../../../../src/main/core/risk/volatility';
import { suiLong } from '../../../support/positions';
import Database from 'better-sqlite3';

const HOUR = 3_600_000;
const POOL = {
  pool_id: '0xpool',
  pool_name: 'SUI_USDC',
  base_asset_id: 'SUI',
  quote_asset_id: 'USDC',
  base_asset_decimals: 9,
  quote_asset_decimals: 6,
  base_asset_symbol: 'SUI',
  quote_asset_symbol: 'USDC',
  tick_size: 100,
  lot_size: 1e8,
  min_size: 1e8,
} as unknown as Pool;
const book: AssetBook = {
  poolsById: new Map([[POOL.pool_id, POOL]]),
  marginPoolAsset: new Map([
    ['0xmusdc', 'USDC'],
    ['0xmsui', 'SUI'],
  ]),
  decimalsOf: new Map([
    ['SUI', 9],
    ['USDC', 6],
  ]),
  risk: { byPool: new Map(), published: false },
  interest: new Map(),
};

/** A long of `sui` SUI owing `usdc` USDC: liquidated at 1.125 x usdc / sui. */
function loan(id: string, sui: number, usdc: number, nested = true): ActiveLoan {
  return {
    margin_manager_id: id,
    margin_pool_id: '0xmusdc',
    loan_amount: usdc * 1e6,
    loan_shares: usdc * 1e6,
    remaining_amount: usdc * 1e6,
    remaining_shares: usdc * 1e6,
    risk_ratio: null,
    checkpoint: 1,
    timestamp: '2026-11-20T00:00:00Z',
    digest: 'd',
    checkpoint_timestamp_ms: 0,
    margin_manager: nested
      ? ({ margin_manager_id: id, dex_pool_id: POOL.pool_id, deposit: depositOf(id, sui) } as never)
      : null,
  } as ActiveLoan;
}
const depositOf = (id: string, sui: number) => ({
  margin_manager_id: id,
  base_asset_amount: sui * 1e9,
  quote_asset_amount: 0,
  last_base_oracle_price: 0,
  last_base_oracle_decimals: 0,
  last_quote_oracle_price: 0,
  last_quote_oracle_decimals: 0,
  checkpoint: 1,
  timestamp: '2026-11-20T00:00:00Z',
  digest: 'd',
});

describe("the liquidation map's entries", () => {
  it("places each manager from its loans and its details, nested or from the managers' list", () => {
    const listed = new Map([
      ['b', { margin_manager_id: 'b', dex_pool_id: POOL.pool_id, deposit: depositOf('b', 100) } as never],
    ]);
    const { byPool, unplaced } = mapOf(
      [loan('a', 100, 240), loan('b', 0, 200, false), loan('c', 0, 1, false)],
      listed,
      book,
    );
    const entries = byPool.get('SUI_USDC')!;
    // b: 1.125 x 200 / 100 = 2.25; a: 1.125 x 240 / 100 = 2.70; lowest first. c: no details anywhere.
    expect(entries.map((e) => [e.manager_id, e.price])).toEqual([
      ['b', expect.closeTo(2.25, 12)],
      ['a', expect.closeTo(2.7, 12)],
    ]);
    expect(entries[1]!.repay).toBeCloseTo(0.625 * 240, 9);
    expect(unplaced).toEqual({});
    expect(DEFAULT_RISK_PARAMS.liquidation).toBe(1.125);
  });
});

describe("the liquidation map's read", () => {
  let db: Database.Database;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 23) });
    db = new Database(':memory:');
    migrate(db);
  });
  afterEach(() => {
    vi.useRealTimers();
    db.close();
  });

  function watchWith(intervalMs: () => number | null, nested = true, valued?: () => PositionSummary[]) {
    const calls: string[] = [];
    const page = <T>(items: T[], page: number) => ({
      items: items.slice(page * 50, page * 50 + 50),
      isLastPage: page * 50 + 50 >= items.length,
      currentPage: page,
      perPage: 50,
    });
    const loans = Array.from({ length: 120 }, (_, i) => loan(`m${i}`, 100, 200 + i, nested));
    const client = {
      activeLoans: async (_o: undefined, p: { page: number }) => (calls.push(`loans ${p.page}`), page(loans, p.page)),
      marginManagers: async (_o: undefined, p: { page: number }) => (
        calls.push(`managers ${p.page}`),
        page(
          loans.map((l) => ({
            margin_manager_id: l.margin_manager_id,
            dex_pool_id: POOL.pool_id,
            deposit: depositOf(l.margin_manager_id, 100),
          })),
          p.page,
        )
      ),
    } as unknown as ServiceClient;
    const repo = new LiquidationMapRepo(db);
    const watch = new LiquidationMapWatch({
      client: () => client,
      book: async () => book,
      repo: () => repo,
      storeHealth: { note: () => {} },
      own: () => new Map([['m3', '0xowner']]),
      valued,
      intervalMs,
      canRun: () => true,
      log: () => {},
      now: () => Date.now(),
    });
    return { watch, calls, repo };
  }

  it("reads every page on the plan's interval, and as the budget stretches it", async () => {
    let every: number | null = HOUR;
    const { watch, calls, repo } = watchWith(() => every);
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    // 120 loans: 3 pages, 30 credits a read (the margin lists' estimate of 10 a page).
    expect(calls).toEqual(['loans 0', 'loans 1', 'loans 2']);
    expect(repo.lastRead()).toMatchObject({ pages: 3, loans: 120 });
    expect(watch.readCredits()).toBe(30);
    const view = watch.view('SUI_USDC', 0.0001);
    expect(view.entries).toHaveLength(120);
    expect(view.entries.filter((e) => e.own).map((e) => e.manager_id)).toEqual(['m3']);
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(6);
    // The budget stretches it to a day: the next read a day after the last.
    every = 24 * HOUR;
    watch.retime();
    await vi.advanceTimersByTimeAsync(23 * HOUR);
    expect(calls).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(calls).toHaveLength(9);
    // Nothing left to spend: no read.
    every = Infinity;
    watch.retime();
    await vi.advanceTimersByTimeAsync(48 * HOUR);
    expect(calls).toHaveLength(9);
    expect(watch.everyMs()).toBeNull();
    watch.close();
  });

  it('leaves out the managers the margin stream reports liquidated since the read, until the next read', async () => {
    const bus = new EventBus<CoreEvents>();
    const { watch, repo } = watchWith(() => HOUR);
    // As risk-services.ts wires it.
    bus.on('managersLiquidated', ({ liquidations }) => watch.onLiquidated(liquidations));
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    const readAt = repo.lastRead()!.readAt;
    const before = watch.view('SUI_USDC', 0.0001);
    expect(before).toMatchObject({ liquidated: 0 });
    expect(before.entries).toHaveLength(120);
    // m5 liquidated 10 minutes after the read; m6 a minute before it (the read knows); m999 is in no map.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    bus.emit('managersLiquidated', {
      liquidations: [
        { manager_id: 'm5', at: readAt + 10 * 60_000 },
        { manager_id: 'm6', at: readAt - 60_000 },
        { manager_id: 'm999', at: readAt + 10 * 60_000 },
      ],
    });
    const after = watch.view('SUI_USDC', 0.0001);
    expect(after.liquidated).toBe(1);
    expect(after.entries.map((e) => e.manager_id)).not.toContain('m5');
    expect(after.entries.map((e) => e.manager_id)).toContain('m6');
    expect(after.entries).toHaveLength(119);
    // m5's repay is out of its bucket too: the cascade and the manager page count what the view has.
    const repay = (v: typeof after) => v.buckets.reduce((a, b) => a + b.long.repay, 0);
    expect(repay(before) - repay(after)).toBeCloseTo(before.entries.find((e) => e.manager_id === 'm5')!.repay, 6);
    // Kept in the store: a restart's view leaves it out as well.
    expect(new LiquidationMapRepo(db).entries('SUI_USDC')).toHaveLength(119);
    // The next read (an hour after the first) places every manager again as it then stands.
    await vi.advanceTimersByTimeAsync(50 * 60_000);
    expect(repo.lastRead()!.readAt).toBe(readAt + HOUR);
    expect(watch.view('SUI_USDC', 0.0001)).toMatchObject({ liquidated: 0, entries: expect.any(Array) });
    expect(watch.view('SUI_USDC', 0.0001).entries).toHaveLength(120);
    watch.close();
  });

  it('keeps a watched position on the map at its liquidation price now, after a partial liquidation', async () => {
    // Review (WAL_USDC, speed 300): "Below the price: 1 longs" while the chart showed four of the
    // trader's own longs below it, partly liquidated since the read and so left out of the map.
    let valued: PositionSummary[] = [];
    const bus = new EventBus<CoreEvents>();
    const { watch, repo } = watchWith(
      () => HOUR,
      true,
      () => valued,
    );
    bus.on('managersLiquidated', ({ liquidations }) => watch.onLiquidated(liquidations));
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    const readAt = repo.lastRead()!.readAt;
    bus.emit('managersLiquidated', { liquidations: [{ manager_id: 'm3', at: readAt + 60_000 }] });
    expect(watch.view('SUI_USDC', 0.0001).entries.map((e) => e.manager_id)).not.toContain('m3');
    // Valued after its partial liquidation: 1,000 SUI against 1,250 USDC, liquidated at 1.4063.
    valued = [{ ...suiLong({}, 1.6), manager_id: 'm3', pool_name: 'SUI_USDC', debt_quote: 1_250 }];
    const view = watch.view('SUI_USDC', 0.0001);
    const m3 = view.entries.find((e) => e.manager_id === 'm3')!;
    expect(m3).toMatchObject({ own: true, side: 'long' });
    expect(m3.price).toBeCloseTo((1.125 * 1_250) / 1_000, 9);
    // It is no longer counted as left out; the others' entries are the read's.
    expect(view.liquidated).toBe(0);
    expect(view.entries).toHaveLength(120);
    expect(view.entries.map((e) => e.price)).toEqual([...view.entries.map((e) => e.price)].sort((a, b) => a - b));
    watch.close();
  });

  it('leaves out a manager liquidated while a read is under way, once that read is kept', async () => {
    const { watch, repo } = watchWith(() => HOUR);
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    // A second read begins; m7 is liquidated before it is saved (its loans listed before, perhaps).
    const reading = watch.read();
    watch.onLiquidated([{ manager_id: 'm7', at: Date.now() }]);
    await reading;
    expect(repo.lastRead()!.readAt).toBe(Date.now());
    const view = watch.view('SUI_USDC', 0.0001);
    expect(view.entries.map((e) => e.manager_id)).not.toContain('m7');
    expect(view.liquidated).toBe(1);
    watch.close();
  });

  it("starts from the store's map when it is recent, and reads the managers' list where loans lack details", async () => {
    const { watch, calls } = watchWith(() => HOUR, false);
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['loans 0', 'loans 1', 'loans 2', 'managers 0', 'managers 1', 'managers 2']);
    expect(watch.readCredits()).toBe(60);
    expect(watch.view('SUI_USDC', null).entries).toHaveLength(120);
    watch.close();
    // A restart 10 minutes later waits out the hour from the read kept.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const again = watchWith(() => HOUR, false);
    again.watch.start();
    await vi.advanceTimersByTimeAsync(49 * 60_000);
    expect(again.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(again.calls).toHaveLength(6);
    again.watch.close();
  });
});

describe("the liquidation map's read on a full disk", () => {
  let db: Database.Database;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 23) });
    db = new Database(':memory:');
    migrate(db);
  });
  afterEach(() => {
    vi.useRealTimers();
    db.close();
  });

  /** A watch whose store is full from the start (SQLITE_FULL, as a full volume gives), its reads and writes counted. */
  function fullWatch() {
    const health = new StoreHealth(new EventBus<CoreEvents>());
    const reads: number[] = [];
    // Enough loans that their entries need pages the full store does not have.
    const loans = Array.from({ length: 400 }, (_, i) => loan(`m${i}`, 100, 200 + i));
    const client = {
      activeLoans: async () => (
        reads.push(Date.now()),
        { items: loans, isLastPage: true, currentPage: 0, perPage: 50 }
      ),
    } as unknown as ServiceClient;
    const repo = new LiquidationMapRepo(db);
    const writes = vi.spyOn(repo, 'replace');
    const watch = new LiquidationMapWatch({
      client: () => client,
      book: async () => book,
      repo: () => repo,
      storeHealth: health,
      own: () => new Map(),
      intervalMs: () => HOUR,
      canRun: () => true,
      log: () => {},
      now: () => Date.now(),
    });
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    return { watch, health, reads, writes, repo };
  }

  it('writes the read again every 5 s, without reading again, until it goes in; the status says so meanwhile', async () => {
    const { watch, health, reads, writes, repo } = fullWatch();
    const t0 = Date.now();
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toEqual([t0]);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(repo.lastRead()).toBeNull();
    expect(health.current()).toBe('cannot write to the store: disk full');
    // Tried again every 5 s while the store stays full; another writer's success does not clear it.
    await vi.advanceTimersByTimeAsync(3 * LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(4);
    health.noteError(new Error('x'), 'cache');
    health.noteOk('cache');
    expect(health.current()).toBe('cannot write to the store: disk full');
    expect(reads).toHaveLength(1);

    // Still full at the next read, an hour after the first: its read replaces the one waiting
    // (one write every 5 s, not two).
    await vi.advanceTimersByTimeAsync(HOUR + 2_500 - 3 * LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(reads).toEqual([t0, t0 + HOUR]);
    const w = writes.mock.calls.length;
    await vi.advanceTimersByTimeAsync(LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(w + 1);

    // Space is freed: the next retry writes the newer read, and the status clears.
    db.pragma('max_page_count = 1073741823');
    await vi.advanceTimersByTimeAsync(LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(w + 2);
    expect(repo.lastRead()).toMatchObject({ readAt: t0 + HOUR, pages: 1, loans: 400 });
    expect(watch.view('SUI_USDC', null).entries).toHaveLength(400);
    expect(health.current()).toBeNull();
    // Nothing more is written until the next read.
    await vi.advanceTimersByTimeAsync(10 * LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(w + 2);
    expect(reads).toHaveLength(2);
    watch.close();
  });

  it('stops writing again once closed', async () => {
    const { watch, writes } = fullWatch();
    watch.start();
    await vi.advanceTimersByTimeAsync(LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(2);
    watch.close();
    await vi.advanceTimersByTimeAsync(10 * LIQUIDATION_MAP_STORE_RETRY_MS);
    expect(writes).toHaveBeenCalledTimes(2);
  });
});

describe("the liquidation map's read in the plan", () => {
  const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);
  const pos = {
    position: suiLong({ manager_id: 'a', distance_pct: -8.5 }),
    thresholds: { warning: 1.5, critical: 1.25, near_pct: null },
    baseAsset: 'SUI',
    quoteAsset: 'USDC',
  };
  const at = {
    readable: (a: string) => a === 'SUI',
    quoteUsd: () => 1,
    sigma: () => sigma,
    now: Date.UTC(2026, 10, 2),
  };
  // 10 pages (500 loans): 100 credits a read.
  const budget = (monthly: number): BudgetState => ({
    monthly,
    spentThisMonth: 0,
    fixedPerDay: 50,
    streamsToday: 0,
    records: { id: 'margin records', intervalMs: 3 * HOUR, credits: 20, maxMs: 86_400_000 },
    events: [],
    pools: POOLS_READ,
    liquidations: liquidationsRead(100),
  });

  it('is read hourly where the budget allows (2,400 a day), and stretched to a day where it does not (100)', () => {
    const builder = planReads([pos], CADENCE_RULES.guard, budget(PLANS.builder.monthlyCredits), at);
    expect(builder.pace).toBe(1);
    expect(readPlanOf(builder, (a) => a)).toMatchObject({ liquidationsEveryMs: HOUR, liquidationsSlowed: false });
    const free = planReads([pos], CADENCE_RULES.guard, budget(PLANS.free.monthlyCredits), at);
    expect(free.pace).toBeGreaterThan(1);
    expect(readPlanOf(free, (a) => a)).toMatchObject({ liquidationsEveryMs: 24 * HOUR, liquidationsSlowed: true });
    const spent = (p: typeof free) => plannedCreditsPerDay(p, budget(PLANS.free.monthlyCredits), CADENCE_RULES.guard);
    expect(spent(builder) - spent({ ...builder, liquidationsEveryMs: null })).toBeCloseTo(2400, 6);
    expect(spent(free) - spent({ ...free, liquidationsEveryMs: null })).toBeCloseTo(100, 6);
    expect(readPlanOf(planReads([pos], CADENCE_RULES.guard, null, at), (a) => a).liquidationsEveryMs).toBeUndefined();
  });
});
