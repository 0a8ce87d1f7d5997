import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiquidationMapView } from '../../../../src/shared/contract';
import { humanPrice } from '../../../../src/shared/units';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import type { MonitorHarness } from '../../../support/monitor-harness';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * The liquidation map against a real Demo network (docs/valuation.md "The liquidation map"): one
 * read of the protocol's loans places every active manager of a pool at its liquidation price,
 * the clusters the Demo network's crowds make show, the watched wallet's own are marked, and the
 * read's credits a day are in the forecast.
 */
describe('the liquidation map on the Demo network', () => {
  let t: TestSim;
  let m: MonitorHarness;
  let owner: string;
  const dir = tempDir();
  beforeAll(async () => {
    t = await startTestSim({ historyDays: 2 });
    const sui = t.sim.world.margin.borrowers().filter((x) => x.market.pool.pool_name === 'SUI_USDC');
    owner = sui[0]!.owner;
    m = monitorOn(t, dir.dir, { watch: [owner] }).start();
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await t?.close();
    dir.remove();
  });

  it("places every active manager of the pool, gathers them in clusters and marks the trader's own", async () => {
    const r = await m.invoke('liquidationMap', { pool: 'SUI_USDC' });
    const map: LiquidationMapView = r.data;
    expect(map.readAt).not.toBeNull();
    // Every loan of the pool as the service lists them, each manager once.
    const loans = await t.allPages('/dex-margin/active-loans');
    const poolId = t.sim.world.marketsByName.get('SUI_USDC')!.pool.pool_id;
    const inPool = new Set(
      loans.filter((l) => l.margin_manager?.dex_pool_id === poolId).map((l) => l.margin_manager_id as string),
    );
    expect(map.entries.length + map.unplaced).toBe(inPool.size);
    expect(map.loans).toBe(loans.length);
    expect(map.pages).toBe(Math.ceil(loans.length / 50));
    // Longs below the price now, shorts above; the buckets hold every entry.
    const market = t.sim.world.marketsByName.get('SUI_USDC')!;
    const mid = humanPrice(market.midRaw(), market.pool);
    for (const e of map.entries) {
      expect(e.repay).toBeGreaterThan(0);
      expect(e.repay).toBeLessThanOrEqual(e.debt + 1e-9);
      expect(e.side === 'long' ? e.price < mid : e.price > mid).toBe(true);
    }
    expect(map.buckets.reduce((a, b) => a + b.long.count + b.short.count, 0)).toBe(map.entries.length);
    // Clusters on both sides, each a dense run of buckets.
    expect(map.clusters.some((c) => c.side === 'long')).toBe(true);
    expect(map.clusters.some((c) => c.side === 'short')).toBe(true);
    for (const c of map.clusters) {
      expect(c.count).toBeGreaterThanOrEqual(2);
      expect(c.high).toBeGreaterThan(c.low);
    }
    // The watched wallet's positions are marked, at the price its Portfolio row gives (quote: USDC).
    const positions = (await m.invoke('portfolio', {})).data.wallets
      .flatMap((w) => w.positions)
      .filter((p) => p.pool_name === 'SUI_USDC' && p.liquidation_price !== null);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) {
      const e = map.entries.find((x) => x.manager_id === p.manager_id)!;
      expect(e.own).toBe(true);
      expect(Math.abs(e.price / p.liquidation_price! - 1)).toBeLessThan(0.002);
    }
    expect(map.entries.filter((e) => e.own).length).toBe(positions.length);
  }, 60_000);

  it('says what the read costs a day in the forecast, and answers from the store offline', async () => {
    await until(() => m.store.liquidationMap.lastRead() !== null, 20_000, 'the first read of the loans');
    const f = await m.invoke('creditForecast', {});
    const line = f.lines.find((l) => l.what.startsWith('Liquidation map'));
    expect(line).toBeDefined();
    const pages = m.store.liquidationMap.lastRead()!.pages;
    expect(line!.detail).toContain(`${pages * 10} credits a read`);
    expect(line!.perDay).toBeGreaterThan(0);
    // An unknown pool says so in plain words.
    await expect(m.invoke('liquidationMap', { pool: 'NOPE_USDC' })).rejects.toThrow(/no pool named NOPE_USDC/);
  }, 30_000);
});
