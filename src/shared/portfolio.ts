/**
 * The contract's answers in money: prices, positions, wallets, the Portfolio, one manager, and
 * the Demo network's owner hints (re-exported by contract.ts, which every caller imports).
 */
import type { Holdings, LiquidationOutcome, ModelPosition, PositionLevel, RiskThresholds } from './risk-model';

/**
 * An asset's price in USD and where it came from (docs/valuation.md "One valuation"): a
 * stablecoin is $1; any other asset the protocol's oracle price, learnt from the service's risk
 * ratios (or a record's oracle price) and moved with the exchange since; the exchange's own price
 * only where no oracle price was ever learnt. `at` is when the price was true.
 */
export interface UsdPrice {
  symbol: string;
  usd: number;
  source: 'stablecoin' | 'oracle' | 'exchange';
  at: number;
  /** oracle: when it was last learnt from the service (it moves with the exchange since). */
  oracle_at?: number;
  /** oracle: learnt from the risk ratios, from a deposit's or liquidation's record, or (its level) from the exchange. */
  learnt_from?: 'ratio' | 'record' | 'exchange';
  /** The exchange's price now, where known (shown beside the oracle's where they differ by more than 1 %). */
  exchange_usd?: number | null;
}

/**
 * An asset's price as the Portfolio lists it (the prices a valuation used), with the decimals it is
 * written with (docs/formats.md): those of the tick of the pool it is priced on, in dollars, as a
 * position on that pool writes the price (`PositionSummary.price_decimals`): WAL's 5 on WAL_USDC
 * ("$0.19650"), XBTC's 1 on XBTC_USDC ("$108,757.4").
 */
export interface ListedPrice extends UsdPrice {
  /** Null where no pool prices the asset (then it is written by its size: format.ts `usdPriceDigits`). */
  price_decimals: number | null;
}

/** A margin manager's position in money: what it holds, what it owes, and the price that liquidates it. */
export interface PositionSummary {
  manager_id: string;
  owner: string;
  /** The exchange pool the manager trades (null when the pool is not known). */
  pool_name: string | null;
  base_symbol: string | null;
  quote_symbol: string | null;
  /** What the manager holds, in human units. */
  base_amount: number;
  quote_amount: number;
  /** Its debts, one per loan, in human units of the borrowed asset. */
  debts: Array<{ margin_pool_id: string; symbol: string; amount: number; usd: number | null }>;
  /** Assets held (collateral and borrowed funds), debt, and their difference, in USD. */
  collateral_usd: number | null;
  debt_usd: number | null;
  equity_usd: number | null;
  /** Assets / equity: 1 without debt; null when equity is not positive. */
  leverage: number | null;
  /** Assets / debt at the valuation's prices (the protocol's oracle): always collateral_usd / debt_usd; null without debt. */
  risk_ratio: number | null;
  /** The service's own ratio when the records were read (it agrees with risk_ratio then, within its rounding). */
  service_ratio: number | null;
  /** Below this ratio the position is liquidated (the pool's `risk_params.liquidation`). */
  liquidation_ratio: number;
  /** The pool's risk parameters, as published by the service or the protocol's defaults. */
  risk_params: RiskParams;
  /** The asset whose price moves the ratio (the pool's base asset), and its price now. */
  moving_symbol: string | null;
  price: UsdPrice | null;
  /** The quote asset's price in the same valuation. */
  quote_price: UsdPrice | null;
  /**
   * The moving asset's USD price at which the ratio reaches `liquidation_ratio` (the quote's price
   * held), rounded toward the danger at `price_decimals`.
   */
  liquidation_price: number | null;
  /**
   * The decimals every price of this position is written with, its mark (`price`), liquidation
   * and break-even prices, in every view and alert: its pool's tick's (units.ts
   * `usdTickDecimals`: WAL_USDC's 5, "$0.19650"; XBTC_USDC's 1, "$108,757.4"). Null without a
   * known pool (then it has no prices either).
   */
  price_decimals: number | null;
  /** The move from `price` to `liquidation_price`, in percent (negative: a fall liquidates). */
  distance_pct: number | null;
  /** Long the base (debt in quote), short the base (debt in base); null without debt. */
  side: 'long' | 'short' | null;
  /** Exposure to the base in base units: held minus owed (negative: short). */
  size: number;
  /** Debt in each asset, human units, accrued to now. */
  debt_base: number;
  debt_quote: number;
  base_decimals: number;
  quote_decimals: number;
  /** The level by the thresholds in force for this manager (the tray, the alerts and every view judge alike). */
  thresholds: RiskThresholds;
  level: PositionLevel;
  /** What the exchange's prices would make of it, where they differ from the valuation's by more than 1 %. */
  exchange_view: { base_usd: number; quote_usd: number; ratio: number | null; difference_pct: number } | null;
  /** Profit since opening and the break-even price; null fields where not known (`note` says why). */
  pnl: PositionPnl;
  /** Borrow rate and interest. */
  interest: PositionInterest;
  /** The smallest deposit or repayment back to `target` (the warning threshold); null when above it. */
  repair: RepairPlan | null;
  /** What a liquidation at the liquidation price would take (the cost of doing nothing). */
  liquidation_cost: LiquidationOutcome | null;
  /** When this valuation was made (ms): `interest.liquidation_in_ms` counts from it. */
  valued_at: number;
  /** When the position last changed on chain (ms). */
  updated_ms: number | null;
}

export interface PositionPnl {
  /** Deposits less withdrawals, USD at their time. */
  net_deposited_usd: number | null;
  pnl_usd: number | null;
  /**
   * The base price at which `pnl_usd` is zero, the quote's price held. Not an entry price (the
   * service sends no fills): it counts interest accrued and what liquidations took, so it creeps
   * with interest and moves at each liquidation (docs/valuation.md).
   */
  break_even_price: number | null;
  /** When the latest liquidation since opening moved the break-even price (ms); null when none did. */
  break_even_moved_at: number | null;
  /** Whether some deposit or withdrawal was valued at a price of another time (then `note` says which). */
  estimated: boolean;
  note: string | null;
}

export interface PositionInterest {
  /** The debt's borrow APR (a fraction a year). */
  apr: number | null;
  /** `curve`: the pool's published curve at its utilization; `observed`: the loan's growth since opening. */
  apr_source: 'curve' | 'observed' | null;
  /** Interest accrued since the loan was opened, in the debt asset and USD: at most this (later borrows accrued less). */
  accrued: number | null;
  accrued_usd: number | null;
  symbol: string | null;
  /** When interest alone brings the ratio to the liquidation ratio at today's prices (ms from `valued_at`); null: not within a year. */
  liquidation_in_ms: number | null;
}

export interface RepairPlan {
  target: number;
  /** Deposits of each asset the position can take, any one of which restores `target`. */
  deposits: Array<{ symbol: string; amount: number; usd: number }>;
  /**
   * The repayment (in the asset owed) that restores it. `balance`: from the manager's own balance,
   * as the protocol repays (it holds that much of the asset owed), which restores it however it is
   * paid; `wallet`: brought in from the wallet first (deposited, then repaid), the manager holding
   * too little of it, a smaller amount. Null when no repayment can: at a ratio of 1 or below with
   * too little of the asset owed.
   */
  repay: { symbol: string; amount: number; usd: number; from: 'balance' | 'wallet' } | null;
  /** The liquidation price after the deposit of the quote asset. */
  liquidation_price_after: number | null;
}

/** What the risk model needs of a position (shocks, repair, projections): the same numbers the row shows. */
export function modelOf(p: PositionSummary): ModelPosition & { holdings: Holdings } {
  return {
    manager_id: p.manager_id,
    base_symbol: p.base_symbol,
    quote_symbol: p.quote_symbol,
    holdings: { base: p.base_amount, quote: p.quote_amount, debtBase: p.debt_base, debtQuote: p.debt_quote },
    prices: p.price && p.quote_price ? { base: p.price.usd, quote: p.quote_price.usd } : null,
    params: p.risk_params,
    thresholds: p.thresholds,
  };
}

/**
 * A pool's risk parameters (ratios are assets / debt; rewards are shares of the repaid debt).
 * `source` says whether the service published them or the protocol's documented defaults stand in.
 */
export interface RiskParams {
  liquidation: number;
  target_liquidation: number;
  min_borrow: number;
  min_withdraw: number;
  user_reward: number;
  pool_reward: number;
  enabled: boolean;
  source: 'service' | 'default';
}

/** The protocol's default liquidation ratio, against which the user's thresholds are set. */
export const DEFAULT_LIQUIDATION_RATIO = 1.125;

/**
 * The default thresholds on a pool that liquidates at 1.125 (docs/valuation.md "Levels"): a
 * healthy 3-5x position (ratio 1.25-1.5) is not in warning; 1.2 is 6.25 % above the liquidation
 * price of a long holding only the base.
 */
export const DEFAULT_THRESHOLDS = { warning: 1.2, critical: 1.15 } as const;

/**
 * A manager's default thresholds on its pool: the user's warning and critical ratios are set
 * against the default liquidation ratio (1.125), so a pool that liquidates at another ratio moves
 * them by the same distance (liquidation 1.2: 1.5/1.25 become 1.575/1.325). A manager's own
 * thresholds are used as set, not through this.
 */
export function thresholdsOnPool<T extends { warning: number; critical: number }>(defaults: T, liquidation: number): T {
  const shift = liquidation - DEFAULT_LIQUIDATION_RATIO;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return shift === 0
    ? defaults
    : { ...defaults, warning: round(defaults.warning + shift), critical: round(defaults.critical + shift) };
}

export interface SupplySummary {
  supplier_cap_id: string;
  margin_pool_id: string;
  symbol: string;
  amount: number;
  usd: number | null;
}

export interface WalletSummary {
  owner: string;
  label: string | null;
  /** Riskiest first (lowest distance to liquidation, then lowest ratio). */
  positions: PositionSummary[];
  supplies: SupplySummary[];
  totals: { collateral_usd: number; debt_usd: number; equity_usd: number; supplied_usd: number; unpriced: number };
  /** Set when this wallet's positions could not be read this time (the rest is from the last good read). */
  error?: string;
}

export interface PortfolioSummary {
  /** Riskiest wallet first. */
  wallets: WalletSummary[];
  /** The prices used, by symbol, each with the decimals it is written with. */
  prices: ListedPrice[];
  computed_at: number;
}

/** One margin manager, for its page. */
export interface ManagerDetail {
  manager_id: string;
  owner: string | null;
  pool_name: string | null;
  created_at: string | null;
  /** Null when the manager is not found on the service. */
  position: PositionSummary | null;
  /** Whether its owner is on the watch list (risk history is recorded only then). */
  watched: boolean;
}

/** On the Demo network: owners worth a look, with what they hold (the empty states suggest them). */
export interface DemoOwnerHint {
  owner: string;
  nfts: number;
  kiosks: number;
  managers: number;
  loans: number;
}
