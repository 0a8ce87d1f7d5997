import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import { aggregateDepth, depthSeries, midOf } from '../../../../src/renderer/src/features/markets/depth';

describe('depth aggregation', () => {
  const pool = { pool_id: '0x1', base_asset_decimals: 9, quote_asset_decimals: 6 } as Pool;
  const depth = {
    pool_id: '0x1',
    bids: [
      { price: 3_380_000, total_quantity: 2_000_000_000, order_count: 2 },
      { price: 3_380_500, total_quantity: 1_000_000_000, order_count: 1 },
    ],
    asks: [
      { price: 3_381_000, total_quantity: 500_000_000, order_count: 1 },
      { price: 3_382_000, total_quantity: 1_500_000_000, order_count: 3 },
    ],
  };

  it('converts to human units, best first, with cumulative sizes, mid and spread', () => {
    const v = aggregateDepth(depth, pool);
    expect(v.bids.map((l) => [l.price, l.quantity, l.total])).toEqual([
      [3.3805, 1, 1],
      [3.38, 2, 3],
    ]);
    expect(v.asks.map((l) => [l.price, l.total])).toEqual([
      [3.381, 0.5],
      [3.382, 2],
    ]);
    expect(v.mid).toBeCloseTo(3.38075, 10);
    expect(v.spread).toBeCloseTo(0.0005, 10);
    expect(v.spreadPct).toBeCloseTo((0.0005 / 3.38075) * 100, 8);
  });

  it('gives the chart its bid steps in ascending price', () => {
    expect(depthSeries(aggregateDepth(depth, pool)).bids).toEqual([
      [3.38, 3],
      [3.3805, 1],
    ]);
  });

  it('has one mid for the header and the chart: between the best prices, else the one side, else none', () => {
    const v = aggregateDepth(depth, pool);
    expect(midOf(v)).toBe(v.mid);
    expect(midOf(aggregateDepth({ ...depth, asks: [] }, pool))).toBe(3.3805);
    expect(midOf(aggregateDepth({ ...depth, bids: [] }, pool))).toBe(3.381);
    expect(midOf(aggregateDepth({ ...depth, bids: [], asks: [] }, pool))).toBeNull();
  });
});
