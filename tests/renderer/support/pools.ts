import type { Candle, Pool } from '../../../src/shared/api';
import { rawPrice } from '../../../src/shared/units';

/** SUI_USDC as the Demo network lists it: SUI's 9 decimals, USDC's 6, a tick of $0.0001. */
export const SUI_USDC: Pool = {
  pool_id: '0x1',
  pool_name: 'SUI_USDC',
  base_asset_id: '0x2::sui::SUI',
  quote_asset_id: '0x3::usdc::USDC',
  base_asset_decimals: 9,
  quote_asset_decimals: 6,
  base_asset_symbol: 'SUI',
  quote_asset_symbol: 'USDC',
  tick_size: 100,
  lot_size: 100_000_000,
} as Pool;

/**
 * Flat 15-minute candles of `pool` at the closes given (open, high, low and close alike), the last
 * ending at `now`: a chart's price range by hand.
 */
export function flatCandles(closes: readonly number[], now: number, pool: Pool = SUI_USDC): Candle[] {
  return closes.map((c, i) => ({
    timestamp: new Date(now - (closes.length - i) * 900_000).toISOString().slice(0, 19),
    open: rawPrice(c, pool),
    high: rawPrice(c, pool),
    low: rawPrice(c, pool),
    close: rawPrice(c, pool),
    volume_base: '0',
    volume_quote: '0',
    trade_count: 1,
  }));
}
