import { describe, expect, it } from 'vitest';
import type { NftObject, Pool } from '../../src/shared/api';
import {
  buildFields,
  concentration,
  facetCounts,
  indexAttributes,
} from '../../src/renderer/src/features/collection/fields-builder';
import { parseAddress } from '../../src/renderer/src/address';
import { describeError } from '../../src/renderer/src/composables/useQuery';
import { ApiError } from '../../src/renderer/src/api';
import { eventSummary } from '../../src/renderer/src/features/events/event-text';
import { dayStats } from '../../src/renderer/src/features/markets/stats';
import { liquidationValue } from '../../src/renderer/src/features/margin/liquidation-value';
import { eventsToCsv } from '../../src/renderer/src/features/events/csv';
import { aggregateDepth, depthSeries } from '../../src/renderer/src/features/markets/depth';
import { compact, every, num, price, PRICE_SOURCE, privacy, units, usd, usdPrice } from '../../src/renderer/src/format';
import { about, forecastSentence } from '../../src/renderer/src/credits';

const nft = (attrs: Array<[string, string]>): NftObject =>
  ({
    decoded_fields: { attributes: { contents: attrs.map(([key, value]) => ({ key, value })) } },
  }) as unknown as NftObject;

describe('the attribute filter builder', () => {
  const nfts = [
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Calm'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'None'],
    ]),
  ];
  const index = indexAttributes(nfts);

  it('lists each attribute with its position and the values seen, most common first', () => {
    expect(index.map((a) => [a.key, a.index])).toEqual([
      ['Eyes', 0],
      ['Hat', 1],
    ]);
    expect(index[0]!.values).toEqual([
      { value: 'Laser', count: 2 },
      { value: 'Calm', count: 1 },
    ]);
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
    expect(concentration([1, 3, 6])).toEqual([
      [1, 60],
      [2, 90],
      [3, 100],
    ]);
    expect(concentration([])).toEqual([]);
  });
});

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
      {
        id: '1-0',
        type: 't',
        timestamp_ms: 1,
        checkpoint_id: 2,
        tx_hash: 'h',
        margin_manager_id: '0xm',
        data: { a: 'x,"y"' },
        valid: true,
        problem: null,
        received_at: 3,
      },
    ]);
    expect(csv.split('\n')[0]).toBe(
      'id,type,timestamp_ms,checkpoint_id,tx_hash,margin_manager_id,data,valid,received_at',
    );
    expect(csv.split('\n')[1]).toBe('1-0,t,1,2,h,0xm,"{""a"":""x,\\""y\\""""}",true,3');
  });
});

describe('facet counts', () => {
  const nfts = [
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Calm'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'None'],
    ]),
  ];
  const index = indexAttributes(nfts);
  it('follow the selection of the other attributes, not their own', () => {
    const none = facetCounts(nfts, index, {});
    expect(Object.fromEntries(none.get('Eyes')!)).toEqual({ Laser: 2, Calm: 1 });
    const crown = facetCounts(nfts, index, { Hat: ['Crown'] });
    expect(Object.fromEntries(crown.get('Eyes')!)).toEqual({ Laser: 1, Calm: 1 });
    // Hat's own counts ignore Hat's selection (so other hats can be added), but follow Eyes.
    expect(Object.fromEntries(crown.get('Hat')!)).toEqual({ Crown: 2, None: 1 });
    const both = facetCounts(nfts, index, { Hat: ['Crown'], Eyes: ['Laser'] });
    expect(Object.fromEntries(both.get('Hat')!)).toEqual({ Crown: 1, None: 1 });
  });
});

describe('wallet addresses as typed', () => {
  it('expands a short form and refuses anything else in plain words', () => {
    expect(parseAddress(' 0x2 ')).toEqual({ address: `0x${'0'.repeat(63)}2` });
    expect(parseAddress(`0x${'AB'.repeat(32)}`)).toEqual({ address: `0x${'ab'.repeat(32)}` });
    const bad = parseAddress('0x12g');
    expect('error' in bad && bad.error).toMatch(
      /is not a wallet address: a wallet address is 0x followed by up to 64 hexadecimal digits/,
    );
    const bare = parseAddress('ab'.repeat(32));
    expect('error' in bare && bare.error).toContain('It needs the 0x in front.');
    expect(parseAddress('')).toEqual({ error: 'Enter a wallet address.' });
  });

  it('a refused argument reads as a sentence without method names', () => {
    const e = describeError(
      new ApiError('bad-argument', 'addWatch: owner: not an address: expected 0x followed by 64 hex digits'),
    );
    expect(e.message).toBe('The owner is not an address: expected 0x followed by 64 hex digits');
    expect(e.message).not.toContain('addWatch');
  });
});

describe('market figures', () => {
  const pool = {
    pool_name: 'SUI_USDC',
    base_asset_decimals: 9,
    quote_asset_decimals: 6,
    base_asset_symbol: 'SUI',
    quote_asset_symbol: 'USDC',
    tick_size: 100,
    lot_size: 100_000_000,
  } as Pool;
  it('24 h change, high, low and volume from hourly candles', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const k = (h: number, o: number, c: number, hi: number, lo: number, vol: number) => ({
      timestamp: new Date(now - h * 3_600_000).toISOString().slice(0, 19),
      open: o,
      close: c,
      high: hi,
      low: lo,
      volume_base: String(vol * 1e9),
      volume_quote: String(vol * 3e6),
      trade_count: 2,
    });
    const s = dayStats(
      [
        k(30, 1, 1, 1, 1, 1),
        k(23, 3_000_000, 3_100_000, 3_200_000, 2_900_000, 10),
        k(1, 3_100_000, 3_300_000, 3_400_000, 3_050_000, 5),
      ],
      pool,
      now,
    );
    expect(s.changePct).toBeCloseTo(10, 6);
    expect(s.high).toBeCloseTo(3.4, 9);
    expect(s.low).toBeCloseTo(2.9, 9);
    expect(s.volumeBase).toBeCloseTo(15, 9);
    expect(s.trades).toBe(4);
  });

  it('prices with the tick decimals, USD prices with enough digits', () => {
    expect(price(107677.8, 1)).toBe('107,677.8');
    expect(price(3.38, 4)).toBe('3.3800');
    expect(usdPrice(0.034123)).toBe('$0.03412');
    expect(usdPrice(3.0712)).toBe('$3.0712');
  });

  it('a liquidation in USD at the oracle price it recorded, on the side its margin pool lends', () => {
    const l = {
      margin_pool_id: 'mp',
      liquidation_amount: 2_000_000_000,
      base_oracle_price: 300_000_000,
      base_oracle_decimals: 8,
      quote_oracle_price: 100_000_000,
      quote_oracle_decimals: 8,
      margin_manager: { dex_pool_id: 'p' },
    } as never;
    const v = liquidationValue(
      l,
      () => ({ decimals: 9, symbol: 'SUI' }),
      () => ({ ...pool, pool_id: 'p' }) as Pool,
    );
    expect(v).toMatchObject({ amount: 2, symbol: 'SUI', usd: 6 });
  });
});

describe("privacy: only the user's own amounts are masked", () => {
  it("masks a watched manager's event amounts and leaves other traders' visible", () => {
    const e = (own: boolean) => ({
      id: 'x',
      type: 'dex_margin_manager_updates_deposit',
      timestamp_ms: 1,
      checkpoint_id: 1,
      tx_hash: null,
      margin_manager_id: '0xm',
      data: {},
      valid: true,
      problem: null,
      received_at: 1,
      own,
      amounts: [{ label: '', raw: '1500000', decimals: 6, symbol: 'USDC' }],
    });
    privacy.value = true;
    try {
      expect(eventSummary(e(true))).toBe('••••• USDC');
      expect(eventSummary(e(false))).toBe('1.5 USDC');
      expect(usd(12.5)).toBe('$•••••');
      expect(usd(12.5, { private: false })).toBe('$12.50');
      expect(price(3.38, 4)).toBe('3.3800');
    } finally {
      privacy.value = false;
    }
  });
});

describe('credits and reads in words', () => {
  it('intervals as a trader says them, and a forecast rounded to what it is worth', () => {
    expect([every(45_000), every(300_000), every(5_400_000), every(10_800_000)]).toEqual([
      '45 s',
      '5 min',
      '1.5 h',
      '3 h',
    ]);
    expect([about(47), about(6_874), about(1_234_567)]).toEqual(['47', '6,900', '1,200,000']);
  });

  it('a custom plan is compared with its budget, or with nothing', () => {
    const f = {
      perDay: 900,
      lines: [],
      plan: 'custom',
      planLabel: 'Custom',
      planMonthlyCredits: null,
      shareOfPlanDay: null,
      budget: 60_000,
      shareOfBudgetDay: 0.45,
      poolStreams: [],
    };
    expect(forecastSentence(f)).toBe(
      'About 900 credits a day at these settings: 45 % of your budget (2,000 a day of 60,000 a month).',
    );
    expect(forecastSentence({ ...f, budget: null, shareOfBudgetDay: null })).toBe(
      'About 900 credits a day at these settings. A custom plan without a monthly budget: nothing to compare it with.',
    );
  });

  it("an exchange price is the exchange's last trade", () => {
    expect(PRICE_SOURCE.exchange).toBe('last exchange trade');
  });
});
