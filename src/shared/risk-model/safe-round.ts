import { amountDigits } from '../format';
import { ceilAt, floorAt, towardZeroAt } from '../rounding';

/**
 * Rounding toward safety (docs/valuation.md "Advice that is safe to follow"): a figure a trader
 * acts on is rounded so that doing exactly what it says reaches the target, and a figure that
 * warns is rounded so that the danger shows no later than it comes.
 *
 * - An amount to deposit or repay rounds up, at the digits it is shown with.
 * - A liquidation price rounds toward the price now (a long's up, a short's down): the shown
 *   price is reached before the true one.
 * - A distance to liquidation rounds toward zero: never farther than it is.
 */

export { ceilAt, floorAt, towardZeroAt } from '../rounding';

/**
 * The decimals an amount to bring is shown with: its asset's, as every amount of it is
 * (format.ts `amountDigits`: "1,240.51 USDC", "70.7072 SUI"), never more than the asset has.
 */
export function adviceDigits(symbol: string, assetDecimals: number): number {
  return Math.max(0, Math.min(assetDecimals, amountDigits(symbol)));
}

/** An amount to deposit or repay as shown: rounded up at the digits it is shown with (`adviceDigits`). */
export function adviceAmount(x: number, symbol: string, assetDecimals: number): number {
  if (!(x > 0)) return x;
  return ceilAt(x, adviceDigits(symbol, assetDecimals));
}

/**
 * A liquidation price as shown: rounded at the `digits` it is written with (its pool's tick's:
 * units.ts `usdTickDecimals`) toward the price now, so it is met no later than the true one (a
 * long's rounds up, a short's down): $0.196534 on WAL_USDC's 0.00001 tick is "$0.19654" for a
 * long, "$0.19653" for a short.
 */
export function liquidationPriceShown(liquidation: number, now: number | null, digits: number): number {
  if (now === null) return liquidation;
  return liquidation < now ? ceilAt(liquidation, digits) : floorAt(liquidation, digits);
}

/**
 * A distance to liquidation (percent, negative for a fall) as shown: toward zero at `digits`; a
 * distance that rounds to nothing is 0, never −0 (a price within a tick of its liquidation price
 * on a coarse tick: $0.0100 on SUI_USDC's 0.0001).
 */
export function distanceShown(pct: number, digits = 1): number {
  return towardZeroAt(pct, digits) || 0;
}

/**
 * What an advice aims at beyond its target ratio: 0.05 % more. A trader checks it with the figures
 * on screen (assets in whole dollars or cents, a debt to the cent), which differ from the exact
 * ones by up to about that much; the cushion keeps that check above the target too.
 */
export const ADVICE_CUSHION = 5e-4;

/** The ratio an advice to reach `target` is computed for (`ADVICE_CUSHION` above it). */
export const adviceTarget = (target: number): number => target * (1 + ADVICE_CUSHION);
