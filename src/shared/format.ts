/**
 * Number formatting that the page and the monitor share: how many decimals a price is shown
 * with, and the text of it in a given locale. The renderer's `format.ts` adds what only the page
 * knows (the user's locale, privacy mode, '–' for a missing figure); the core writes its alerts
 * and messages in `en-US`. A rule written here once reads the same on screen, in an alert and in
 * a message.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * An `Intl.NumberFormat`, built once per locale and options: `toLocaleString(locale, opts)`
 * builds a new one on every call (tens of microseconds), and a busy pool formats thousands of
 * numbers a second (the ladder, the tape, chart labels). Same output, made once.
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/**
 * The decimals a USD price is shown with: two from $1,000 ($97,250.00), four from $1 ($3.8017),
 * four significant digits below ($0.1138, $0.00004321), at most eight. By the price's size, so a
 * negative one reads like its opposite.
 */
export function usdPriceDigits(value: number): number {
  const abs = Math.abs(value);
  if (abs >= 1000) return 2;
  if (abs >= 1 || abs === 0) return 4;
  return Math.min(8, 3 - Math.floor(Math.log10(abs)));
}

/**
 * A USD price with `usdPriceDigits`, trailing zeros dropped down to cents: "$97,250.00",
 * "$3.0712", "$3.38", "$0.03412".
 */
export function usdPriceText(value: number, locale: string): string {
  const digits = usdPriceDigits(value);
  return `$${numberFormat(locale, { minimumFractionDigits: Math.min(2, digits), maximumFractionDigits: digits }).format(value)}`;
}

/**
 * A pool price in its quote asset with exactly `decimals` decimals, trailing zeros kept, so a
 * column of prices lines up: "3.3800" with a 0.0001 tick (`tickDecimals` in units.ts gives a
 * pool's; a mid between two ticks takes one more).
 */
export function poolPriceText(value: number, decimals: number, locale: string): string {
  return numberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}
