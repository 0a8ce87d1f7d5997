import type { Candle, Trade } from '../../shared/api';
import { TIMEFRAME_SECONDS, type Timeframe } from '../../shared/api';
import { checkpointAt, isoNoZone } from '../clock';
import { Rng, txDigest } from '../rng';
import { Market, type TradeRecord } from './market';

/** Index of the first record with ms >= t (records are in time order). */
export function lowerBound(trades: readonly TradeRecord[], t: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trades[mid]!.ms < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The pool stream's event id of the trade at index `i`: its millisecond and its place among that
 * millisecond's trades (`1732270000000-2`), so ids grow with the pool's trades and a resume can
 * name where it stopped. Records of one millisecond are kept or forgotten together.
 */
export function tradeStreamId(trades: readonly TradeRecord[], i: number): string {
  const ms = trades[i]!.ms;
  return `${ms}-${i - lowerBound(trades, ms)}`;
}

/** Index of the first trade after stream id (ms, seq): where a resume with `last-id` starts. */
export function tradeIndexAfter(trades: readonly TradeRecord[], ms: number, seq: number): number {
  const first = lowerBound(trades, ms);
  let i = first;
  while (i < trades.length && trades[i]!.ms === ms && i - first <= seq) i++;
  return i;
}

const digestCache = new Map<string, string>();

/** The transaction digest of a pool's tx number: derived, not stored, and the same every time. */
export function digestOf(poolId: string, tx: number): string {
  const key = `${poolId}:${tx}`;
  let d = digestCache.get(key);
  if (d === undefined) {
    let h = 2166136261;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    d = txDigest(new Rng(h >>> 0));
    if (digestCache.size > 200_000) digestCache.clear();
    digestCache.set(key, d);
  }
  return d;
}

/** u128 order id laid out as the exchange does: side bit, price, then a sequence number. */
function orderId(isBid: boolean, price: number, seq: number): string {
  return ((BigInt(isBid ? 0 : 1) << 127n) | (BigInt(price) << 64n) | BigInt(seq)).toString();
}

export function tradeToWire(market: Market, rec: TradeRecord, packageId: string): Trade {
  const digest = digestOf(market.pool.pool_id, rec.tx);
  const quote = Market.quoteOf(rec);
  // Taker fee: 10 bps in DEEP (the exchange's fee token) or 12.5 bps of the quote otherwise.
  const takerFee = rec.feeInToken ? Math.floor(quote * 0.001 * 5) : Math.floor(quote * 0.00125);
  return {
    event_digest: `${digest}:${rec.fill}`,
    digest,
    sender: market.trader(rec.taker),
    checkpoint: checkpointAt(rec.ms),
    checkpoint_timestamp_ms: rec.ms,
    package: packageId,
    pool_id: market.pool.pool_id,
    maker_order_id: orderId(!rec.takerIsBid, rec.price, rec.makerSeq),
    taker_order_id: orderId(rec.takerIsBid, rec.price, rec.takerSeq),
    maker_client_order_id: String(rec.makerSeq % 100_000),
    taker_client_order_id: String(rec.takerSeq % 100_000),
    price: rec.price,
    taker_fee: takerFee,
    taker_fee_is_token: rec.feeInToken,
    maker_fee: 0,
    maker_fee_is_token: rec.feeInToken,
    taker_is_bid: rec.takerIsBid,
    base_quantity: rec.baseQty,
    quote_quantity: quote,
    maker_balance_manager_id: market.balanceManager(rec.maker),
    taker_balance_manager_id: market.balanceManager(rec.taker),
    onchain_timestamp: rec.ms,
  };
}

/** Trades whose second lies in [fromSec, toSec], the most recent `limit`, most recent first. */
export function tradesInRange(
  trades: readonly TradeRecord[],
  fromSec: number,
  toSec: number,
  limit: number,
): TradeRecord[] {
  const start = lowerBound(trades, fromSec * 1000);
  const end = lowerBound(trades, (toSec + 1) * 1000);
  const out: TradeRecord[] = [];
  for (let i = end - 1; i >= start && out.length < limit; i--) out.push(trades[i]!);
  return out;
}

/**
 * Candles whose period start lies in [fromSec, toSec], each aggregating every trade of its
 * period (so a candle always agrees with the trades of its period), the most recent `limit`,
 * oldest first. Periods without trades have no candle.
 */
export function candlesInRange(
  trades: readonly TradeRecord[],
  timeframe: Timeframe,
  fromSec: number,
  toSec: number,
  limit: number,
): Candle[] {
  const period = TIMEFRAME_SECONDS[timeframe] * 1000;
  const firstStart = Math.ceil((fromSec * 1000) / period) * period;
  const lastStart = Math.floor((toSec * 1000) / period) * period;
  if (lastStart < firstStart) return [];
  const start = lowerBound(trades, firstStart);
  const end = lowerBound(trades, lastStart + period);
  const candles: Candle[] = [];
  // Walk backwards so only the newest `limit` periods are aggregated.
  let i = end - 1;
  while (i >= start && candles.length < limit) {
    const periodStart = Math.floor(trades[i]!.ms / period) * period;
    let j = i;
    while (j - 1 >= start && trades[j - 1]!.ms >= periodStart) j--;
    let high = -Infinity;
    let low = Infinity;
    let volBase = 0n;
    let volQuote = 0n;
    for (let k = j; k <= i; k++) {
      const t = trades[k]!;
      if (t.price > high) high = t.price;
      if (t.price < low) low = t.price;
      volBase += BigInt(t.baseQty);
      volQuote += BigInt(Market.quoteOf(t));
    }
    candles.push({
      timestamp: isoNoZone(periodStart),
      open: trades[j]!.price,
      high,
      low,
      close: trades[i]!.price,
      volume_base: volBase.toString(),
      volume_quote: volQuote.toString(),
      trade_count: i - j + 1,
    });
    i = j - 1;
  }
  return candles.reverse();
}
