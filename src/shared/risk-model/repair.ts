import { ceilAt } from './safe-round';
import { valueAt, type Holdings, type PricePair } from './valuation';

/** The pool's parameters a liquidation follows (ratios are assets / debt, rewards shares of the repaid debt). */
export interface LiquidationParams {
  liquidation: number;
  target_liquidation: number;
  user_reward: number;
  pool_reward: number;
}

/** An amount of one asset: exact (real number) and rounded up to the asset's smallest unit. */
export interface Amount {
  /** What brings the ratio exactly to the target. */
  exact: number;
  /** `exact` rounded up to the asset's smallest unit: at least the target; one unit less is below it. */
  amount: number;
  usd: number;
}

/**
 * The deposit of one asset (price `usd`, `decimals`) that brings the ratio to `target`:
 * (A + x P) / D = T  =>  x = (T D - A) / P. Null when the ratio is there already (or no debt).
 */
export function depositFor(
  h: Holdings,
  p: PricePair,
  target: number,
  asset: 'base' | 'quote',
  decimals: number,
): Amount | null {
  const v = valueAt(h, p);
  if (v.ratio === null || v.ratio >= target) return null;
  const price = asset === 'base' ? p.base : p.quote;
  const exact = (target * v.debt - v.assets) / price;
  const amount = ceilAt(exact, decimals);
  return { exact, amount, usd: amount * price };
}

/**
 * The repayment that brings the ratio to `target` however it is paid. The protocol repays from
 * the manager's own balance of the asset owed, so assets and debt fall together:
 * (A - y Pd) / (D - y Pd) = T  =>  y = (T D - A) / ((T - 1) Pd). Paid in part or whole with the
 * asset brought in first, the assets fall by less and the ratio ends higher. For a position owing
 * one asset; null when the ratio is there already, or at or below 1 (a repayment from its own
 * assets cannot raise it then: only `depositAndRepayFor` or a deposit can).
 */
export function repayFor(h: Holdings, p: PricePair, target: number, decimals: number): Amount | null {
  const v = valueAt(h, p);
  if (v.ratio === null || v.ratio >= target || v.ratio <= 1 || !(target > 1)) return null;
  const { price, owed } = owedOf(h, p);
  const exact = Math.min(owed, (target * v.debt - v.assets) / ((target - 1) * price));
  const amount = Math.min(owed, ceilAt(exact, decimals));
  return { exact, amount, usd: amount * price };
}

/**
 * The repayment brought from the wallet (deposited, then repaid: the assets stay as they are) that
 * brings the ratio to `target`: A / (D - y Pd) = T  =>  y = (D - A / T) / Pd. Smaller than
 * `repayFor`'s; null when the ratio is there already.
 */
export function depositAndRepayFor(h: Holdings, p: PricePair, target: number, decimals: number): Amount | null {
  const v = valueAt(h, p);
  if (v.ratio === null || v.ratio >= target) return null;
  const { price, owed } = owedOf(h, p);
  const exact = Math.min(owed, (v.debt - v.assets / target) / price);
  const amount = Math.min(owed, ceilAt(exact, decimals));
  return { exact, amount, usd: amount * price };
}

/** The asset owed (the base when only the base is owed) and its price. */
function owedOf(h: Holdings, p: PricePair): { price: number; owed: number } {
  const inBase = h.debtBase > 0 && h.debtQuote <= 0;
  return { price: inBase ? p.base : p.quote, owed: inBase ? h.debtBase : h.debtQuote };
}

/** The holdings after depositing `amount` of one asset. */
export function afterDeposit(h: Holdings, asset: 'base' | 'quote', amount: number): Holdings {
  return asset === 'base' ? { ...h, base: h.base + amount } : { ...h, quote: h.quote + amount };
}

/**
 * The holdings after repaying `amount` of the asset owed from the manager's own balance (the
 * protocol's repay): that balance and the debt fall together. A balance short of it stands for
 * the asset brought in first, so the assets fall by the amount either way.
 */
export function afterRepay(h: Holdings, amount: number): Holdings {
  return h.debtBase > 0 && h.debtQuote <= 0
    ? { ...h, base: h.base - amount, debtBase: Math.max(0, h.debtBase - amount) }
    : { ...h, quote: h.quote - amount, debtQuote: Math.max(0, h.debtQuote - amount) };
}

/** What a liquidation does at prices `p` (the protocol's rule; docs/valuation.md "Liquidation"). */
export interface LiquidationOutcome {
  /** Debt repaid by the liquidator, in USD. */
  repaid_usd: number;
  /** The liquidator's and the pool's rewards, in USD (what the owner loses beyond the repaid debt). */
  liquidator_reward_usd: number;
  pool_reward_usd: number;
  /** Debt the pool absorbs when the assets do not cover it (then everything is seized). */
  defaulted_usd: number;
  /** Assets taken, in USD (repaid debt plus the rewards). */
  seized_usd: number;
  equity_before_usd: number;
  equity_after_usd: number;
  assets_after_usd: number;
  debt_after_usd: number;
}

/**
 * The protocol's liquidation at prices `p`: the liquidator repays enough debt that the ratio
 * comes back to the pool's target, taking that debt plus the rewards (1 % + 4 % by default) in
 * assets: repay = (T D - A) / (T - (1 + rewards)), at most the debt. A position whose assets do
 * not cover its debt plus rewards is seized whole and the pool absorbs the rest.
 */
export function liquidationAt(h: Holdings, p: PricePair, params: LiquidationParams): LiquidationOutcome | null {
  const v = valueAt(h, p);
  if (v.ratio === null) return null;
  const bonus = 1 + params.user_reward + params.pool_reward;
  let repaid: number;
  let defaulted = 0;
  if (v.assets < v.debt * bonus) {
    repaid = v.assets / bonus;
    defaulted = v.debt - repaid;
  } else {
    repaid = Math.max(
      0,
      Math.min(v.debt, (params.target_liquidation * v.debt - v.assets) / (params.target_liquidation - bonus)),
    );
  }
  const seized = defaulted > 0 ? v.assets : repaid * bonus;
  const assetsAfter = v.assets - seized;
  const debtAfter = defaulted > 0 ? 0 : v.debt - repaid;
  return {
    repaid_usd: repaid,
    liquidator_reward_usd: repaid * params.user_reward,
    pool_reward_usd: repaid * params.pool_reward,
    defaulted_usd: defaulted,
    seized_usd: seized,
    equity_before_usd: v.equity,
    equity_after_usd: assetsAfter - debtAfter,
    assets_after_usd: assetsAfter,
    debt_after_usd: debtAfter,
  };
}
