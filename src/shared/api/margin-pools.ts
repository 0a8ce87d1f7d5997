import * as v from 'valibot';
import { Num } from './primitives';

/**
 * The margin pools and the exchange pools registered for margin, with their risk parameters
 * (docs/service.md, Beyond the service contract). Not in the contract: the fields are the real
 * service's published ones (`/deepbook-margin/pools`, `/deepbook-margin/registered-deepbook-pools`),
 * in spec naming here.
 * Only what Tidewatch uses is required; the rest passes through unchecked.
 */

/**
 * A risk ratio or reward as the service may send it: the protocol keeps them as 9-decimal fixed
 * point (1_125_000_000 = 1.125, 10_000_000 = 1 %), an indexer may send them converted. A value
 * above 1,000 is read as fixed point; a ratio is then 1.125 and a reward 0.01 either way.
 */
export const FixedRatio = v.pipe(
  Num,
  v.transform((x) => (Math.abs(x) > 1_000 ? x / 1e9 : x)),
);

export const MarginPoolInfoSchema = v.looseObject({
  margin_pool_id: v.string(),
  asset_type: v.string(),
  dex_pool_ids: v.optional(v.array(v.string())),
  /** The kinked interest curve (fractions a year; fixed point read as FixedRatio). */
  base_rate: v.optional(FixedRatio),
  base_slope: v.optional(FixedRatio),
  optimal_utilization: v.optional(FixedRatio),
  excess_slope: v.optional(FixedRatio),
  /** What is supplied and borrowed now (raw units), where the service publishes it: the utilization. */
  total_supply: v.optional(Num),
  total_borrow: v.optional(Num),
  /** The share of the interest the protocol keeps (suppliers earn the rest): the supply APR. */
  protocol_spread: v.optional(FixedRatio),
});

export const RegisteredDexPoolSchema = v.looseObject({
  pool_id: v.string(),
  base_margin_pool_id: v.optional(v.string()),
  quote_margin_pool_id: v.optional(v.string()),
  min_withdraw_risk_ratio: FixedRatio,
  min_borrow_risk_ratio: FixedRatio,
  liquidation_risk_ratio: FixedRatio,
  target_liquidation_risk_ratio: FixedRatio,
  user_liquidation_reward: v.optional(FixedRatio),
  pool_liquidation_reward: v.optional(FixedRatio),
  enabled: v.optional(v.boolean(), true),
});

export const MarginPoolInfoListSchema = v.array(MarginPoolInfoSchema);
export const RegisteredDexPoolListSchema = v.array(RegisteredDexPoolSchema);

export type MarginPoolInfo = v.InferOutput<typeof MarginPoolInfoSchema>;
export type RegisteredDexPool = v.InferOutput<typeof RegisteredDexPoolSchema>;
