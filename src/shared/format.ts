import { isStable } from './risk-model/stable';
import { ceilAt, towardZeroAt } from './rounding';
import { localZone, nextClock } from './zones';

/**
 * The one formatting module of the product: every number and time a person reads (the page, the
 * alerts and the messages of every channel, the command line, the exports) is written by these
 * rules, in a given locale. The rules, with examples: docs/formats.md.
 *
 * - A price keeps its precision with its trailing zeros: a pool's price the decimals of its tick
 *   ("3.3800"), and so do a position's USD price and an asset's in the Portfolio's list of prices
 *   ("$0.19650", "$108,757.4"); another USD price those of `usdPriceDigits` ("$0.1870",
 *   "$97,250.00").
 * - An amount of an asset keeps the asset's display precision (`amountDigits`: a stablecoin 2
 *   decimals, any other asset 4), the same in every view; its full value goes in a tooltip and
 *   in the exports.
 * - A percentage is the number, a narrow no-break space (U+202F) and "%": "22.79 %". A negative
 *   number, a percentage or not, takes the true minus sign U+2212 ("−2.4 %", "−$4,100.00"); a
 *   signed change takes "+" when it rises ("+1.8 %", "+$200.00").
 * - A borrow rate (APR) has `APR_DIGITS` decimals everywhere.
 * - Money is written in full ("$12,345", "$1,234.56"); compact ("$1.2M") only where the room is
 *   short (chart axes, tables of markets, the liquidation timeline), always by `usdCompactText`.
 * - A time is in the reader's time zone, and says which where it is read on its own: an alert's
 *   clock ("2:02 PM EST"), a tooltip's date and time, an export's ISO 8601 with its offset.
 *
 * The renderer's `format.ts` adds what only the page knows (the user's locale, privacy mode, '–'
 * for a missing figure); the core and the command line write in `CORE_LOCALE`.
 */

/** The locale the monitor writes its alerts, messages and command line output in. */
export const CORE_LOCALE = 'en-US';

/** The minus sign of every negative number shown (U+2212), never the hyphen-minus. */
export const MINUS = '\u2212';

/** What ends every percentage: a narrow no-break space (U+202F), so "22.79 %" never breaks before its sign. */
export const PERCENT = '\u202F%';

/** The decimals of a borrow rate, in every view and message: "22.79 %". */
export const APR_DIGITS = 2;

/** The decimals of a distance to liquidation, rounded toward zero (never farther than it is): "−4.9 %". */
export const DISTANCE_DIGITS = 1;

/** The most decimals an asset of the exchange has (SUI's 9): the full value of an amount in a tooltip. */
export const FULL_AMOUNT_DIGITS = 9;

/** Money from this many dollars is written in whole dollars ("$12,345"), below it to the cent ("$1,234.56"). */
export const USD_WHOLE_FROM = 10_000;

/**
 * The decimals of a position's own money (its PnL, equity, assets and debt), whatever its size, in
 * every view, alert and message: to the cent ("$18,331.07"), so the Portfolio's columns keep one
 * rule from row to row (never "$10,778" above "$8,317.62", issue 40) and the row, the manager page
 * and the alerts write the one figure alike.
 */
export const POSITION_USD_DIGITS = 2;

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

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** An `Intl.DateTimeFormat`, built once per locale and options (as `numberFormat`). */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/**
 * A number, or a decimal text (`formatUnits` of a raw amount) that Intl reads exactly: every digit
 * kept, beyond 2^53 too.
 */
export type Decimal = number | string;

/** The hyphen-minus a locale writes, made the true minus. */
const trueMinus = (text: string): string => text.replace('-', MINUS);

/**
 * A number with exactly `digits` decimals, trailing zeros kept, grouped in the locale's way, its
 * minus the true one; `signed` writes "+" before a positive one. A figure that rounds to zero
 * has no sign ("0.0", never "−0.0").
 */
export function decimalText(value: Decimal, digits: number, locale: string, signed = false): string {
  const f = keyed(decimalFormats, `${locale}\u0000${digits}\u0000${signed ? '+' : ''}`, () =>
    numberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: signed ? 'exceptZero' : 'negative',
    }),
  );
  return trueMinus(f.format(value as number | `${number}`));
}

/**
 * The most called formatters (every figure and time of every row, on each valuation) keep their
 * own short keys: `numberFormat`'s JSON key was a third of a desk's formatting per push.
 */
const decimalFormats = new Map<string, Intl.NumberFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const clockFormats = new Map<string, Intl.DateTimeFormat>();
function keyed<F>(cache: Map<string, F>, key: string, make: () => F): F {
  let f = cache.get(key);
  if (f === undefined) cache.set(key, (f = make()));
  return f;
}

/**
 * An address or an object's id, shortened in the one form of the product, in every view, alert,
 * message and command: its "0x" and first six digits, "…", its last four ("0x1763a7…d999"); one
 * of 14 characters or fewer in full. Never "0x0424ac76…" or "0x1763a75696" beside it (issue 40).
 */
export function shortIdText(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}\u2026${id.slice(-4)}` : id;
}

/** A count, whole and grouped: "12,400". */
export function countText(value: number, locale: string): string {
  return decimalText(Math.round(value), 0, locale);
}

/**
 * The decimals a USD price is shown with where no pool's tick says them (a quote asset's beside a
 * position, an asset no pool prices): two from $1,000 ($97,250.00), four from $1 ($3.8017), four
 * significant digits below ($0.1138, $0.00004321), at most eight. By the price's size, so a
 * negative one reads like its opposite. A position's prices (its mark, liquidation and break-even
 * prices) take its pool's tick instead (`PositionSummary.price_decimals`, units.ts
 * `usdTickDecimals`), as the pool's page writes them, and so does an asset's price in the
 * Portfolio's list (`ListedPrice.price_decimals`).
 */
export function usdPriceDigits(value: number): number {
  const abs = Math.abs(value);
  if (abs >= 1000) return 2;
  if (abs >= 1 || abs === 0) return 4;
  return Math.min(8, 3 - Math.floor(Math.log10(abs)));
}

/** "$" and the digits of `abs` (already formatted), the true minus before a negative figure that is not zero. */
function dollars(value: number, digitsText: string, plus = false): string {
  const zero = !/[1-9]/.test(digitsText);
  const sign = zero ? '' : value < 0 ? MINUS : plus && value > 0 ? '+' : '';
  return `${sign}$${digitsText}`;
}

/**
 * A USD price, trailing zeros kept: with `digits` where a pool's tick gives them (a position's
 * prices: "$0.19650" on WAL_USDC's 0.00001 tick, "$108,757.4" on XBTC_USDC's 0.1), else with
 * `usdPriceDigits` ("$97,250.00", "$3.3800", "$0.1870", "$0.03412").
 */
export function usdPriceText(value: number, locale: string, digits?: number | null): string {
  return dollars(value, decimalText(Math.abs(value), digits ?? usdPriceDigits(value), locale));
}

/**
 * A pool price in its quote asset with exactly `decimals` decimals, trailing zeros kept, so a
 * column of prices lines up: "3.3800" with a 0.0001 tick (`tickDecimals` in units.ts gives a
 * pool's; a mid between two ticks takes one more).
 */
export function poolPriceText(value: number, decimals: number, locale: string): string {
  return decimalText(value, decimals, locale);
}

/**
 * The decimals of a pool's mid (halfway between its best bid and ask) in its quote asset: its
 * tick's where it lies on a tick ("3.3022" on SUI_USDC's 0.0001, "109,693.8" on XBTC_USDC's 0.1),
 * one more only where it lies between two, a spread of an odd number of ticks ("3.38055"): never
 * a zero no tick has ("3.30220"). The Markets table, the pool's header, its ladder and its depth
 * chart write one mid alike.
 */
export function midPriceDigits(mid: number, tickDigits: number): number {
  const scaled = Math.abs(mid) * 10 ** tickDigits;
  return Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, scaled) ? tickDigits : tickDigits + 1;
}

/** The decimals an amount of money is written with: cents below `USD_WHOLE_FROM`, whole dollars from it. */
export function usdDigits(value: number): number {
  return Math.abs(value) >= USD_WHOLE_FROM ? 0 : 2;
}

/**
 * The decimals of a column of money (a table's column, or one cell's figures that line up with
 * it): one rule for the whole column, by its largest figure, so a column never reads "$19,466"
 * above "$2,778.82": to the cent while every figure is below `USD_WHOLE_FROM`, whole dollars
 * once one reaches it ("$19,466" above "$2,779").
 */
export function usdColumnDigits(values: Iterable<number | null | undefined>): number {
  let largest = 0;
  for (const v of values)
    if (v !== null && v !== undefined && Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
  return usdDigits(largest);
}

/**
 * An amount of money in USD, in full: "$1,234.56", "$12,345", "−$4,100.00"; `digits` as its
 * column's (`usdColumnDigits`) in a table.
 */
export function usdText(value: number, locale: string, digits = usdDigits(value)): string {
  return dollars(value, decimalText(Math.abs(value), digits, locale));
}

/** A change of money, signed: "+$1,234.00", "−$4,100.00", "$0.00"; `digits` as `usdText`'s. */
export function signedUsdText(value: number, locale: string, digits = usdDigits(value)): string {
  return dollars(value, decimalText(Math.abs(value), digits, locale), true);
}

/** Money where the room is short (chart axes, tables of markets): "$1.2M", "$12K", "$532". */
export function usdCompactText(value: number, locale: string): string {
  return dollars(value, numberFormat(locale, { notation: 'compact' }).format(Math.abs(value)));
}

/** A count where the room is short (volumes on a chart axis): "1.2M", "12K", "532". */
export function compactText(value: number, locale: string): string {
  return trueMinus(numberFormat(locale, { notation: 'compact', signDisplay: 'negative' }).format(value));
}

/**
 * The decimals every amount of an asset is shown with, in every view, alert and message: a
 * stablecoin's to the cent (2: "1,240.51 USDC"), any other asset's 4 ("3,757.2372 SUI",
 * "0.1523 XBTC"). By the symbol alone, so a view that does not know the asset's decimals writes
 * it as one that does. The full value goes in a tooltip (`amountFullText`) and in the exports.
 */
export function amountDigits(symbol: string | null | undefined): number {
  return symbol && isStable(symbol) ? 2 : 4;
}

/**
 * An amount of an asset at its display precision, with its symbol: "3,757.2372 SUI"; a decimal
 * text (a raw amount in units: `formatUnits`) is rounded exactly, whatever its size. Without a
 * symbol, the number alone.
 */
export function amountText(value: Decimal, symbol: string | null | undefined, locale: string): string {
  const n = decimalText(value, amountDigits(symbol), locale);
  return symbol ? `${n} ${symbol}` : n;
}

/**
 * Whether an amount that is not zero reads as zero at its asset's display precision: 0.0000178
 * XBTC is "0.0000 XBTC". Such an amount is written in money, or as under the least one shown
 * (`amountBoundText`), never as a zero beside "≤" (issue 40: "≤ 0.0000 XBTC ($1.73)").
 */
export function amountReadsZero(value: Decimal, symbol: string | null | undefined): boolean {
  const n = Math.abs(Number(value));
  return n > 0 && n < 0.5 * 10 ** -amountDigits(symbol);
}

/**
 * An amount as a bound ("at most" it): at its display precision, or, where that reads zero,
 * "< " and the least amount shown ("< 0.0001 XBTC"), never "≤ 0.0000 XBTC".
 */
export function amountBoundText(value: Decimal, symbol: string | null | undefined, locale: string): string {
  if (!amountReadsZero(value, symbol)) return `\u2264 ${amountText(value, symbol, locale)}`;
  const digits = amountDigits(symbol);
  return `< ${amountText(10 ** -digits, symbol, locale)}`;
}

/**
 * An amount at its display precision, or, where it reads zero there (`amountReadsZero`) and its
 * money is known, that money with `usdDigits` ("$1.35", never "0.0000 XBTC ($1.35)"): the rule of
 * the page's "≤ $1.73", for the alerts, the digest and the messages. `money` tells which it wrote.
 */
export function amountOrMoneyText(
  value: Decimal,
  symbol: string | null | undefined,
  usd: number | null,
  locale: string,
  usdDigits?: number,
): { text: string; money: boolean } {
  if (usd !== null && amountReadsZero(value, symbol)) return { text: usdText(usd, locale, usdDigits), money: true };
  return { text: amountText(value, symbol, locale), money: false };
}

/**
 * Whether money beside amounts of these assets tells the reader anything: not where every one is
 * a stablecoin's, counted at $1.00 (the stablecoin rule, `isStable`), whose money only repeats
 * its amount ("584.16 USDC ($584.16)"). The total of a position's debts in USDC is not written
 * beside them; one that owes SUI too is.
 */
export function worthTells(symbols: Iterable<string | null | undefined>): boolean {
  for (const s of symbols) if (!s || !isStable(s)) return true;
  return false;
}

/**
 * An amount and its value in money, the one way every view, alert and message writes the two:
 * the amount at its display precision and its money after it, "70.7072 SUI ($238.99)"; a
 * stablecoin's amount once, its money being the amount ("584.16 USDC", never "584.16 USDC
 * ($584.16)": `worthTells`); where the amount reads zero at its precision and its money is known,
 * the money alone ("$1.35", `amountOrMoneyText`). `bound`: an amount known as "at most" it
 * ("≤ 20.52 USDC", "≤ 1.2345 SUI ($4.12)", "≤ $1.73", "< 0.0001 XBTC"); `usdDigits` as `usdText`'s.
 */
export function amountWorthText(
  value: Decimal,
  symbol: string | null | undefined,
  usd: number | null,
  locale: string,
  o: { usdDigits?: number; bound?: boolean } = {},
): string {
  const money = usd === null ? null : usdText(usd, locale, o.usdDigits);
  if (money !== null && amountReadsZero(value, symbol)) return o.bound ? `\u2264 ${money}` : money;
  const a = o.bound ? amountBoundText(value, symbol, locale) : amountText(value, symbol, locale);
  return money === null || !worthTells([symbol]) ? a : `${a} (${money})`;
}

/**
 * The money of an amount to bring (a deposit, a repayment), to the cent and rounded up there as
 * the amount itself is (safe-round.ts `adviceAmount`): "252.7440 WAL ($56.77)" beside "56.77
 * USDC", never a cent under what the other option asks.
 */
export function bringUsd(usd: number): number {
  return ceilAt(usd, 2);
}

/** An amount in full, for its tooltip: every decimal of a raw amount's text, up to `FULL_AMOUNT_DIGITS` of a number. */
export function amountFullText(value: Decimal, symbol: string | null | undefined, locale: string): string {
  const fraction = typeof value === 'string' ? (value.split('.')[1]?.length ?? 0) : FULL_AMOUNT_DIGITS;
  const n = trueMinus(
    numberFormat(locale, { maximumFractionDigits: fraction, signDisplay: 'negative' }).format(
      value as number | `${number}`,
    ),
  );
  return symbol ? `${n} ${symbol}` : n;
}

/** A percentage (`value` in percent) with `digits` decimals: "22.79 %", "−2.4 %". */
export function percentText(value: number, digits: number, locale: string): string {
  return `${decimalText(value, digits, locale)}${PERCENT}`;
}

/**
 * A percentage as it was set (a threshold, a protocol's reward share), up to two decimals and no
 * trailing zeros: "3 %", "2.5 %".
 */
export function settingPercentText(value: number, locale: string): string {
  return `${trueMinus(numberFormat(locale, { maximumFractionDigits: 2, signDisplay: 'negative' }).format(value))}${PERCENT}`;
}

/** A change in percent, signed: "+1.8 %", "−15 %"; "0 %" when it rounds to nothing. */
export function signedPercentText(value: number, digits: number, locale: string): string {
  return `${decimalText(value, digits, locale, true)}${PERCENT}`;
}

/** A borrow rate (a fraction a year) in percent with `APR_DIGITS` decimals: 0.2279 -> "22.79 %". */
export function aprText(apr: number, locale: string): string {
  return percentText(apr * 100, APR_DIGITS, locale);
}

/**
 * A distance to liquidation (percent, negative for a fall), signed, rounded toward zero at one
 * decimal (never farther than it is: risk-model/safe-round.ts): "−4.9 %", "+12.0 %".
 */
export function distanceText(pct: number, locale: string): string {
  return signedPercentText(towardZeroAt(pct, DISTANCE_DIGITS), DISTANCE_DIGITS, locale);
}

/** An interval in plain words: "45 s", "5 min", "1.5 h". */
export function intervalText(ms: number, locale: string): string {
  if (ms < 90_000) return `${countText(ms / 1000, locale)} s`;
  if (ms < 90 * 60_000) return `${countText(ms / 60_000, locale)} min`;
  return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(ms / 3_600_000)} h`;
}

/** Leverage, assets over equity: "5.00×". */
export function leverageText(value: number, locale: string): string {
  return `${decimalText(value, 2, locale)}\u00D7`;
}

/**
 * A date and time with its zone, in full (a tooltip, a banner, an acknowledge page, the `risk`
 * command): the one absolute style of the product, the day and `clockText`'s clock to the second,
 * "Nov 23, 6:05:12 AM EST", its year only when not `now`'s ("Nov 23, 2025, 6:05:12 AM EST"). The
 * same style as a time read on its own ("Nov 23, 6:05 AM EST", "6:05 AM EST": `dayClockText`,
 * `clockText`), never "11/23/26, 6:05:12 AM EST" beside "Nov 23, 6:05 AM EST" (issue 40).
 * `timeZone` as `clockText`'s (the digest's zone).
 */
export function timeText(
  at: number | Date,
  locale: string,
  now: number | Date = Date.now(),
  timeZone?: string,
): string {
  const thisYear = new Date(at).getFullYear() === new Date(now).getFullYear();
  return keyed(timeFormats, `${locale}\u0000${thisYear}\u0000${timeZone ?? ''}`, () =>
    dateFormat(locale, {
      month: 'short',
      day: 'numeric',
      ...(thisYear ? {} : { year: 'numeric' }),
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    }),
  ).format(at);
}

/**
 * The one style of a clock time, in the reader's zone: the locale's hours and minutes
 * ("2:02 PM"), with seconds where they tell one moment from the next (a valuation, a trade:
 * "2:02:07 PM"), and the zone where the time is read on its own ("2:02 PM EST": an alert, a
 * "valued at", a "since"). `zone: false` only where the zone is said once beside it (a column's
 * or an axis's name: `zoneText`) or the reader is on the very machine (the tray). `timeZone`: on
 * the clock of another zone than the reader's (quiet hours, kept on the zone they were set in).
 */
export function clockText(at: number | Date, locale: string, zone = true, seconds = false, timeZone?: string): string {
  return keyed(clockFormats, `${locale}\u0000${zone}\u0000${seconds}\u0000${timeZone ?? ''}`, () =>
    dateFormat(locale, {
      hour: 'numeric',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      ...(zone ? { timeZoneName: 'short' } : {}),
      ...(timeZone ? { timeZone } : {}),
    }),
  ).format(at);
}

/**
 * A time of day as set ("22:00", a channel's quiet hours), in the style of `clockText`: "10:00 PM",
 * with the zone unless `zone: false` ("10:00 PM EST": the zone as it is on `on`, a day it applies
 * to), on the clock of `timeZone` (the reader's where none is named).
 */
export function setClockText(
  hhmm: string,
  locale: string,
  zone = true,
  on: number | Date = Date.now(),
  timeZone?: string,
): string {
  const clockOf = timeZone ?? localZone();
  // The moment the zone's clock reads `hhmm` on the day of `on` there: the first from its midnight.
  const midnight = nextClock(new Date(on).getTime() - 86_400_000, '00:00', clockOf);
  return clockText(nextClock(midnight - 1, hhmm, clockOf), locale, zone, false, timeZone);
}

/**
 * A channel's quiet hours as set, on the clock of the zone they are kept on (the one they are
 * applied on), named after the span's end as a clock read on its own names it, and in full where
 * the short name could be another's ("CST"): "10:00 PM–7:00 AM EST (America/New_York)",
 * "10:00 PM–7:00 AM UTC". `on`: the day whose short name is given (EST or EDT).
 */
export function quietHoursText(
  q: { from: string; to: string; zone: string },
  locale: string,
  on: number | Date = Date.now(),
): string {
  return `${setClockText(q.from, locale, false, on, q.zone)}\u2013${zonedSetClockText(q.to, q.zone, locale, on)}`;
}

/**
 * A time of day as set on the clock of a named zone, the zone said as quiet hours say theirs:
 * short after the time, in full where the short name could be another's ("8:00 AM EST
 * (America/New_York)", "8:00 AM UTC"). The daily digest's time (Settings `digestZone`).
 */
export function zonedSetClockText(hhmm: string, zone: string, locale: string, on: number | Date = Date.now()): string {
  const at = setClockText(hhmm, locale, true, on, zone);
  return at.endsWith(` ${zone}`) ? at : `${at} (${zone})`;
}

/**
 * A day and a clock time in the style of `clockText`: "Nov 23, 2:02 PM EST" (a time of another
 * day); `timeZone` as `clockText`'s.
 */
export function dayClockText(at: number | Date, locale: string, zone = true, timeZone?: string): string {
  return dateFormat(locale, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(zone ? { timeZoneName: 'short' } : {}),
    ...(timeZone ? { timeZone } : {}),
  }).format(at);
}

/** A day alone: "Nov 23" (a daily candle, a chart axis over days, a digest's day); `timeZone` as `clockText`'s. */
export function dayText(at: number | Date, locale: string, timeZone?: string): string {
  return dateFormat(locale, { month: 'short', day: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(at);
}

/**
 * The reader's zone as `clockText` names it ("EST", "GMT+1"), said once where the times beside it
 * leave it out: a time column's heading, a time axis's name.
 */
export function zoneText(at: number | Date, locale: string): string {
  return (
    dateFormat(locale, { hour: 'numeric', timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? ''
  );
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The least step between two labels of a time axis spanning `spanMs`: what its labels
 * (`axisTimeText`) tell apart. Seconds on an axis of less than 5 minutes, minutes up to a day,
 * hours up to 4 days, days beyond. A chart keeps its ticks at least this far apart, so no two of
 * its labels read the same (issue 40: "10:42 AM, 10:42 AM, 10:42 AM" on a few minutes of risk
 * history, "Nov 24" twice on three days).
 */
export function axisTimeStep(spanMs: number): number {
  if (spanMs < 5 * MINUTE_MS) return 1_000;
  if (spanMs <= DAY_MS) return MINUTE_MS;
  if (spanMs < 4 * DAY_MS) return HOUR_MS;
  return DAY_MS;
}

/**
 * A label of a time axis spanning `spanMs`, in the style of `clockText` without the zone (the
 * axis's name says it: `zoneText`), as fine as its step (`axisTimeStep`) tells the labels apart:
 * the clock to the second ("2:02:30 PM") under 5 minutes; the clock ("2:02 PM") up to a day;
 * the day and the clock ("Nov 23, 2:00 PM") up to 4 days, where one clock comes round again; the
 * day ("Nov 23") beyond, with its year past a year. Midnight is the day alone.
 */
export function axisTimeText(at: number, locale: string, spanMs: number): string {
  const step = axisTimeStep(spanMs);
  if (step >= DAY_MS)
    return spanMs > 365 * DAY_MS
      ? dateFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(at)
      : dayText(at, locale);
  const parts = dateFormat(locale, { hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
  const midnight = parts.formatToParts(at).every((p) => p.type === 'literal' || Number(p.value) === 0);
  if (midnight) return dayText(at, locale);
  if (step >= HOUR_MS) return dayClockText(at, locale, false);
  return clockText(at, locale, false, step < MINUTE_MS);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A time as an export writes it: ISO 8601 in the local zone with its offset,
 * "2026-11-23T06:05:12.000-05:00" ("+00:00" in UTC), so a reader knows the zone and a program
 * the instant.
 */
export function isoTime(at: number | Date): string {
  const d = new Date(at);
  const offset = -d.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${zone}`
  );
}
