/**
 * Distance to liquidation: the percentage move of the base asset's price that brings a
 * manager's risk ratio (assets / debt, in USD) down to the liquidation threshold.
 *
 *   debt in quote:  (b*Pb*(1+x) + q*Pq) / D = L        =>  x = (L*D - q*Pq) / (b*Pb) - 1
 *   debt in base:   (b*Pb*(1+x) + q*Pq) / (d*Pb*(1+x)) = L
 *                                                       =>  1+x = q*Pq / ((L*d - b) * Pb)
 * Amounts are human units, prices USD per unit. Negative: the price must fall; positive: rise.
 */
export interface Position {
  base: number;
  quote: number;
  basePrice: number;
  quotePrice: number;
  debt: number;
  debtSide: 'base' | 'quote';
}

export const LIQUIDATION_RATIO = 1.125;

export function riskRatioOf(p: Position): number | null {
  const debtUsd = p.debt * (p.debtSide === 'base' ? p.basePrice : p.quotePrice);
  if (debtUsd <= 0) return null;
  return (p.base * p.basePrice + p.quote * p.quotePrice) / debtUsd;
}

/**
 * The base price at which the position shows `ratio` (the service's current risk ratio), so
 * the distance is measured from today's price, not from the oracle price of the last deposit.
 * Null when the ratio does not depend on the base price.
 */
export function impliedBasePrice(p: Position, ratio: number): number | null {
  if (p.debt <= 0) return null;
  let price: number;
  if (p.debtSide === 'quote') {
    if (p.base <= 0) return null;
    price = (ratio * p.debt * p.quotePrice - p.quote * p.quotePrice) / p.base;
  } else {
    const denom = ratio * p.debt - p.base;
    if (denom <= 0) return null;
    price = (p.quote * p.quotePrice) / denom;
  }
  return price > 0 && Number.isFinite(price) ? price : null;
}

/** In percent; null when no move of the base price can reach the threshold. */
export function distanceToLiquidationPct(p: Position, threshold = LIQUIDATION_RATIO): number | null {
  if (p.debt <= 0 || p.basePrice <= 0) return null;
  let onePlusX: number;
  if (p.debtSide === 'quote') {
    if (p.base <= 0) return null;
    onePlusX = (threshold * p.debt * p.quotePrice - p.quote * p.quotePrice) / (p.base * p.basePrice);
  } else {
    const denom = (threshold * p.debt - p.base) * p.basePrice;
    if (denom <= 0) return null;
    onePlusX = (p.quote * p.quotePrice) / denom;
  }
  if (!(onePlusX > 0) || !Number.isFinite(onePlusX)) return null;
  return (onePlusX - 1) * 100;
}
