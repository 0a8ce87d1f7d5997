import type { BookLevel } from './liquidation-map';
import type { ReduceOnlyClose } from './protocol-rules';
import { ceilAt } from './safe-round';
import { valueAt, type Holdings, type PricePair } from './valuation';

/**
 * The reduce-only close against the book (docs/valuation.md "The reduce-only close"): the same
 * trade as `reduceOnlyCloseFor`, filled level by level against the side of the book it takes
 * (a long sells into the bids, a short buys from the asks) instead of at the valuation's price,
 * so an amount followed as written reaches the target: at the oracle's price a thin book left
 * the ratio short of it.
 */

/** The quote `amount` base fetches (bids) or costs (asks), level by level, best first; null past the levels given. */
export function fillQuote(levels: readonly BookLevel[], amount: number): number | null {
  let left = amount;
  let quote = 0;
  for (const l of levels) {
    if (left <= 0) break;
    const take = Math.min(left, l.quantity);
    quote += take * l.price;
    left -= take;
  }
  return left > 1e-9 * Math.max(1, amount) ? null : quote;
}

export interface BookClose extends ReduceOnlyClose {
  /** The average fill (quote per base) of `amount`. */
  average: number;
  /** Base the levels given hold: the most this close can trade on them. */
  depth: number;
}

/**
 * The reduce-only close that brings the ratio to `target` filled against `levels` (bids for a
 * long, asks for a short: human units, best first), rounded up at `digits`; valued after the
 * trade at the valuation's prices `p`, as the protocol values it. Null where the oracle's close
 * is (`reduceOnlyCloseFor`: no debt, at or above the target, a ratio of 1 or below, a long owing
 * its base), or when the levels are empty.
 */
export function reduceOnlyCloseOnBook(
  h: Holdings,
  p: PricePair,
  target: number,
  digits: number,
  levels: readonly BookLevel[],
): BookClose | null {
  const v = valueAt(h, p);
  if (v.ratio === null || v.ratio >= target || v.ratio <= 1 || !(target > 1) || levels.length === 0) return null;
  const owesQuote = h.debtQuote > 0 && h.debtBase <= 0;
  const owesBase = h.debtBase > 0 && h.debtQuote <= 0;
  const long = h.base - h.debtBase > 0 && owesQuote;
  const short = h.debtBase - h.base > 0 && owesBase;
  if (!long && !short) return null;
  const depth = levels.reduce((a, l) => a + l.quantity, 0);
  // Reduce-only: never past the position's size, nor the debt; no further than the book shows.
  const cap = Math.min(long ? h.base - h.debtBase : h.debtBase - h.base, depth);
  /** The holdings after trading `s` base on the book and repaying with it; null when it cannot be done. */
  const after = (s: number): Holdings | null => {
    const q = fillQuote(levels, s);
    if (q === null) return null;
    if (long) {
      const repaid = Math.min(q, h.debtQuote);
      return { ...h, base: h.base - s, quote: h.quote + q - repaid, debtQuote: h.debtQuote - repaid };
    }
    if (q > h.quote) return null;
    const repaid = Math.min(s, h.debtBase);
    return { ...h, quote: h.quote - q, base: h.base + s - repaid, debtBase: h.debtBase - repaid };
  };
  const ratioAfter = (s: number): number | null => {
    const a = after(s);
    return a === null ? Number.NaN : valueAt(a, p).ratio;
  };
  const reached = (s: number): boolean => {
    const r = ratioAfter(s);
    return r === null || r >= target;
  };
  const result = (amount: number, exact: number, reaches: boolean): BookClose => {
    const quote = fillQuote(levels, amount) ?? 0;
    const r = ratioAfter(amount);
    return {
      trade: long ? 'sell' : 'buy',
      exact,
      amount,
      quote,
      usd: quote * p.quote,
      ratio_after: Number.isNaN(r) ? v.ratio : r,
      reaches,
      average: amount > 0 ? quote / amount : 0,
      depth,
    };
  };
  // The most that can be done: a short cannot pay more quote than it holds.
  let most = cap;
  if (Number.isNaN(ratioAfter(most))) {
    let lo = 0;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + most) / 2;
      if (Number.isNaN(ratioAfter(mid))) most = mid;
      else lo = mid;
    }
    most = lo;
  }
  if (!(most > 0)) return result(0, 0, false);
  // The most it may trade falls short: say how far that gets.
  if (!reached(most)) return result(most, most, false);
  // The least trade that reaches the target: `hi` reaches it throughout.
  let lo = 0;
  let hi = most;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (reached(mid)) hi = mid;
    else lo = mid;
  }
  // Rounded up at the decimals shown, and checked: the amount read reaches the target.
  const step = 10 ** -digits;
  let amount = Math.min(most, ceilAt(hi, digits));
  for (let k = 0; k < 5 && !reached(amount) && amount + step <= most; k++) amount = ceilAt(amount + step, digits);
  if (!reached(amount)) amount = hi;
  return result(amount, hi, true);
}
