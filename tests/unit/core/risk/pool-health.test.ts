import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarginPoolInfo, Pool } from '../../../../src/shared/api';
import type { PoolHealth } from '../../../../src/shared/contract';
import type { AssetBook } from '../../../../src/main/core/risk/asset-book';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { ServiceError } from '../../../../src/main/core/client/errors';
import { POOL_HEALTH_INTERVAL_MS, PoolHealthWatch } from '../../../../src/main/core/risk/pool-health';
import { Store } from '../../../../src/main/core/store/store';

const MIN = 60_000;
const USDC = '0xdba3::usdc::USDC';
const curve = { base_rate: 0.02, base_slope: 0.15, optimal_utilization: 0.8, excess_slope: 5 };

function book(): AssetBook {
  const pool = {
    pool_id: '0xp',
    pool_name: 'SUI_USDC',
    base_asset_id: '0x2::sui::SUI',
    base_asset_symbol: 'SUI',
    quote_asset_id: USDC,
    quote_asset_symbol: 'USDC',
  } as Pool;
  return {
    poolsById: new Map([[pool.pool_id, pool]]),
    marginPoolAsset: new Map([['mp-USDC', USDC]]),
    decimalsOf: new Map(),
    risk: { byPool: new Map() } as unknown as AssetBook['risk'],
    interest: new Map([['mp-USDC', { curve, utilization: 0.7 }]]),
  };
}

describe('pool health', () => {
  let store: Store;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 23, 14, 0) });
    store = Store.openInMemory();
  });
  afterEach(() => {
    store.close();
    vi.useRealTimers();
  });

  function rig(o: { every?: () => number | null } = {}) {
    let supply = 1_000_000;
    let fail: unknown = null;
    const b = book();
    const rows = (): MarginPoolInfo[] => [
      {
        margin_pool_id: 'mp-USDC',
        asset_type: USDC,
        ...curve,
        total_supply: supply,
        total_borrow: 700_000,
        protocol_spread: 0.1,
      },
      // A pool without its utilization published: not read into health.
      { margin_pool_id: 'mp-X', asset_type: '0xx::x::X', ...curve },
    ];
    const client = {
      marginPools: vi.fn(async () => {
        if (fail) throw fail;
        return rows();
      }),
    } as unknown as ServiceClient;
    const crossings: PoolHealth[][] = [];
    const revalue = vi.fn();
    const log = vi.fn();
    const watch = new PoolHealthWatch({
      client: () => client,
      book: async () => b,
      repo: () => store.pools,
      storeHealth: { guard: (w) => w() },
      alerts: { onPoolRates: (pools) => (crossings.push([...pools]), []) },
      positions: () => [],
      linePct: () => 30,
      intervalMs: o.every ?? (() => null),
      canRun: () => true,
      revalue,
      log,
    });
    return {
      watch,
      client,
      book: b,
      revalue,
      log,
      crossings,
      supply: (s: number) => (supply = s),
      fail: (e: unknown) => (fail = e),
    };
  }

  it('reads every pool at once every 15 minutes, keeps each read, and projects debts at the new use', async () => {
    const r = rig();
    r.watch.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.client.marginPools).toHaveBeenCalledTimes(1);
    const [first] = store.pools.latest();
    expect(first).toMatchObject({ margin_pool_id: 'mp-USDC', symbol: 'USDC', utilization: 0.7 });
    expect(first!.borrow_apr).toBeCloseTo(0.02 + 0.7 * 0.15, 12);
    expect(first!.supply_apr).toBeCloseTo((0.02 + 0.7 * 0.15) * 0.7 * 0.9, 12);
    expect(first!.kink_apr).toBeCloseTo(0.14, 12);
    expect(r.revalue).toHaveBeenCalledTimes(1);
    // Suppliers leave: the next read, 15 minutes on, finds it 87.5 % used.
    r.supply(800_000);
    await vi.advanceTimersByTimeAsync(POOL_HEALTH_INTERVAL_MS - 1);
    expect(r.client.marginPools).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.client.marginPools).toHaveBeenCalledTimes(2);
    expect(r.book.interest.get('mp-USDC')!.utilization).toBeCloseTo(0.875, 12);
    expect(r.crossings.map((c) => c.map((p) => p.utilization))).toEqual([[0.7], [0.875]]);
    const history = store.pools.history(0)['mp-USDC']!;
    expect(history.map((h) => h.ts_ms)).toEqual([Date.now() - POOL_HEALTH_INTERVAL_MS, Date.now()]);
    r.watch.close();
  });

  it("follows the plan's paced interval, and after a failure tries again an interval later", async () => {
    let every: number | null = 6 * 3_600_000;
    const r = rig({ every: () => every });
    r.watch.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(POOL_HEALTH_INTERVAL_MS * 4);
    expect(r.client.marginPools).toHaveBeenCalledTimes(1);
    // The budget allows more again: the plan's new interval counts from the last read.
    every = 30 * MIN;
    r.watch.retime();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.client.marginPools).toHaveBeenCalledTimes(2);
    r.fail(new ServiceError('not-found', 'no such endpoint', 404));
    await vi.advanceTimersByTimeAsync(30 * MIN);
    expect(r.client.marginPools).toHaveBeenCalledTimes(3);
    expect(r.log).toHaveBeenCalledTimes(1);
    expect(store.pools.latest()).toHaveLength(1);
    r.fail(null);
    await vi.advanceTimersByTimeAsync(30 * MIN);
    expect(r.client.marginPools).toHaveBeenCalledTimes(4);
    r.watch.close();
  });
});
