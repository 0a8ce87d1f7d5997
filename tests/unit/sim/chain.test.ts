import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Market } from '../../../src/sim/chain/market';
import { candlesInRange, tradesInRange } from '../../../src/sim/chain/series';
import { World } from '../../../src/sim/chain/world';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('the synthetic chain', () => {
  const a = new World({ seed: 11, nowMs: NOW, historyDays: 1 });

  it('is the same for the same seed and differs for another', () => {
    const b = new World({ seed: 11, nowMs: NOW, historyDays: 1 });
    expect(b.describe()).toEqual(a.describe());
    expect(b.markets[0]!.trades.slice(-50)).toEqual(a.markets[0]!.trades.slice(-50));
    expect(b.log.since('all').map((e) => e.json)).toEqual(a.log.since('all').map((e) => e.json));
    const c = new World({ seed: 12, nowMs: NOW, historyDays: 1 });
    expect(c.describe().wallets).not.toEqual(a.describe().wallets);
  });

  it('keeps every book uncrossed, on the tick and lot grid, while it runs live', () => {
    const w = new World({ seed: 3, nowMs: NOW, historyDays: 0.2 });
    for (let i = 0; i < 400; i++) {
      w.advanceTo(w.now + 250, 120);
      for (const m of w.markets) {
        const d = m.depth(20);
        expect(d.bids[0]!.price).toBeLessThan(d.asks[0]!.price);
        for (const l of [...d.bids, ...d.asks]) {
          expect(l.price % m.pool.tick_size).toBe(0);
          expect(l.total_quantity % m.pool.lot_size).toBe(0);
        }
      }
    }
  });

  it('aggregates candles that agree with the trades of each period, however the range is split', () => {
    const trades = a.markets[0]!.trades;
    const end = Math.floor(NOW / 1000);
    const whole = candlesInRange(trades, '5m', end - 6 * 3600, end, 100);
    expect(whole.length).toBeGreaterThan(30);
    for (const c of whole) {
      const start = Date.parse(`${c.timestamp}Z`) / 1000;
      const inPeriod = tradesInRange(trades, start, start + 299, 10_000).reverse();
      expect(c.trade_count).toBe(inPeriod.length);
      expect(c.open).toBe(inPeriod[0]!.price);
      expect(c.close).toBe(inPeriod[inPeriod.length - 1]!.price);
      expect(BigInt(c.volume_quote)).toBe(inPeriod.reduce((s, t) => s + BigInt(Market.quoteOf(t)), 0n));
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 71 }), (cut) => {
        const split = end - 6 * 3600 + cut * 300;
        const left = candlesInRange(trades, '5m', end - 6 * 3600, split - 1, 100);
        const right = candlesInRange(trades, '5m', split, end, 100);
        expect([...left, ...right]).toEqual(whole);
      }),
      { numRuns: 30 },
    );
  });

  it("liquidates managers whose ratio fell below their pool's liquidation ratio, with that pool's rewards", () => {
    const w = new World({ seed: 5, nowMs: NOW });
    expect(w.margin.liquidations.length).toBeGreaterThan(20);
    const managers = new Map(w.margin.managers.map((m) => [m.id, m]));
    const pools = new Set<string>();
    for (const l of w.margin.liquidations) {
      const risk = managers.get(l.margin_manager_id)!.risk;
      pools.add(managers.get(l.margin_manager_id)!.market.pool.pool_name);
      // Below it; the record rounds the ratio to 1e-6, so one a hair below reads as the threshold.
      expect(l.risk_ratio).toBeLessThanOrEqual(risk.liquidation);
      expect(l.pool_reward).toBe(Math.round(l.liquidation_amount * risk.poolReward));
    }
    // Pools with other parameters than the defaults liquidate too.
    expect([...pools].some((p) => p === 'WAL_USDC' || p === 'XBTC_USDC')).toBe(true);
  });

  it('holds a desk of 100 wallets with 1,000 loans or more when asked, and the default chain as before', () => {
    // The default is the chain every seed always made: its margin history event by event.
    const asBefore = new World({ seed: 11, nowMs: NOW, historyDays: 1, marginOwners: 36 });
    expect(asBefore.log.since('all').map((e) => e.json)).toEqual(a.log.since('all').map((e) => e.json));
    expect(asBefore.describe().owners).toEqual(a.describe().owners);
    // The desk (seed 7, as the benches watch it): 100 owners, each with loans, a thousand or more in all.
    const desk = new World({ seed: 7, nowMs: NOW, marginOwners: 100 }).owners().filter((o) => o.loans > 0);
    expect(desk.length).toBe(100);
    expect(desk.reduce((n, o) => n + o.loans, 0)).toBeGreaterThanOrEqual(1_000);
  });
});
