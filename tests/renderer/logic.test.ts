import { describe, expect, it } from 'vitest';
import type { NftObject, Pool } from '../../src/shared/api';
import { buildFields, concentration, indexAttributes } from '../../src/renderer/src/features/collection/fields-builder';
import { eventsToCsv } from '../../src/renderer/src/features/events/csv';
import { aggregateDepth, depthSeries } from '../../src/renderer/src/features/markets/depth';
import { compact, num, privacy, units, usd } from '../../src/renderer/src/format';

const nft = (attrs: Array<[string, string]>): NftObject =>
  ({ decoded_fields: { attributes: { contents: attrs.map(([key, value]) => ({ key, value })) } } }) as unknown as NftObject;

describe('the attribute filter builder', () => {
  const nfts = [nft([['Eyes', 'Laser'], ['Hat', 'Crown']]), nft([['Eyes', 'Calm'], ['Hat', 'Crown']]), nft([['Eyes', 'Laser'], ['Hat', 'None']])];
  const index = indexAttributes(nfts);

  it('lists each attribute with its position and the values seen, most common first', () => {
    expect(index.map((a) => [a.key, a.index])).toEqual([['Eyes', 0], ['Hat', 1]]);
    expect(index[0]!.values).toEqual([{ value: 'Laser', count: 2 }, { value: 'Calm', count: 1 }]);
  });

  it('produces the fields JSON: one value equal, several values OR, several attributes AND', () => {
    expect(buildFields(index, {})).toEqual({});
    expect(buildFields(index, { Eyes: ['Laser'] })).toEqual({ 'attributes.contents.0.value': 'Laser' });
    expect(buildFields(index, { Eyes: ['Laser', 'Calm'], Hat: ['Crown'] })).toEqual({
      'attributes.contents.0.value': ['Laser', 'Calm'],
      'attributes.contents.1.value': 'Crown',
    });
  });

  it('measures concentration as the share held by the top holders', () => {
    expect(concentration([1, 3, 6])).toEqual([[1, 60], [2, 90], [3, 100]]);
    expect(concentration([])).toEqual([]);
  });
});

describe('depth aggregation', () => {
  const pool = { pool_id: '0x1', base_asset_decimals: 9, quote_asset_decimals: 6 } as Pool;
  const depth = {
    pool_id: '0x1',
    bids: [{ price: 3_380_000, total_quantity: 2_000_000_000, order_count: 2 }, { price: 3_380_500, total_quantity: 1_000_000_000, order_count: 1 }],
    asks: [{ price: 3_381_000, total_quantity: 500_000_000, order_count: 1 }, { price: 3_382_000, total_quantity: 1_500_000_000, order_count: 3 }],
  };

  it('converts to human units, best first, with cumulative sizes, mid and spread', () => {
    const v = aggregateDepth(depth, pool);
    expect(v.bids.map((l) => [l.price, l.quantity, l.total])).toEqual([[3.3805, 1, 1], [3.38, 2, 3]]);
    expect(v.asks.map((l) => [l.price, l.total])).toEqual([[3.381, 0.5], [3.382, 2]]);
    expect(v.mid).toBeCloseTo(3.38075, 10);
    expect(v.spread).toBeCloseTo(0.0005, 10);
    expect(v.spreadPct).toBeCloseTo((0.0005 / 3.38075) * 100, 8);
  });

  it('gives the chart its bid steps in ascending price', () => {
    expect(depthSeries(aggregateDepth(depth, pool)).bids).toEqual([[3.38, 3], [3.3805, 1]]);
  });
});

describe('the one formatter', () => {
  it('shows exact units and masks amounts in privacy mode', () => {
    privacy.value = false;
    expect(units(3_380_500, 6)).toBe('3.3805');
    expect(units('12000000000000000', 9)).toMatch(/^12.000.000$/);
    expect(num(1234.5678)).toMatch(/1.234[.,]57/);
    expect(usd(10)).toContain('10');
    privacy.value = true;
    expect(units(3_380_500, 6)).toBe('•••••');
    expect(num(1)).toBe('•••••');
    expect(compact(5e6)).toBe('•••••');
    expect(usd(10)).toBe('$•••••');
    // Prices are not private.
    expect(num(3.38, 2, { private: false })).toMatch(/3[.,]38/);
    privacy.value = false;
  });
});

describe('CSV export of live events', () => {
  it('quotes what needs quoting and keeps the export columns', () => {
    const csv = eventsToCsv([
      { id: '1-0', type: 't', timestamp_ms: 1, checkpoint_id: 2, tx_hash: 'h', margin_manager_id: '0xm', data: { a: 'x,"y"' }, valid: true, problem: null, received_at: 3 },
    ]);
    expect(csv.split('\n')[0]).toBe('id,type,timestamp_ms,checkpoint_id,tx_hash,margin_manager_id,data,valid,received_at');
    expect(csv.split('\n')[1]).toBe('1-0,t,1,2,h,0xm,"{""a"":""x,\\""y\\""""}",true,3');
  });
});
