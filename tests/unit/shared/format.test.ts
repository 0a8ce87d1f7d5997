import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberFormat, poolPriceText, usdPriceDigits, usdPriceText } from '../../../src/shared/format';
import { humanPrice, tickDecimals } from '../../../src/shared/units';

describe('USD prices', () => {
  it('takes two decimals from $1,000, four from $1, four significant digits below, eight at most', () => {
    expect(usdPriceDigits(97_250)).toBe(2);
    expect(usdPriceDigits(1000)).toBe(2);
    expect(usdPriceDigits(999.99)).toBe(4);
    expect(usdPriceDigits(1)).toBe(4);
    expect(usdPriceDigits(0.99999)).toBe(4);
    expect(usdPriceDigits(0.1)).toBe(4);
    expect(usdPriceDigits(0.09999)).toBe(5);
    expect(usdPriceDigits(0.001)).toBe(6);
    expect(usdPriceDigits(0.0001)).toBe(7);
    expect(usdPriceDigits(0.00001)).toBe(8);
    expect(usdPriceDigits(1e-9)).toBe(8);
    expect(usdPriceDigits(0)).toBe(4);
    // By its size: a negative price takes the digits of its opposite.
    expect(usdPriceDigits(-0.0342)).toBe(usdPriceDigits(0.0342));
    expect(usdPriceDigits(-5000)).toBe(2);
  });

  it('writes them with those digits, trailing zeros dropped down to cents', () => {
    expect(usdPriceText(97_250, 'en-US')).toBe('$97,250.00');
    expect(usdPriceText(1_234_567.891, 'en-US')).toBe('$1,234,567.89');
    expect(usdPriceText(1000, 'en-US')).toBe('$1,000.00');
    expect(usdPriceText(999.12345, 'en-US')).toBe('$999.1235');
    expect(usdPriceText(3.8017, 'en-US')).toBe('$3.8017');
    expect(usdPriceText(3.38, 'en-US')).toBe('$3.38');
    expect(usdPriceText(1, 'en-US')).toBe('$1.00');
    expect(usdPriceText(0.1138, 'en-US')).toBe('$0.1138');
    expect(usdPriceText(0.034123, 'en-US')).toBe('$0.03412');
    expect(usdPriceText(0.00004321, 'en-US')).toBe('$0.00004321');
    expect(usdPriceText(0.0000012345, 'en-US')).toBe('$0.00000123');
    expect(usdPriceText(1e-9, 'en-US')).toBe('$0.00');
    expect(usdPriceText(0, 'en-US')).toBe('$0.00');
  });

  it("writes them in the locale's digits and separators", () => {
    expect(usdPriceText(97_250, 'de-DE')).toBe('$97.250,00');
    expect(usdPriceText(0.034123, 'de-DE')).toBe('$0,03412');
  });

  it('is within 0.05 % of the price from $0.00001 up (four significant digits at least)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-5, max: 1e9, noNaN: true }), (x) => {
        const shown = Number(usdPriceText(x, 'en-US').replace(/[$,]/g, ''));
        expect(Math.abs(shown - x) / x).toBeLessThanOrEqual(5e-4 * (1 + 1e-9));
      }),
    );
  });
});

describe('pool prices', () => {
  const XBTC_USDC = { base_asset_decimals: 8, quote_asset_decimals: 6, tick_size: 1_000_000 };
  const SUI_USDC = { base_asset_decimals: 9, quote_asset_decimals: 6, tick_size: 100 };
  const COARSE = { base_asset_decimals: 6, quote_asset_decimals: 6, tick_size: 5_000_000_000 };
  const DEEP_SUI = { base_asset_decimals: 6, quote_asset_decimals: 9, tick_size: 1 };

  it("keep the tick's decimals, trailing zeros too, so a column of them lines up", () => {
    expect(poolPriceText(107_677.8, tickDecimals(XBTC_USDC), 'en-US')).toBe('107,677.8');
    expect(poolPriceText(107_677, tickDecimals(XBTC_USDC), 'en-US')).toBe('107,677.0');
    expect(poolPriceText(3.38, tickDecimals(SUI_USDC), 'en-US')).toBe('3.3800');
    expect(poolPriceText(3.38004, tickDecimals(SUI_USDC), 'en-US')).toBe('3.3800');
    expect(poolPriceText(1235, tickDecimals(COARSE), 'en-US')).toBe('1,235');
    // A tick of 1e-12: a tiny price keeps its digits.
    expect(poolPriceText(0.0425, tickDecimals(DEEP_SUI), 'en-US')).toBe('0.042500000000');
    expect(poolPriceText(0.000000123456, tickDecimals(DEEP_SUI), 'en-US')).toBe('0.000000123456');
    expect(poolPriceText(1e9, tickDecimals(XBTC_USDC), 'en-US')).toBe('1,000,000,000.0');
  });

  it('write the tick itself and a mid between two ticks (one decimal more) exactly', () => {
    for (const pool of [XBTC_USDC, SUI_USDC, COARSE, DEEP_SUI]) {
      const tick = humanPrice(pool.tick_size, pool);
      expect(Number(poolPriceText(tick, tickDecimals(pool), 'en-US').replace(/,/g, ''))).toBe(tick);
    }
    expect(poolPriceText((3.3805 + 3.3806) / 2, tickDecimals(SUI_USDC) + 1, 'en-US')).toBe('3.38055');
  });

  it("writes them in the locale's digits and separators", () => {
    expect(poolPriceText(107_677.8, 1, 'de-DE')).toBe('107.677,8');
  });
});

describe('numberFormat', () => {
  it('makes one formatter per locale and options', () => {
    const opts = { maximumFractionDigits: 3 };
    expect(numberFormat('en-US', opts)).toBe(numberFormat('en-US', { maximumFractionDigits: 3 }));
    expect(numberFormat('en-US', opts)).not.toBe(numberFormat('de-DE', opts));
    expect(numberFormat('en-US', opts)).not.toBe(numberFormat('en-US', { maximumFractionDigits: 2 }));
    expect(numberFormat('de-DE', opts).format(1234.5678)).toBe('1.234,568');
  });
});
