/**
 * Rounding at a number of decimals, up, down or toward zero, with a hair of tolerance for float
 * dust. The risk model rounds its advice and warnings with these (risk-model/safe-round.ts) and
 * the format module writes a distance with them (format.ts), so both round alike.
 */

/**
 * A hair of float error: x units that are an integer within it stay that integer (30.4 computed
 * as 30.400000000000002 is 30.4, not 30.41). A billionth of the last digit: under 1e-12 of any
 * amount shown with four significant digits or more.
 */
const EPSILON = 1e-9;

export const ceilAt = (x: number, digits: number): number => {
  const unit = 10 ** digits;
  return Math.ceil(x * unit - EPSILON) / unit;
};

export const floorAt = (x: number, digits: number): number => {
  const unit = 10 ** digits;
  return Math.floor(x * unit + EPSILON) / unit;
};

export const towardZeroAt = (x: number, digits: number): number => (x < 0 ? -floorAt(-x, digits) : floorAt(x, digits));
