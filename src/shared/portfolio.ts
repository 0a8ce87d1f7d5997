/**
 * The contract's answers in money: prices, positions, wallets, the Portfolio, one manager, and
 * the Demo network's owner hints (re-exported by contract.ts, which every caller imports).
 */

/**
 * An asset's price in USD and where it came from (docs/credits.md "Prices"): a stablecoin is $1;
 * any other asset takes the fresher of the oracle price recorded with a margin deposit and the
 * exchange's last trade in a stablecoin pool (SUI from SUI_USDC). `at` is when the price was
 * true (the deposit's time, or when the trade was read).
 */
export interface UsdPrice {
  symbol: string;
  usd: number;
  source: 'stablecoin' | 'oracle' | 'exchange';
  at: number;
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
  /** The service's risk ratio (assets / debt) of the riskiest loan; null without debt. */
  risk_ratio: number | null;
  /** Below this ratio the position is liquidated (the pool's `risk_params.liquidation`). */
  liquidation_ratio: number;
  /** The pool's risk parameters, as published by the service or the protocol's defaults. */
  risk_params: RiskParams;
  /** The asset whose price moves the ratio (the pool's base asset), and its price now. */
  moving_symbol: string | null;
  price: UsdPrice | null;
  /** The moving asset's USD price at which the ratio reaches `liquidation_ratio`. */
  liquidation_price: number | null;
  /** The move from `price` to `liquidation_price`, in percent (negative: a fall liquidates). */
  distance_pct: number | null;
  /** When the position last changed on chain (ms). */
  updated_ms: number | null;
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
 * A manager's default thresholds on its pool: the user's warning and critical ratios are set
 * against the default liquidation ratio (1.125), so a pool that liquidates at another ratio moves
 * them by the same distance (liquidation 1.2: 1.5/1.25 become 1.575/1.325). A manager's own
 * thresholds are used as set, not through this.
 */
export function thresholdsOnPool<T extends { warning: number; critical: number }>(defaults: T, liquidation: number): T {
  const shift = liquidation - DEFAULT_LIQUIDATION_RATIO;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return shift === 0 ? defaults : { ...defaults, warning: round(defaults.warning + shift), critical: round(defaults.critical + shift) };
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
  /** The prices used, by symbol. */
  prices: UsdPrice[];
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
