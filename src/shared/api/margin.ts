import * as v from 'valibot';
import { Num } from './primitives';
import { PageSchema } from './page';

export const SupplyReferralSchema = v.object({
  supply_referral_id: v.string(),
  margin_pool_id: v.string(),
  owner: v.string(),
  onchain_timestamp: Num,
  checkpoint_id: Num,
  digest: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const SupplierCapSchema = v.object({
  supplier_cap_id: v.string(),
  owner: v.string(),
  checkpoint_id: Num,
  created_at: v.string(),
  updated_at: v.string(),
  digest: v.string(),
});

/** A loan inside a margin manager (`active_loans` items). */
export const LoanSchema = v.object({
  margin_manager_id: v.string(),
  margin_pool_id: v.string(),
  loan_amount: Num,
  loan_shares: Num,
  remaining_amount: Num,
  remaining_shares: Num,
  /** A plain ratio on REST: 1.25 means assets are 125% of debt. */
  risk_ratio: v.nullable(Num),
  checkpoint: Num,
  timestamp: v.string(),
  digest: v.string(),
});

export const DepositSchema = v.object({
  margin_manager_id: v.string(),
  base_asset_amount: Num,
  quote_asset_amount: Num,
  last_base_oracle_price: Num,
  last_base_oracle_decimals: Num,
  last_quote_oracle_price: Num,
  last_quote_oracle_decimals: Num,
  checkpoint: Num,
  timestamp: v.string(),
  digest: v.string(),
});

export const MarginManagerSchema = v.object({
  margin_manager_id: v.string(),
  balance_manager_id: v.string(),
  owner: v.string(),
  dex_pool_id: v.string(),
  checkpoint: Num,
  checkpoint_timestamp_ms: Num,
  onchain_timestamp: Num,
  digest: v.string(),
  created_at: v.string(),
  active_loans: v.optional(v.nullable(v.array(LoanSchema))),
  deposit: v.optional(v.nullable(DepositSchema)),
});

/**
 * The margin manager nested in liquidations and active loans: the service contract names no
 * fields for it (docs/service.md, Resources), so every field is optional and unknown ones are kept.
 */
export const NestedMarginManagerSchema = v.nullish(v.looseObject({ ...v.partial(MarginManagerSchema).entries }));

export const LiquidationSchema = v.object({
  event_digest: v.string(),
  digest: v.string(),
  sender: v.string(),
  checkpoint: Num,
  timestamp: v.string(),
  checkpoint_timestamp_ms: Num,
  margin_manager_id: v.string(),
  margin_pool_id: v.string(),
  liquidation_amount: Num,
  pool_reward: Num,
  pool_default: Num,
  /** A plain ratio on REST (the stream's liquidation event scales it by 1,000,000). */
  risk_ratio: Num,
  remaining_base_asset: Num,
  remaining_quote_asset: Num,
  remaining_base_debt: Num,
  remaining_quote_debt: Num,
  base_oracle_price: Num,
  base_oracle_decimals: Num,
  quote_oracle_price: Num,
  quote_oracle_decimals: Num,
  onchain_timestamp: Num,
  margin_manager: NestedMarginManagerSchema,
});

export const ActiveSupplySchema = v.object({
  margin_pool_id: v.string(),
  asset_type: v.string(),
  supplier_cap_id: v.string(),
  supply_amount: Num,
  supply_shares: Num,
  remaining_amount: Num,
  remaining_shares: Num,
  checkpoint: Num,
  timestamp: v.string(),
  checkpoint_timestamp_ms: Num,
  digest: v.string(),
  supplier_cap: v.nullish(SupplierCapSchema),
});

/** Get Active Loans items: a loan, with its time and the manager it belongs to. */
export const ActiveLoanSchema = v.object({
  ...LoanSchema.entries,
  checkpoint_timestamp_ms: Num,
  margin_manager: NestedMarginManagerSchema,
});

export const SupplyReferralPageSchema = PageSchema(SupplyReferralSchema);
export const SupplierCapPageSchema = PageSchema(SupplierCapSchema);
export const MarginManagerPageSchema = PageSchema(MarginManagerSchema);
export const LiquidationPageSchema = PageSchema(LiquidationSchema);
export const ActiveSupplyPageSchema = PageSchema(ActiveSupplySchema);
export const ActiveLoanPageSchema = PageSchema(ActiveLoanSchema);

export type SupplyReferral = v.InferOutput<typeof SupplyReferralSchema>;
export type SupplierCap = v.InferOutput<typeof SupplierCapSchema>;
export type Loan = v.InferOutput<typeof LoanSchema>;
export type Deposit = v.InferOutput<typeof DepositSchema>;
export type MarginManager = v.InferOutput<typeof MarginManagerSchema>;
export type NestedMarginManager = v.InferOutput<typeof NestedMarginManagerSchema>;
export type Liquidation = v.InferOutput<typeof LiquidationSchema>;
export type ActiveSupply = v.InferOutput<typeof ActiveSupplySchema>;
export type ActiveLoan = v.InferOutput<typeof ActiveLoanSchema>;
