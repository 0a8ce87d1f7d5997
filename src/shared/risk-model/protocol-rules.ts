import { clearOf } from './levels';
import { ceilAt } from './safe-round';
import { sideOf, valueAt, type Holdings, type PricePair } from './valuation';

/**
 * What the protocol lets a manager do at its ratio (docs/valuation.md "The danger band"). A
 * borrow is refused when the ratio after it would be below the pool's `min_borrow_risk_ratio`,
 * a withdrawal when below `min_withdraw_risk_ratio`. Above a ratio of 1 a borrow lowers the ratio
 * ((A + x) / (D + x) < A / D) and a withdrawal always does, so below either minimum every such
 * trade is refused, whatever its size; a deposit, a repayment and a close that repays are not.
 */

/** The pool's ratios the protocol checks a manager's trades against. */
export interface ProtocolRatios {
  liquidation: number;
  min_borrow: number;
  min_withdraw: number;
}

/**
 * Where a ratio stands: `free` (borrows and withdrawals allowed), `no-withdraw` (at or above the
 * minimum borrow ratio, below the minimum withdraw ratio), `danger` (below the minimum borrow
 * ratio, above the liquidation ratio), `liquidatable` (at or below the liquidation ratio).
 */
export type ProtocolBand = 'free' | 'no-withdraw' | 'danger' | 'liquidatable';

export interface AllowedActions {
  band: ProtocolBand;
  /** A deposit is always allowed. */
  deposit: true;
  /** A repayment (or a reduce-only close, which repays): allowed with debt. */
  repay: boolean;
  /** A new borrow: refused below the minimum borrow ratio. */
  borrow: boolean;
  /** A withdrawal: refused below the minimum withdraw ratio. */
  withdraw: boolean;
}

/**
 * What the protocol allows at `ratio` (null: no debt, so nothing is checked). At the minimum
 * itself a borrow or withdrawal of nothing passes, and any amount fails: the rule is `>=`.
 */
export function actionsAt(ratio: number | null, r: ProtocolRatios): AllowedActions {
  if (ratio === null) return { band: 'free', deposit: true, repay: false, borrow: true, withdraw: true };
  const borrow = ratio >= r.min_borrow;
  const withdraw = ratio >= r.min_withdraw;
  const band: ProtocolBand =
    ratio <= r.liquidation ? 'liquidatable' : !borrow ? 'danger' : !withdraw ? 'no-withdraw' : 'free';
  return { band, deposit: true, repay: true, borrow, withdraw };
}

/**
 * The ratio a repair aims at by default, in the alert and on the page alike (docs/valuation.md):
 * where the warning clears (`clearOf`), and, in the danger band (below the pool's minimum borrow
 * ratio), out of it where that is higher, so trades the protocol refuses are allowed again.
 */
export function repairAim(ratio: number | null, warning: number, r: ProtocolRatios): number {
  const clear = clearOf(warning);
  const inBand = ratio !== null && !actionsAt(ratio, r).borrow && r.min_borrow > r.liquidation;
  return inBand ? Math.max(clear, r.min_borrow) : clear;
}

/**
 * A reduce-only close that repays: a long (owing the quote) sells base for quote and repays
 * quote; a short (owing the base) buys base with quote and repays base. At the current prices,
 * fees and slippage aside, the assets and the debt fall together by the trade's value s P, so
 * (A - s P) / (D - s P) = T  =>  s = (T D - A) / ((T - 1) P), in base units.
 */
export interface ReduceOnlyClose {
  /** `sell` base (a long), `buy` base (a short). */
  trade: 'sell' | 'buy';
  /** Base units traded: `exact` reaches the target; `amount` is rounded up at `digits` (capped by `reaches`). */
  exact: number;
  amount: number;
  /** The quote received (sell) or paid (buy) for `amount` at the current prices, and the trade's USD value. */
  quote: number;
  usd: number;
  /** The ratio after trading `amount` and repaying with it (null: the debt is gone). */
  ratio_after: number | null;
  /**
   * False when the whole reduce-only trade (all the base a long holds beyond what it owes, or all
   * the quote a short holds, or the whole debt) falls short of the target: `amount` is then that
   * whole trade and `ratio_after` what it reaches.
   */
  reaches: boolean;
}

/**
 * The reduce-only close that brings the ratio to `target`, rounded up at `digits` (the decimals
 * the base amount is shown with). Null when there is nothing to do (no debt, at or above the
 * target), when a trade that repays cannot raise the ratio (at or below 1: it lowers both sides
 * by the same sum), or when the debt is not in the asset the trade repays (a long owing the base
 * repays from its base balance, which `repayFor` gives).
 */
export function reduceOnlyCloseFor(h: Holdings, p: PricePair, target: number, digits: number): ReduceOnlyClose | null {
  const v = valueAt(h, p);
  if (v.ratio === null || v.ratio >= target || v.ratio <= 1 || !(target > 1)) return null;
  const side = sideOf(h);
  const owesQuote = h.debtQuote > 0 && h.debtBase <= 0;
  const owesBase = h.debtBase > 0 && h.debtQuote <= 0;
  const kind = side === 'long' && owesQuote ? 'sell' : side === 'short' && owesBase ? 'buy' : null;
  if (kind === null) return null;
  const cross = p.base / p.quote;
  // Reduce-only: never past the position's size, never more than the debt, never more than held.
  const cap =
    kind === 'sell'
      ? Math.min(h.base - h.debtBase, h.debtQuote / cross)
      : Math.min(h.debtBase - h.base, h.debtBase, h.quote / cross);
  const exact = (target * v.debt - v.assets) / ((target - 1) * p.base);
  const reaches = exact <= cap;
  const amount = reaches ? Math.min(cap, ceilAt(exact, digits)) : Math.max(0, cap);
  return {
    trade: kind,
    exact,
    amount,
    quote: amount * cross,
    usd: amount * p.base,
    ratio_after: valueAt(afterReduceOnlyClose(h, p, amount), p).ratio,
    reaches,
  };
}

/**
 * The holdings after a reduce-only close of `amount` base at prices `p`: a long (owing the quote)
 * sells it and repays the quote it fetched; a short (owing the base) buys it with quote and repays it.
 */
export function afterReduceOnlyClose(h: Holdings, p: PricePair, amount: number): Holdings {
  const quote = (amount * p.base) / p.quote;
  return h.debtBase > 0 && h.debtQuote <= 0
    ? { ...h, quote: h.quote - quote, debtBase: Math.max(0, h.debtBase - amount) }
    : { ...h, base: h.base - amount, debtQuote: Math.max(0, h.debtQuote - quote) };
}
