import { describe, expect, it } from 'vitest';
import { PriceBook, UNSCHEDULED_MAX_AGE_MS } from '../../../../src/main/core/risk/prices';

describe('the pricing rule', () => {
  const pool = {
    pool_id: 'p',
    pool_name: 'SUI_USDC',
    base_asset_id: '0x2::sui::SUI',
    base_asset_symbol: 'SUI',
    base_asset_decimals: 9,
    quote_asset_id: '0x5::usdc::USDC',
    quote_asset_symbol: 'USDC',
    quote_asset_decimals: 6,
  } as never;
  // SUI_USDC raw price 3,000,000 is $3.00 (9 - 9 + 6 decimals).
  const client = (fail: { now: boolean }, asked: string[] = [], lastTrade: number | null = 3_000_000) =>
    ({
      trades: async () => {
        asked.push('trades');
        if (fail.now) throw new Error('down');
        return lastTrade === null ? [] : [{ price: lastTrade }];
      },
      depth: async () => {
        asked.push('depth');
        if (fail.now) throw new Error('down');
        return { bids: [{ price: 2_990_000 }], asks: [{ price: 3_030_000 }] };
      },
    }) as never;

  it('a stablecoin is $1; otherwise the last exchange trade, read again only when old', async () => {
    const asked: string[] = [];
    const book = new PriceBook(
      () => client({ now: false }, asked),
      () => [pool],
    );
    expect(await book.quote('0x5::usdc::USDC', 1_000)).toMatchObject({ usd: 1, source: 'stablecoin' });
    expect(await book.quote('0x2::sui::SUI', 1_000)).toMatchObject({ usd: 3, source: 'exchange', at: 1_000 });
    // Nobody schedules it: read again only once older than UNSCHEDULED_MAX_AGE_MS.
    expect(await book.quote('0x2::sui::SUI', 2_000)).toMatchObject({ at: 1_000 });
    expect(asked).toEqual(['trades']);
    expect(await book.quote('0x2::sui::SUI', 1_000 + UNSCHEDULED_MAX_AGE_MS)).toMatchObject({
      usd: 3,
      source: 'exchange',
      at: 1_000 + UNSCHEDULED_MAX_AGE_MS,
    });
    expect(asked).toEqual(['trades', 'trades']);
    // The schedule reads when it wants; concurrent reads share one request.
    await Promise.all([book.read('0x2::sui::SUI', 5_000), book.read('0x2::sui::SUI', 5_000)]);
    expect(asked).toEqual(['trades', 'trades', 'trades']);
  });

  it('a pool with no trade of the last day is priced at its book mid', async () => {
    const asked: string[] = [];
    const book = new PriceBook(
      () => client({ now: false }, asked, null),
      () => [pool],
    );
    expect(await book.quote('0x2::sui::SUI', 1_000)).toMatchObject({ usd: 3.01, source: 'exchange' });
    expect(asked).toEqual(['trades', 'depth']);
  });

  it('offline, the last price stays with its age', async () => {
    const fail = { now: false };
    const book = new PriceBook(
      () => client(fail),
      () => [pool],
    );
    await book.quote('0x2::sui::SUI', 1_000);
    fail.now = true;
    expect(await book.quote('0x2::sui::SUI', 1_000 + UNSCHEDULED_MAX_AGE_MS + 1)).toMatchObject({
      usd: 3,
      source: 'exchange',
      at: 1_000,
    });
  });
});

describe('pricing an asset without a stablecoin pool', () => {
  it('takes its trade in a pool quoted in a priced asset, times that asset’s price (NS from NS_SUI and SUI_USDC)', async () => {
    const sui = {
      pool_id: 's',
      pool_name: 'SUI_USDC',
      base_asset_id: '0x2::sui::SUI',
      base_asset_symbol: 'SUI',
      base_asset_decimals: 9,
      quote_asset_id: '0x5::usdc::USDC',
      quote_asset_symbol: 'USDC',
      quote_asset_decimals: 6,
    } as never;
    const ns = {
      pool_id: 'n',
      pool_name: 'NS_SUI',
      base_asset_id: '0x7::ns::NS',
      base_asset_symbol: 'NS',
      base_asset_decimals: 6,
      quote_asset_id: '0x2::sui::SUI',
      quote_asset_symbol: 'SUI',
      quote_asset_decimals: 9,
    } as never;
    const asked: string[] = [];
    // SUI at $3.00; NS at 0.05 SUI: raw 0.05 * 10^(9 - 6 + 9) = 5e10.
    const client = {
      trades: async (pool: string) => (asked.push(pool), [{ price: pool === 'SUI_USDC' ? 3_000_000 : 50_000_000_000 }]),
    } as never;
    const book = new PriceBook(
      () => client,
      () => [sui, ns],
    );
    expect(book.readable('0x7::ns::NS')).toBe(true);
    expect(book.pricingPool('0x7::ns::NS')).toBe(ns);
    expect((await book.quote('0x7::ns::NS', 1_000))!.usd).toBeCloseTo(0.15, 9);
    expect(asked).toEqual(['NS_SUI', 'SUI_USDC']);
  });
});
