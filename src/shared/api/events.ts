import * as v from 'valibot';
import { Num } from './primitives';
import { DepthSchema, TradeSchema } from './dex';

export const EVENT_TYPES = {
  liveTrade: 'dex_live_trades',
  depth: 'dex_order_book_depth',
  managerCreated: 'dex_margin_manager_updates_manager_created',
  deposit: 'dex_margin_manager_updates_deposit',
  withdraw: 'dex_margin_manager_updates_withdraw',
  liquidation: 'dex_margin_manager_updates_liquidation',
} as const;

export const ManagerCreatedDataSchema = v.object({
  margin_manager_id: v.string(),
  balance_manager_id: v.string(),
  dex_pool_id: v.string(),
  owner: v.string(),
  timestamp: Num,
});

/** Deposit and withdraw carry the same fields. */
export const CollateralDataSchema = v.object({
  margin_manager_id: v.string(),
  base_asset_amount: Num,
  quote_asset_amount: Num,
  timestamp: Num,
});

export const LiquidationDataSchema = v.object({
  margin_manager_id: v.string(),
  margin_pool_id: v.string(),
  liquidation_amount: Num,
  pool_reward: Num,
  pool_default: Num,
  /** Scaled by 1,000,000 on the stream: see `riskRatioFromStream` in units.ts. */
  risk_ratio: Num,
  remaining_base_asset: Num,
  remaining_quote_asset: Num,
  timestamp: Num,
});

const envelope = {
  timestamp_ms: Num,
  checkpoint_id: Num,
  tx_hash: v.string(),
};

export const LiveTradeEventSchema = v.object({
  type: v.literal(EVENT_TYPES.liveTrade),
  ...envelope,
  data: TradeSchema,
});
export const DepthEventSchema = v.object({
  type: v.literal(EVENT_TYPES.depth),
  ...envelope,
  data: DepthSchema,
});
export const ManagerCreatedEventSchema = v.object({
  type: v.literal(EVENT_TYPES.managerCreated),
  ...envelope,
  data: ManagerCreatedDataSchema,
});
export const DepositEventSchema = v.object({
  type: v.literal(EVENT_TYPES.deposit),
  ...envelope,
  data: CollateralDataSchema,
});
export const WithdrawEventSchema = v.object({
  type: v.literal(EVENT_TYPES.withdraw),
  ...envelope,
  data: CollateralDataSchema,
});
export const LiquidationEventSchema = v.object({
  type: v.literal(EVENT_TYPES.liquidation),
  ...envelope,
  data: LiquidationDataSchema,
});

/** Any envelope, before dispatch on `type` (an unknown type is kept, not rejected). */
export const EventEnvelopeSchema = v.object({
  type: v.string(),
  ...envelope,
  data: v.record(v.string(), v.unknown()),
});

/** The pool stream: live trades and depth snapshots of one pool. */
export const PoolStreamEventSchema = v.variant('type', [LiveTradeEventSchema, DepthEventSchema]);

/** The margin stream: margin-manager lifecycle events. */
export const MarginEventSchema = v.variant('type', [
  ManagerCreatedEventSchema,
  DepositEventSchema,
  WithdrawEventSchema,
  LiquidationEventSchema,
]);

export type EventEnvelope = v.InferOutput<typeof EventEnvelopeSchema>;
export type LiveTradeEvent = v.InferOutput<typeof LiveTradeEventSchema>;
export type DepthEvent = v.InferOutput<typeof DepthEventSchema>;
export type PoolStreamEvent = v.InferOutput<typeof PoolStreamEventSchema>;
export type ManagerCreatedData = v.InferOutput<typeof ManagerCreatedDataSchema>;
export type CollateralData = v.InferOutput<typeof CollateralDataSchema>;
export type LiquidationData = v.InferOutput<typeof LiquidationDataSchema>;
export type MarginEvent = v.InferOutput<typeof MarginEventSchema>;
export type MarginEventType = MarginEvent['type'];
