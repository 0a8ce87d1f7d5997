import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  baseQuantity,
  formatUnits,
  lotDecimals,
  tickDecimals,
  usdTickDecimals,
  humanPrice,
  marginAmount,
  oraclePrice,
  parseUnits,
  priceDecimals,
  ratioText,
  quoteQuantity,
  quoteQuantityOf,
  rawPrice,
  riskRatioFromStream,
  riskRatioToStream,
} from '../../../src/shared/units';

const SUI_USDC = { base_asset_decimals: 9, quote_asset_decimals: 6 };
const DEEP_SUI = { base_asset_decimals: 6, quote_asset_decimals: 9 };

describe('units', () => {
  it('converts the SUI_USDC example of docs/service.md: raw 3380500 is 3.3805 USDC per SUI', () => {
    expect(priceDecimals(SUI_USDC)).toBe(6);
    expect(humanPrice(3_380_500, SUI_USDC)).toBeCloseTo(3.3805, 12);
    expect(rawPrice(3.3805, SUI_USDC)).toBe(3_380_500);
  });

  it('uses 9 - base + quote decimals for any pool', () => {
    expect(priceDecimals(DEEP_SUI)).toBe(12);
    expect(humanPrice(42_500_000_000, DEEP_SUI)).toBeCloseTo(0.0425, 12);
    expect(priceDecimals({ base_asset_decimals: 6, quote_asset_decimals: 6 })).toBe(9);
  });

  it('divides base and quote quantities by their own decimals', () => {
    expect(baseQuantity(1_500_000_000, SUI_USDC)).toBe(1.5);
    expect(quoteQuantity(5_070_750, SUI_USDC)).toBeCloseTo(5.07075, 12);
  });

  it("computes a trade's quote quantity as base x price / 1e9 with integer division", () => {
    // 1.5 SUI at 3.3805 USDC = 5.07075 USDC = 5070750 raw.
    expect(quoteQuantityOf(1_500_000_000, 3_380_500)).toBe(5_070_750n);
    // Integer division truncates.
    expect(quoteQuantityOf(1, 999_999_999)).toBe(0n);
    expect(quoteQuantityOf('123456789012345678', '3380500')).toBe(417_345_675_256_234n);
  });

  it('scales stream risk ratios by 1e6, both ways', () => {
    expect(riskRatioFromStream(1_125_000)).toBe(1.125);
    expect(riskRatioToStream(1.118)).toBe(1_118_000);
  });

  it('writes a risk ratio rounded down, so it never reads above a threshold it is below', () => {
    expect(ratioText(1.1996)).toBe('1.199');
    expect(ratioText(riskRatioFromStream(1_199_600))).toBe('1.199');
    expect(ratioText(1.2)).toBe('1.200');
    expect(ratioText(1.15)).toBe('1.150');
    expect(ratioText(2.0009999)).toBe('2.000');
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 100_000 }), (thousandths) => {
        expect(ratioText(thousandths / 1000)).toBe((thousandths / 1000).toFixed(3));
      }),
    );
  });

  it('converts margin amounts and oracle prices', () => {
    expect(marginAmount(2_500_000_000, 9)).toBe(2.5);
    expect(marginAmount(12_000_000_000_000_000, 9)).toBe(12_000_000);
    expect(oraclePrice(338_050_000, 8)).toBeCloseTo(3.3805, 12);
  });

  it('formats and parses exact decimals, beyond 2^53 too', () => {
    expect(formatUnits(3_380_500, 6)).toBe('3.3805');
    expect(formatUnits(0, 6)).toBe('0');
    expect(formatUnits(-1_500_000, 6)).toBe('-1.5');
    expect(formatUnits(12_345_678_901_234_567_890n, 9)).toBe('12345678901.23456789');
    expect(formatUnits('1000', 0)).toBe('1000');
    expect(parseUnits('3.3805', 6)).toBe(3_380_500n);
    expect(() => parseUnits('1.2345678', 6)).toThrow(/more than 6 decimal places/);
    expect(() => parseUnits('abc', 6)).toThrow(/not a decimal number/);
  });

  it('round-trips any raw amount through formatUnits and parseUnits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (raw, decimals) => {
          expect(parseUnits(formatUnits(raw, decimals), decimals)).toBe(raw);
        },
      ),
    );
  });

  it('round-trips tick-aligned raw prices through humanPrice and rawPrice', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (ticks) => {
        const raw = ticks * 100;
        expect(rawPrice(humanPrice(raw, SUI_USDC), SUI_USDC)).toBe(raw);
      }),
    );
  });

  it('shows prices with the decimals of the tick and sizes with those of the lot', () => {
    const xbtc = { base_asset_decimals: 8, quote_asset_decimals: 6, tick_size: 1_000_000, lot_size: 1_000 };
    expect(tickDecimals(xbtc)).toBe(1); // a 0.1 USDC tick: 107,677.8
    expect(lotDecimals(xbtc)).toBe(5); // a 0.00001 XBTC lot
    const sui = { base_asset_decimals: 9, quote_asset_decimals: 6, tick_size: 100, lot_size: 100_000_000 };
    expect(tickDecimals(sui)).toBe(4);
    expect(lotDecimals(sui)).toBe(1);
    expect(tickDecimals({ base_asset_decimals: 6, quote_asset_decimals: 6, tick_size: 5_000_000_000 })).toBe(0);
  });

  it("writes a position's USD prices at its pool's tick, in dollars where the quote is no stablecoin", () => {
    const wal = { base_asset_decimals: 9, quote_asset_decimals: 6, tick_size: 10 };
    // WAL_USDC's 0.00001: "$0.19650", as its page writes "0.19650" (issue 40 read "$0.1965" there).
    expect(usdTickDecimals(tickDecimals(wal))).toBe(5);
    // XBTC_USDC's 0.1: "$108,757.4".
    expect(usdTickDecimals(tickDecimals({ base_asset_decimals: 8, quote_asset_decimals: 6, tick_size: 1e6 }))).toBe(1);
    // Quoted in SUI: a 0.0001 SUI tick is $0.000338 at $3.38 (4 decimals), $0.0012 at $12 (3).
    expect(usdTickDecimals(4, 3.38)).toBe(4);
    expect(usdTickDecimals(4, 12)).toBe(3);
    expect(usdTickDecimals(1, 97_250)).toBe(0);
    expect(usdTickDecimals(4, 0.05)).toBe(6);
    // An unknown quote price: the tick's own.
    expect(usdTickDecimals(4, 0)).toBe(4);
  });

  it('gives a tick or lot below a millionth its decimals, not none', () => {
    // DEEP (6) priced in SUI (9): prices have 12 raw decimals, so a raw tick of 1 is 1e-12.
    const tiny = { base_asset_decimals: 6, quote_asset_decimals: 9 };
    expect(tickDecimals({ ...tiny, tick_size: 1 })).toBe(12);
    expect(tickDecimals({ ...tiny, tick_size: 500 })).toBe(10); // 5e-10
    expect(tickDecimals({ ...tiny, tick_size: 100_000 })).toBe(7); // 1e-7
    expect(tickDecimals({ ...tiny, tick_size: 1_000_000 })).toBe(6); // 1e-6, as before
    expect(lotDecimals({ base_asset_decimals: 9, quote_asset_decimals: 6, lot_size: 1 })).toBe(9);
  });
});
