/**
 * A margin position valued at one price set (docs/valuation.md). Pure functions: the core values
 * every position with them, the renderer shocks and repairs with the same ones.
 *
 * Notation: b, q are the base and quote held; db, dq the base and quote owed (human units);
 * P and Pq the base's and the quote's USD prices. Assets A = b P + q Pq, debt D = db P + dq Pq,
 * ratio R = A / D (the protocol's risk ratio), equity E = A - D, leverage A / E.
 */

/** What a manager holds and owes, in human units of each asset. */
export interface Holdings {
  base: number;
  quote: number;
  debtBase: number;
  debtQuote: number;
}

/** USD prices of a pool's two assets. */
export interface PricePair {
  base: number;
  quote: number;
}

export interface Valuation {
  assets: number;
  debt: number;
  equity: number;
  /** Assets / debt; null without debt. */
  ratio: number | null;
  /** Assets / equity; null when equity is not positive. */
  leverage: number | null;
}

export function valueAt(h: Holdings, p: PricePair): Valuation {
  const assets = h.base * p.base + h.quote * p.quote;
  const debt = h.debtBase * p.base + h.debtQuote * p.quote;
  const equity = assets - debt;
  return {
    assets,
    debt,
    equity,
    ratio: debt > 0 ? assets / debt : null,
    leverage: equity > 0 ? assets / equity : null,
  };
}

/** Whether the position owes anything. */
export const hasDebt = (h: Holdings): boolean => h.debtBase > 0 || h.debtQuote > 0;

/**
 * The base price, in units of the quote (c = P / Pq), at which the position's ratio is `ratio`:
 * R (db c + dq) = b c + q, so c = (q - R dq) / (R db - b). Only the cross rate is fixed by a
 * ratio (assets and debt scale together with the quote's price). Null when no positive c gives it.
 */
export function impliedCross(h: Holdings, ratio: number): number | null {
  const denom = ratio * h.debtBase - h.base;
  if (Math.abs(denom) < 1e-12) return null;
  const c = (h.quote - ratio * h.debtQuote) / denom;
  return c > 0 && Number.isFinite(c) ? c : null;
}

/**
 * How strongly the ratio answers the cross rate at c (d ln R / d ln c): 1 for a long holding
 * only base against quote debt, about 0 for a position whose assets and debt are the same asset.
 * A ratio says little about the price where this is near 0.
 */
export function crossSensitivity(h: Holdings, c: number): number {
  const a = h.base * c + h.quote;
  const d = h.debtBase * c + h.debtQuote;
  if (!(a > 0) || !(d > 0)) return 0;
  return (h.base * c) / a - (h.debtBase * c) / d;
}

/**
 * The base's USD price at which the ratio reaches `threshold`, the quote's price held:
 * (b P + q Pq) / (db P + dq Pq) = L  =>  P = Pq (L dq - q) / (b - L db).
 * A long (debt in quote) is liquidated by a fall to it, a short (debt in base) by a rise.
 * Null when no positive price gets there.
 */
export function priceAtRatio(h: Holdings, quoteUsd: number, threshold: number): number | null {
  if (!hasDebt(h)) return null;
  const denom = h.base - threshold * h.debtBase;
  if (Math.abs(denom) < 1e-12) return null;
  const price = (quoteUsd * (threshold * h.debtQuote - h.quote)) / denom;
  return price > 0 && Number.isFinite(price) ? price : null;
}

/** The move from `baseUsd` to `target`, in percent (negative: a fall). */
export function movePct(baseUsd: number, target: number | null): number | null {
  return target === null || !(baseUsd > 0) ? null : (target / baseUsd - 1) * 100;
}

export type Side = 'long' | 'short';

/**
 * Long the base when the position gains as the base rises (it holds more base than it owes),
 * short when it gains as the base falls; null without debt (a plain deposit, not a trade).
 */
export function sideOf(h: Holdings): Side | null {
  if (!hasDebt(h)) return null;
  const size = sizeOf(h);
  if (size > 0) return 'long';
  if (size < 0) return 'short';
  return null;
}

/** The position's exposure to the base, in base units: held minus owed (negative: short). */
export const sizeOf = (h: Holdings): number => h.base - h.debtBase;

/**
 * Profit since opening: equity now minus what the owner put in net (deposits less withdrawals,
 * in USD at their time). With the quote's price held, equity moves as size x P, so the price at
 * which that profit is zero is P - PnL / size: a break-even price, not an entry. The service
 * sends no fills, so the price paid is never known; the break-even counts interest accrued and
 * what liquidations took, so it creeps with interest and moves at each liquidation
 * (docs/valuation.md#profit-since-opening-and-the-break-even-price).
 */
export function breakEvenOf(
  h: Holdings,
  p: PricePair,
  netDepositedUsd: number,
): { pnl: number; breakEven: number | null } {
  const pnl = valueAt(h, p).equity - netDepositedUsd;
  const size = sizeOf(h);
  const breakEven = Math.abs(size) > 1e-12 ? p.base - pnl / size : null;
  return {
    pnl,
    breakEven: breakEven !== null && breakEven > 0 && Number.isFinite(breakEven) ? breakEven : null,
  };
}
