import { valueAt, type Holdings, type PricePair } from './valuation';

/**
 * A margin pool's borrow rate: a kinked line in its utilization (borrowed / supplied), as the
 * protocol defines it (docs/valuation.md "Interest"):
 *   u < optimal:  base_rate + u x base_slope
 *   otherwise:    base_rate + optimal x base_slope + (u - optimal) x excess_slope
 */
export interface InterestCurve {
  base_rate: number;
  base_slope: number;
  optimal_utilization: number;
  excess_slope: number;
}

export const YEAR_MS = 365 * 86_400_000;
export const DAY_MS = 86_400_000;

/** The borrow APR (a fraction a year) at utilization `u` (0 … 1). */
export function borrowApr(c: InterestCurve, u: number): number {
  const util = Math.min(1, Math.max(0, u));
  if (util < c.optimal_utilization) return c.base_rate + util * c.base_slope;
  return c.base_rate + c.optimal_utilization * c.base_slope + (util - c.optimal_utilization) * c.excess_slope;
}

/** Whether utilization `u` is past the curve's kink (its optimal utilization), where the rate climbs steeply. */
export const pastKink = (c: InterestCurve, u: number): boolean => u > c.optimal_utilization;

/**
 * The supply APR at utilization `u`: the borrowers' interest spread over what is supplied, less
 * the protocol's share (`spread`, 0 … 1).
 */
export function supplyApr(c: InterestCurve, u: number, spread: number): number {
  const util = Math.min(1, Math.max(0, u));
  return borrowApr(c, util) * util * (1 - Math.min(1, Math.max(0, spread)));
}

/** A debt after `ms` of accrual at `apr` (the pool compounds at every change: continuously, near enough). */
export function accrue(debt: number, apr: number, ms: number): number {
  return debt * Math.exp((apr * ms) / YEAR_MS);
}

/** The APR a borrow index grew at: from `from` to `to` over `ms`. */
export function aprFromIndex(from: number, to: number, ms: number): number | null {
  if (!(from > 0) || !(to > 0) || !(ms > 0)) return null;
  return (Math.log(to / from) * YEAR_MS) / ms;
}

/** The borrow APRs of a position's debts (null: not known, taken as 0 for a projection). */
export interface DebtRates {
  base: number | null;
  quote: number | null;
}

/** The holdings `ms` ahead with only interest at work (prices, assets and rates held). */
export function accrued(h: Holdings, rates: DebtRates, ms: number): Holdings {
  return {
    ...h,
    debtBase: accrue(h.debtBase, rates.base ?? 0, ms),
    debtQuote: accrue(h.debtQuote, rates.quote ?? 0, ms),
  };
}

/** The ratio `ms` ahead at today's prices, its debt accruing. */
export function ratioAfter(h: Holdings, p: PricePair, rates: DebtRates, ms: number): number | null {
  return valueAt(accrued(h, rates, ms), p).ratio;
}

/**
 * When interest alone brings the ratio to `liquidation` at today's prices, in ms from now; null
 * when not within `horizonMs` (a year by default) or the position has no debt; 0 when it is
 * already there. The ratio falls monotonically with time, so a bisection finds it.
 */
export function timeToLiquidationByInterest(
  h: Holdings,
  p: PricePair,
  rates: DebtRates,
  liquidation: number,
  horizonMs = YEAR_MS,
): number | null {
  const now = valueAt(h, p).ratio;
  if (now === null) return null;
  if (now <= liquidation) return 0;
  const at = (ms: number): number => ratioAfter(h, p, rates, ms) ?? Infinity;
  if (at(horizonMs) > liquidation) return null;
  let lo = 0;
  let hi = horizonMs;
  for (let i = 0; i < 60 && hi - lo > 60_000; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) > liquidation) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The ratio at each of `days` ahead (a dashed continuation of the risk history). */
export function projectRatio(
  h: Holdings,
  p: PricePair,
  rates: DebtRates,
  startMs: number,
  days: readonly number[],
): Array<{ ts_ms: number; ratio: number | null }> {
  return days.map((d) => ({ ts_ms: startMs + d * DAY_MS, ratio: ratioAfter(h, p, rates, d * DAY_MS) }));
}
