import * as v from 'valibot';
import { BigIntString, Num } from './primitives';

export const PoolSchema = v.object({
  pool_id: v.string(),
  pool_name: v.string(),
  base_asset_id: v.string(),
  base_asset_decimals: Num,
  base_asset_symbol: v.string(),
  base_asset_name: v.string(),
  quote_asset_id: v.string(),
  quote_asset_decimals: Num,
  quote_asset_symbol: v.string(),
  quote_asset_name: v.string(),
  min_size: Num,
  lot_size: Num,
  tick_size: Num,
});

export const PriceLevelSchema = v.object({
  price: Num,
  total_quantity: Num,
  order_count: Num,
});

export const DepthSchema = v.object({
  pool_id: v.string(),
  bids: v.array(PriceLevelSchema),
  asks: v.array(PriceLevelSchema),
});

export const TradeSchema = v.object({
  event_digest: v.string(),
  digest: v.string(),
  sender: v.string(),
  checkpoint: Num,
  checkpoint_timestamp_ms: Num,
  package: v.string(),
  pool_id: v.string(),
  maker_order_id: BigIntString,
  taker_order_id: BigIntString,
  maker_client_order_id: BigIntString,
  taker_client_order_id: BigIntString,
  price: Num,
  taker_fee: Num,
  taker_fee_is_token: v.boolean(),
  maker_fee: Num,
  maker_fee_is_token: v.boolean(),
  taker_is_bid: v.boolean(),
  base_quantity: Num,
  quote_quantity: Num,
  maker_balance_manager_id: v.string(),
  taker_balance_manager_id: v.string(),
  onchain_timestamp: Num,
});

export const CandleSchema = v.object({
  timestamp: v.string(),
  open: Num,
  high: Num,
  low: Num,
  close: Num,
  volume_base: BigIntString,
  volume_quote: BigIntString,
  trade_count: Num,
});

export const PoolListSchema = v.array(PoolSchema);
export const TradeListSchema = v.array(TradeSchema);
export const CandleListSchema = v.array(CandleSchema);

export const TIMEFRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const TIMEFRAME_SECONDS: Record<Timeframe, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14400,
  '1d': 86400,
};

/** Bounds of the exchange endpoints' `limit` (docs/service.md, Limits). */
export const DEPTH_LIMIT_MAX = 20;
export const SERIES_LIMIT_MAX = 100;

export type Pool = v.InferOutput<typeof PoolSchema>;
export type PriceLevel = v.InferOutput<typeof PriceLevelSchema>;
export type Depth = v.InferOutput<typeof DepthSchema>;
export type Trade = v.InferOutput<typeof TradeSchema>;
export type Candle = v.InferOutput<typeof CandleSchema>;
