import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import type { UsdPrice, WalletSummary } from '../../../../src/shared/contract';
import { usdPriceDigits, usdPriceText } from '../../../../src/shared/format';
import { listedPrices } from '../../../../src/main/core/risk/portfolio';
import { suiLong } from '../../../support/positions';

/** A pool of the Demo network's shape: its tick raw, its assets' decimals. */
const pool = (base: string, quote: string, decimals: [number, number], tick: number): Pool =>
  ({
    pool_id: `0x${base}_${quote}`,
    pool_name: `${base}_${quote}`,
    base_asset_id: `0x::${base.toLowerCase()}::${base}`,
    base_asset_symbol: base,
    base_asset_decimals: decimals[0],
    quote_asset_id: `0x::${quote.toLowerCase()}::${quote}`,
    quote_asset_symbol: quote,
    quote_asset_decimals: decimals[1],
    tick_size: tick,
  }) as Pool;

const POOLS = [
  // 0.0001, 0.00001 and 0.1 a tick (SUI_USDC, WAL_USDC, XBTC_USDC), and NS quoted in SUI at 0.00001 SUI.
  pool('SUI', 'USDC', [9, 6], 100),
  pool('WAL', 'USDC', [9, 6], 10),
  pool('XBTC', 'USDC', [8, 6], 1_000_000),
  pool('NS', 'SUI', [6, 9], 10_000_000),
];
const price = (symbol: string, usd: number): UsdPrice => ({ symbol, usd, source: 'oracle', at: 0 });
const USDC: UsdPrice = { symbol: 'USDC', usd: 1, source: 'stablecoin', at: 0 };
const SUI_USD = 3.38;

/** One wallet whose positions were valued at these prices (their pool's base, and its quote). */
function wallet(pairs: Array<[UsdPrice, UsdPrice]>): WalletSummary {
  return {
    owner: 'o',
    label: null,
    positions: pairs.map(([base, quote]) => suiLong({ price: base, quote_price: quote })),
    supplies: [],
    totals: { collateral_usd: 0, debt_usd: 0, equity_usd: 0, supplied_usd: 0, unpriced: 0 },
  };
}

describe("the Portfolio's list of prices", () => {
  const listed = listedPrices(
    [
      wallet([
        [price('WAL', 0.1965), USDC],
        [price('XBTC', 97_250), USDC],
      ]),
      wallet([
        [price('NS', 0.1348), price('SUI', SUI_USD)],
        [price('WAL', 0.1965), USDC],
      ]),
    ],
    POOLS,
    (asset) => (asset === POOLS[0]!.base_asset_id ? SUI_USD : null),
  );
  const bySymbol = new Map(listed.map((p) => [p.symbol, p]));

  it('writes each asset at the tick of the pool it is priced on, as a position on that pool writes it, not by its size', () => {
    expect(listed.map((p) => p.symbol)).toEqual(['NS', 'SUI', 'WAL', 'XBTC']);
    // WAL_USDC's 0.00001: "$0.19650", where its size gave "$0.1965" (issue 40).
    expect(bySymbol.get('WAL')!.price_decimals).toBe(5);
    expect(usdPriceDigits(0.1965)).toBe(4);
    expect(usdPriceText(0.1965, 'en-US', bySymbol.get('WAL')!.price_decimals)).toBe('$0.19650');
    // XBTC_USDC's 0.1: "$97,250.0", where its size gave "$97,250.00".
    expect(bySymbol.get('XBTC')!.price_decimals).toBe(1);
    expect(usdPriceText(97_250, 'en-US', bySymbol.get('XBTC')!.price_decimals)).toBe('$97,250.0');
    // A quote asset is listed at its own dollar pool's tick: SUI at SUI_USDC's 4.
    expect(bySymbol.get('SUI')!.price_decimals).toBe(4);
  });

  it("writes an asset quoted in another at its tick's worth in dollars, and never fewer than four significant digits", () => {
    // NS_SUI's 0.00001 SUI is $0.0000338 at $3.38 a SUI: 5 decimals, "$0.13480" (its size: "$0.1348").
    expect(bySymbol.get('NS')!.price_decimals).toBe(5);
    expect(usdPriceDigits(0.1348)).toBe(4);
    // A tick coarser than the price: four significant digits still (SUI at $0.01015 on a 0.0001 tick).
    const cheap = listedPrices([wallet([[price('SUI', 0.01015), USDC]])], POOLS, () => null);
    expect(cheap[0]!.price_decimals).toBe(5);
  });

  it('leaves out stablecoins, and an asset no pool prices has no tick to follow (its size decides)', () => {
    expect(bySymbol.has('USDC')).toBe(false);
    const unknown = listedPrices([wallet([[price('FOO', 2.5), USDC]])], POOLS, () => null);
    expect(unknown).toEqual([{ ...price('FOO', 2.5), price_decimals: null }]);
  });
});
