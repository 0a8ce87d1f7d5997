import { DEFAULT_LIQUIDATION_RATIO } from '../../../shared/portfolio';

/**
 * The price that liquidates a margin manager: the base asset's USD price at which its risk
 * ratio (assets / debt, in USD) reaches the liquidation ratio, with the quote asset's price held.
 *
 *   (b*P + q*Pq) / (db*P + dq*Pq) = L   =>   P = Pq * (L*dq - q) / (b - L*db)
 *
 * b, q: base and quote held; db, dq: base and quote owed (human units); Pq: the quote's USD
 * price. A long (debt in quote) is liquidated by a fall to P, a short (debt in base) by a rise.
 */
/** The protocol's default; a pool's own comes with its risk parameters (risk-params.ts). */
export const LIQUIDATION_RATIO = DEFAULT_LIQUIDATION_RATIO;

export interface Holdings {
  base: number;
  quote: number;
  quotePrice: number;
  debtBase: number;
  debtQuote: number;
}

/** Assets / debt at base price `basePrice`; null without debt. */
export function riskRatioAt(h: Holdings, basePrice: number): number | null {
  const debt = h.debtBase * basePrice + h.debtQuote * h.quotePrice;
  return debt > 0 ? (h.base * basePrice + h.quote * h.quotePrice) / debt : null;
}

/** Null when no positive price gets there (no debt, or the ratio does not depend on the base price). */
export function liquidationBasePrice(h: Holdings, threshold = LIQUIDATION_RATIO): number | null {
  if (h.debtBase <= 0 && h.debtQuote <= 0) return null;
  const denom = h.base - threshold * h.debtBase;
  if (Math.abs(denom) < 1e-12) return null;
  const price = (h.quotePrice * (threshold * h.debtQuote - h.quote)) / denom;
  return price > 0 && Number.isFinite(price) ? price : null;
}

/** The move from `basePrice` to the liquidation price, in percent (negative: a fall liquidates). */
export function distanceToLiquidationPct(h: Holdings, basePrice: number, threshold = LIQUIDATION_RATIO): number | null {
  const liq = liquidationBasePrice(h, threshold);
  return liq === null || !(basePrice > 0) ? null : (liq / basePrice - 1) * 100;
}
