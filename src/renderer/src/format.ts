import { ref } from 'vue';
import type { UsdPrice } from '../../shared/contract';
import {
  amountBoundText,
  amountFullText,
  amountReadsZero,
  amountText,
  amountWorthText,
  aprText,
  axisTimeText,
  clockText,
  compactText,
  countText,
  dayClockText,
  dayText,
  decimalText,
  distanceText,
  intervalText,
  leverageText,
  midPriceDigits,
  MINUS,
  percentText,
  POSITION_USD_DIGITS,
  poolPriceText,
  quietHoursText,
  settingPercentText,
  shortIdText,
  signedPercentText,
  signedUsdText,
  timeText,
  usdCompactText,
  usdPriceText,
  usdColumnDigits,
  usdText,
  worthTells,
  zonedSetClockText,
  zoneText,
} from '../../shared/format';
import { MASK, maskAmounts } from '../../shared/privacy';

/** Whether money beside amounts of these assets tells anything (not where all are stablecoins'): shared/format.ts. */
export { worthTells };
import { formatUnits, ratioText, ratioTickText } from '../../shared/units';

/**
 * The one formatter every number on screen passes through: the product's rules
 * (shared/format.ts, docs/formats.md) in the user's locale, with privacy mode and '–' for a
 * missing figure (a number that skips it would leak in privacy mode).
 *
 * Privacy rule (docs/guide.md, Privacy mode): the user's own amounts are masked: holdings, debts,
 * equity, supplies and their USD values, and the amounts of events and liquidations of watched
 * managers. Market data stays visible: prices (liquidation prices too), ratios, distances,
 * order books, trades, and other traders' events and liquidations. Every amount formatter masks
 * unless told `{ private: false }`; a view passes that only for data that is not the user's.
 */
export const privacy = ref(false);

export const locale = typeof navigator !== 'undefined' ? navigator.language : 'en-US';

type Figure = number | null | undefined;
const missing = (value: Figure): value is null | undefined =>
  value === null || value === undefined || !Number.isFinite(value);
const masked = (opts: { private?: boolean }): boolean => opts.private !== false && privacy.value;

/** A count, whole and grouped ("12,400"), masked unless `private: false`. */
export function count(value: Figure, opts: { private?: boolean } = {}): string {
  if (missing(value)) return '–';
  return masked(opts) ? MASK : countText(value, locale);
}

/** A count where the room is short: 12K, 4.5M (a volume on a chart axis). */
export function compact(value: Figure, opts: { private?: boolean } = {}): string {
  if (missing(value)) return '–';
  return masked(opts) ? MASK : compactText(value, locale);
}

/**
 * An amount of money in USD, in full: "$12,345", "$1,234.56"; in a table, `digits` is its
 * column's (`usdColumn`), so one column never mixes cents and whole dollars.
 */
export function usd(value: Figure, opts: { private?: boolean; digits?: number } = {}): string {
  if (missing(value)) return '–';
  return masked(opts) ? `$${MASK}` : usdText(value, locale, opts.digits);
}

/**
 * A position's own money (PnL aside: `signedPositionUsd`), equity, assets, debt, to the cent
 * whatever its size ("$18,331.07"), in the Portfolio's row and on the manager page alike, so
 * the Portfolio's columns keep one rule.
 */
export function positionUsd(value: Figure, opts: { private?: boolean } = {}): string {
  return usd(value, { ...opts, digits: POSITION_USD_DIGITS });
}

/** A position's PnL, signed and to the cent: "+$1,234.00", "−$12,491.13". */
export function signedPositionUsd(value: Figure, opts: { private?: boolean } = {}): string {
  return signedUsd(value, { ...opts, digits: POSITION_USD_DIGITS });
}

/** The decimals of a column of money, by its largest figure: 2 while all are below $10,000, else 0. */
export function usdColumn(values: Iterable<number | null | undefined>): number {
  return usdColumnDigits(values);
}

/** Money where the room is short (a chart axis, the markets' table, the timeline): "$1.2M". */
export function usdCompact(value: Figure, opts: { private?: boolean } = {}): string {
  if (missing(value)) return '–';
  return masked(opts) ? `$${MASK}` : usdCompactText(value, locale);
}

/**
 * A USD price (market data, never masked), trailing zeros kept, by the rule the alerts write it
 * with (`usdPriceText`, shared/format.ts): a position's prices with its pool's tick's `digits`
 * (`PositionSummary.price_decimals`: "$0.19650"), another price by its size ("$0.1870").
 */
export function usdPrice(value: Figure, digits?: number | null): string {
  return missing(value) ? '–' : usdPriceText(value, locale, digits);
}

/** A pool price with the decimals its tick implies, trailing zeros kept (market data, never masked). */
export function price(value: Figure, decimals: number): string {
  return missing(value) ? '–' : poolPriceText(value, decimals, locale);
}

/**
 * A pool's mid in its quote asset (`midPriceDigits`): its tick's decimals on a tick ("3.3022"),
 * one more between two ("3.38055"); `decimals` is the tick's. Market data, never masked.
 */
export function midPrice(value: Figure, decimals: number): string {
  return missing(value) ? '–' : poolPriceText(value, midPriceDigits(value, decimals), locale);
}

/** A number with a fixed number of decimals (a size by its pool's lot), masked unless `private: false`. */
export function fixed(value: Figure, decimals: number, opts: { private?: boolean } = {}): string {
  if (missing(value)) return '–';
  return masked(opts) ? MASK : decimalText(value, decimals, locale);
}

/** An amount of an asset at the asset's display precision, with its symbol: "1,234.5000 SUI". */
export function amount(value: Figure, symbol: string | null | undefined, opts: { private?: boolean } = {}): string {
  if (missing(value) || masked(opts)) {
    const n = missing(value) ? '–' : MASK;
    return symbol ? `${n} ${symbol}` : n;
  }
  return amountText(value, symbol, locale);
}

/**
 * An amount known only as a bound, "at most" it (interest accrued): "≤ 19.00 USDC", and where it
 * reads zero at the asset's precision "< 0.0001 XBTC" (never "≤ 0.0000 XBTC"); masked like `amount`.
 */
export function amountAtMost(
  value: Figure,
  symbol: string | null | undefined,
  opts: { private?: boolean } = {},
): string {
  if (missing(value) || masked(opts)) return `\u2264 ${amount(value, symbol, opts)}`;
  return amountBoundText(value, symbol, locale);
}

/**
 * An amount and its value in money (`amountWorthText`): "70.7072 SUI ($238.99)", a stablecoin's
 * once ("584.16 USDC", never "584.16 USDC ($584.16)"), the money alone where the amount reads
 * zero ("$1.73"); `bound` writes it as "at most" ("≤ 20.52 USDC"); masked like `amount` and `usd`.
 */
export function amountWorth(
  value: Figure,
  symbol: string | null | undefined,
  usdValue: number | null | undefined,
  opts: { private?: boolean; digits?: number; bound?: boolean } = {},
): string {
  const known = missing(usdValue) ? null : usdValue;
  if (missing(value) || masked(opts)) {
    const a = opts.bound ? `\u2264 ${amount(value, symbol, opts)}` : amount(value, symbol, opts);
    return known === null || !worthTells([symbol]) ? a : `${a} (${usd(known, opts)})`;
  }
  return amountWorthText(value, symbol, known, locale, { usdDigits: opts.digits, bound: opts.bound });
}

/** Whether an amount that is not zero reads as zero at its asset's display precision (0.0000178 XBTC). */
export function readsZero(value: Figure, symbol: string | null | undefined): boolean {
  return !missing(value) && amountReadsZero(value, symbol);
}

/** An amount in full, for its tooltip ("3,757.237166 SUI"), masked like `amount`. */
export function amountTitle(
  value: Figure,
  symbol: string | null | undefined,
  opts: { private?: boolean } = {},
): string {
  if (missing(value) || masked(opts)) return amount(value, symbol, opts);
  return amountFullText(value, symbol, locale);
}

/** A raw amount in its asset's units at the asset's display precision (exact, beyond 2^53 too): "3,757.2372 SUI". */
export function units(
  raw: number | string | bigint,
  decimals: number,
  symbol: string | null | undefined,
  opts: { private?: boolean } = {},
): string {
  if (masked(opts)) return symbol ? `${MASK} ${symbol}` : MASK;
  return amountText(formatUnits(raw, decimals), symbol, locale);
}

/** A raw amount in full, for its tooltip: every decimal it has ("3,757.237166 SUI"), masked like `units`. */
export function unitsTitle(
  raw: number | string | bigint,
  decimals: number,
  symbol: string | null | undefined,
  opts: { private?: boolean } = {},
): string {
  if (masked(opts)) return units(raw, decimals, symbol, opts);
  return amountFullText(formatUnits(raw, decimals), symbol, locale);
}

/** Ratios are not amounts: they stay visible in privacy mode unless asked. */
export function ratio(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : ratioText(value);
}

/** A tick of a chart's ratio axis, three decimals like every ratio: "1.250", "1.200". */
export function ratioTick(value: number): string {
  return ratioTickText(value);
}

/** A percentage (`value` in percent), unsigned: "22.8 %" (a share, a spread). */
export function pct(value: Figure, digits = 1): string {
  return missing(value) ? '–' : percentText(value, digits, locale);
}

/** A percentage as it was set (a threshold, a reward share): "3 %", "2.5 %". */
export function pctSet(value: Figure): string {
  return missing(value) ? '–' : settingPercentText(value, locale);
}

/** A signed move in percent: "+1.8 %", "−15 %". */
export function signedPct(value: Figure, digits = 0): string {
  return missing(value) ? '–' : signedPercentText(value, digits, locale);
}

/** A borrow rate (a fraction a year), with the same decimals in every view: "22.79 %". */
export function apr(value: Figure): string {
  return missing(value) ? '–' : aprText(value, locale);
}

/** A distance to liquidation, rounded toward zero: "−4.9 %". */
export function distance(value: Figure): string {
  return missing(value) ? '–' : distanceText(value, locale);
}

/** Leverage: "5.00×". */
export function leverage(value: Figure): string {
  return missing(value) ? '–' : leverageText(value, locale);
}

/** An address or id in the one short form of the product (`shortIdText`): "0x1763a7…d999"; '–' for none. */
export function shortId(id: string | null | undefined): string {
  return id ? shortIdText(id) : '–';
}

/**
 * The one absolute time of the app, in full, in the user's time zone, which it names, in the
 * style of its clock times: "Nov 23, 6:05:12 AM EST" (its year when another's).
 */
export function time(at: number | string | null | undefined, now: number = Date.now()): string {
  if (at === null || at === undefined || at === '' || at === 0) return '–';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : timeText(d, locale, now);
}

/**
 * A past time relative, however old ("3 min ago", "12 h ago", "3 days ago"), so a column of them
 * reads one way from row to row (issue 40: "12 h ago" above "11/26/26, 5:57:53 PM EST"); `time()`
 * of the same value goes in its tooltip. A time ahead is absolute.
 */
export function when(at: number | string | null | undefined, now = Date.now()): string {
  if (at === null || at === undefined || at === '' || at === 0) return '–';
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) return String(at);
  return ms <= now + 60_000 ? ago(ms, now) : time(ms);
}

/**
 * A candle's period start on a chart axis, in the user's zone (the axis's name says which:
 * `zone()`): "Nov 23" for daily candles, "Nov 23, 8:14 PM" otherwise.
 */
export function candleLabel(ms: number, daily: boolean): string {
  return daily ? dayText(ms, locale) : dayClockText(ms, locale, false);
}

/**
 * A clock time to the second in the user's zone, in the one style of the app: "8:14:52 PM EST"
 * (when figures were valued); `zone: false` where a column's or an axis's name says the zone
 * once (`zone()`): "8:14:52 PM" (the trade tape).
 */
export function clock(ms: number, o: { zone?: boolean } = {}): string {
  return clockText(ms, locale, o.zone !== false, true);
}

/**
 * A channel's quiet hours on the clock they are applied on, which may be another zone than the
 * browser's (the monitor's machine's): "10:00 PM–7:00 AM EST (America/New_York)".
 */
export function quietHours(q: { from: string; to: string; zone: string }): string {
  return quietHoursText(q, locale);
}

/**
 * A time of day as set, on the clock of a named zone, which it names: "8:00 AM EST
 * (America/New_York)" (the daily digest's time, applied on that zone's clock by the monitor).
 */
export function setClockInZone(hhmm: string, timeZone: string): string {
  return zonedSetClockText(hhmm, timeZone, locale);
}

/** The user's time zone as the app's times name it ("EST"), for a time column's heading or a time axis's name. */
export function zone(at: number = Date.now()): string {
  return zoneText(at, locale);
}

/**
 * A label of a time axis spanning `spanMs`, without the zone (the axis's name says it: `zone()`),
 * as fine as the span needs (`axisTimeStep`): "8:14:30 PM", "8:14 PM", "Nov 23, 8:00 PM", "Nov 23".
 */
export function axisTime(ms: number, spanMs: number): string {
  return axisTimeText(ms, locale, spanMs);
}

export function ago(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return 'never';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** An alert's text: its amounts masked in privacy mode when it is about the user's own position. */
export function alertText(message: string, own: boolean): string {
  return own && privacy.value ? maskAmounts(message) : message;
}

/**
 * Where an asset's USD price came from, in a word or two (beside a price); `priceSource` says it
 * in full (its tooltip), so a price never changes its source silently.
 */
export const PRICE_SOURCE: Readonly<Record<UsdPrice['source'], string>> = {
  stablecoin: 'stablecoin',
  oracle: 'oracle price',
  exchange: 'last exchange trade',
};

/** A time of day today with its zone ("2:02 PM EST"), the full date and time otherwise. */
function clockOrTime(ms: number, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString() ? clockText(ms, locale) : time(ms);
}

/**
 * A time read on its own, in the user's zone, which it names: "8:14 PM EST" today,
 * "Nov 23, 8:14 PM EST" another day (a delivery chip, "since …"). A moment a sentence names (a
 * liquidation's: "moved by the liquidation at …") is `time`'s, to the second.
 */
export function shortTime(ms: number, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString()
    ? clockText(ms, locale)
    : dayClockText(ms, locale);
}

/**
 * Where a price came from, in full: "oracle price (learnt from the service's risk ratios at
 * 2:02 PM, moved with the exchange since)".
 */
export function priceSource(p: UsdPrice, now = Date.now()): string {
  if (p.source === 'stablecoin') return 'stablecoin, counted as $1.00';
  if (p.source === 'exchange') return "the exchange's last trade (no oracle price learnt yet)";
  const at = p.oracle_at ? ` at ${clockOrTime(p.oracle_at, now)}` : '';
  const from =
    p.learnt_from === 'record'
      ? `read from a deposit's or liquidation's record${at}`
      : p.learnt_from === 'exchange'
        ? `set to the exchange's${at}, none learnt yet`
        : `learnt from the service's risk ratios${at}`;
  return `oracle price (${from}, moved with the exchange since)`;
}

/**
 * The exchange's price beside an oracle price where they differ by more than 1 %: "exchange
 * $3.4100 (+1.8 %)", with the oracle price's `digits` (a listed price's tick's); null otherwise.
 */
export function exchangeBeside(p: UsdPrice, digits?: number | null): string | null {
  if (p.source !== 'oracle' || p.exchange_usd === null || p.exchange_usd === undefined || !(p.usd > 0)) return null;
  const diff = (p.exchange_usd / p.usd - 1) * 100;
  return Math.abs(diff) > 1 ? `exchange ${usdPrice(p.exchange_usd, digits)} (${signedPct(diff, 1)})` : null;
}

/** A signed amount of money: "+$1,234.00", "−$4,100.00" (masked like `usd`). */
export function signedUsd(value: Figure, opts: { private?: boolean; digits?: number } = {}): string {
  if (missing(value)) return '–';
  if (masked(opts)) return `${value > 0 ? '+' : value < 0 ? MINUS : ''}$${MASK}`;
  return signedUsdText(value, locale, opts.digits);
}

/** An interval in plain words: "45 s", "5 min", "1.5 h". */
export function every(ms: number): string {
  return intervalText(ms, locale);
}
