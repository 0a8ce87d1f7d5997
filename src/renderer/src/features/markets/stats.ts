import type { Candle, Pool } from '../../../../shared/api';
import { baseQuantity, candleTimeMs, humanPrice, quoteQuantity } from '../../../../shared/units';

export interface DayStats {
  /** First open to last close of the window, in percent. */
  changePct: number | null;
  high: number | null;
  low: number | null;
  last: number | null;
  volumeBase: number;
  volumeQuote: number;
  trades: number;
}

/** A pool's last 24 hours from its hourly candles (human prices, volumes in base and quote units). */
export function dayStats(candles: readonly Candle[], pool: Pool, now = Date.now()): DayStats {
  const since = now - 24 * 3_600_000;
  const inDay = [...candles]
    .filter((k) => candleTimeMs(k.timestamp) >= since - 3_600_000)
    .sort((a, b) => candleTimeMs(a.timestamp) - candleTimeMs(b.timestamp));
  if (inDay.length === 0)
    return { changePct: null, high: null, low: null, last: null, volumeBase: 0, volumeQuote: 0, trades: 0 };
  const open = humanPrice(inDay[0]!.open, pool);
  const last = humanPrice(inDay[inDay.length - 1]!.close, pool);
  return {
    changePct: open > 0 ? (last / open - 1) * 100 : null,
    high: Math.max(...inDay.map((k) => humanPrice(k.high, pool))),
    low: Math.min(...inDay.map((k) => humanPrice(k.low, pool))),
    last,
    volumeBase: inDay.reduce((a, k) => a + baseQuantity(Number(k.volume_base), pool), 0),
    volumeQuote: inDay.reduce((a, k) => a + quoteQuantity(Number(k.volume_quote), pool), 0),
    trades: inDay.reduce((a, k) => a + k.trade_count, 0),
  };
}
