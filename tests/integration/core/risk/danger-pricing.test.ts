import { afterAll, describe, expect, it } from 'vitest';
import type { GuardedPosition } from '../../../../src/main/core/risk/price-schedule';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim } from '../../../support/sim';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('live prices while a position is in danger (a real pool stream from the Demo network)', () => {
  it("opens the pool's stream in a free slot, prices the asset at its trades, and closes it when the danger is over", async () => {
    // Speed 60: the Demo network's SUI_USDC trades come every few wall seconds.
    const t = await startTestSim({ speed: 60 });
    cleanups.push(() => t.close());
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    // Not started: no valuation runs to say which positions are in danger; the test says it.
    const m = monitorOn(t, dir.dir);
    cleanups.push(() => m.close());
    const book = await m.risk.assets.load();
    const pool = [...book.poolsById.values()].find((p) => p.pool_name === 'SUI_USDC')!;
    const inDanger = {
      position: { level: 'critical' },
      thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
      baseAsset: pool.base_asset_id,
      quoteAsset: pool.quote_asset_id,
    } as unknown as GuardedPosition;
    const opened = (): boolean =>
      m.streams.supervisor.statuses().some((s) => s.id === 'pool:SUI_USDC' && s.state === 'open');

    m.risk.danger.update([inDanger]);
    expect([...m.risk.danger.pools()]).toEqual(['SUI_USDC']);
    await until(opened, 30_000, "the guard's SUI_USDC stream to open");
    expect(m.streams.pools.isGuarded('SUI_USDC')).toBe(true);
    const first = m.risk.prices.peek(pool.base_asset_id)?.at ?? 0;
    await until(
      () => (m.risk.prices.peek(pool.base_asset_id)?.at ?? 0) > first,
      60_000,
      'a streamed trade to price SUI',
    );
    const live = m.risk.prices.peek(pool.base_asset_id)!;
    expect(live.source).toBe('exchange');
    // The price is the pool's newest trade as the service has it.
    const [last] = (await t.get('/dex/SUI_USDC/trades', { limit: 1 })).body as Array<{ price: number }>;
    expect(live.usd).toBeGreaterThan(0);
    expect(Math.abs(live.usd / (last!.price / 1e6) - 1)).toBeLessThan(0.05);

    // A page on the pool keeps the stream after the danger; leaving the page closes it.
    const off = m.subscribe('pool:SUI_USDC', () => {});
    m.risk.danger.update([]);
    expect(m.streams.supervisor.has('pool:SUI_USDC')).toBe(true);
    off();
    await until(() => !m.streams.supervisor.has('pool:SUI_USDC'), 10_000, 'the stream to close');
  }, 120_000);
});
