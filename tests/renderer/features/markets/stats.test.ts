import { describe, expect, it } from 'vitest';
import { dayStats } from '../../../../src/renderer/src/features/markets/stats';
import { liquidationValue } from '../../../../src/renderer/src/features/margin/liquidation-value';
import { price, usdPrice } from '../../../../src/renderer/src/format';
import { SUI_USDC } from '../../support/pools';

describe('market figures', () => {
  const pool = SUI_USDC;
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
      () => ({ ...pool, pool_id: 'p' }),
    );
    expect(v).toMatchObject({ amount: 2, symbol: 'SUI', usd: 6 });
  });
});
