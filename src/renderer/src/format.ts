import { ref } from 'vue';
import type { UsdPrice } from '../../shared/contract';
import { numberFormat, poolPriceText, usdPriceText } from '../../shared/format';
import { MASK, maskAmounts } from '../../shared/privacy';
import { formatUnits, ratioText } from '../../shared/units';

/**
 * The one formatter every number on screen passes through: units, locale and privacy mode in
 * one place (a number that skips it would leak in privacy mode).
 *
 * Privacy rule (docs/guide.md, Privacy mode): the user's own amounts are masked: holdings, debts,
 * equity, supplies and their USD values, and the amounts of events and liquidations of watched
 * managers. Market data stays visible: prices (liquidation prices too), ratios, distances,
 * order books, trades, and other traders' events and liquidations. Every amount formatter masks
 * unless told `{ private: false }`; a view passes that only for data that is not the user's.
 */
export const privacy = ref(false);

const locale = typeof navigator !== 'undefined' ? navigator.language : 'en-US';

/**
 * Formatters built once per set of options: `value.toLocaleString(locale, opts)` builds a new
 * Intl formatter on every call (tens of microseconds), and a busy pool formats thousands of
 * numbers and times a second (the ladder, the tape, chart labels). Same output, made once
 * (numbers: `numberFormat` in shared/format.ts).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const nf = (opts: Intl.NumberFormatOptions = {}): Intl.NumberFormat => numberFormat(locale, opts);
function df(opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(opts);
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, opts)));
  return f;
}

export function num(value: number | null | undefined, digits = 2, opts: { private?: boolean } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (opts.private !== false && privacy.value) return MASK;
  const abs = Math.abs(value);
  const maximumFractionDigits =
    abs !== 0 && abs < 1 ? Math.max(digits, Math.min(8, 2 - Math.floor(Math.log10(abs)) + 2)) : digits;
  return nf({ maximumFractionDigits, minimumFractionDigits: Math.min(digits, maximumFractionDigits) }).format(value);
}

/** Compact amounts: 12.3K, 4.5M. */
export function compact(value: number | null | undefined, opts: { private?: boolean } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (opts.private !== false && privacy.value) return MASK;
  return nf({ notation: 'compact', maximumFractionDigits: 2 }).format(value);
}

/** An amount of money in USD: "$12,345.67", compact above a million ("$1.2M"). */
export function usd(value: number | null | undefined, opts: { private?: boolean } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (opts.private !== false && privacy.value) return `$${MASK}`;
  if (Math.abs(value) >= 1e6)
    return nf({ style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 2 }).format(value);
  const digits = Math.abs(value) >= 10_000 ? 0 : 2;
  return nf({
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  }).format(value);
}

/**
 * An asset's USD price (market data, never masked): enough digits for cheap assets ("$0.03412"),
 * by the rule the alerts write it with (`usdPriceText`, shared/format.ts).
 */
export function usdPrice(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return usdPriceText(value, locale);
}

/** A pool price with the decimals its tick implies (market data, never masked). */
export function price(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return poolPriceText(value, decimals, locale);
}

/** A size or amount with a fixed number of decimals (a pool's lot), masked unless `private: false`. */
export function fixed(value: number | null | undefined, decimals: number, opts: { private?: boolean } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (opts.private !== false && privacy.value) return MASK;
  return nf({ minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** A human amount with its symbol: "1,234.5 SUI". */
export function amount(
  value: number | null | undefined,
  symbol: string | null | undefined,
  opts: { private?: boolean } = {},
): string {
  const n = num(value, 2, opts);
  return symbol ? `${n} ${symbol}` : n;
}

/** An exact raw amount in human units, as text (amounts beyond 2^53 keep their digits). */
export function units(raw: number | string | bigint, decimals: number, opts: { private?: boolean } = {}): string {
  if (opts.private !== false && privacy.value) return MASK;
  const text = formatUnits(raw, decimals);
  const [whole, fraction] = text.split('.');
  const grouped = nf().format(BigInt(whole!));
  return fraction ? `${grouped}.${fraction.slice(0, 6)}` : grouped;
}

/** Ratios are not amounts: they stay visible in privacy mode unless asked. */
export function ratio(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : ratioText(value);
}

export function pct(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${value > 0 ? '+' : ''}${value.toFixed(digits)}%`;
}

export function shortId(id: string | null | undefined): string {
  if (!id) return '–';
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** The one absolute date format of the app, in the user's time zone: "11/23/26, 6:05:12 AM". */
export function time(at: number | string | null | undefined): string {
  if (at === null || at === undefined || at === '' || at === 0) return '–';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : df({ dateStyle: 'short', timeStyle: 'medium' }).format(d);
}

/** Recent times relative ("3 min ago"), older ones absolute; `time()` of the same value goes in the tooltip. */
export function when(at: number | string | null | undefined, now = Date.now()): string {
  if (at === null || at === undefined || at === '' || at === 0) return '–';
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) return String(at);
  return now - ms < 12 * 3_600_000 && ms <= now + 60_000 ? ago(ms, now) : time(ms);
}

/** A candle's period start on a chart axis, in local time: the date alone for daily candles. */
export function candleLabel(ms: number, daily: boolean): string {
  const d = new Date(ms);
  return daily
    ? df({ month: 'short', day: 'numeric' }).format(d)
    : df({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(d);
}

export function clock(ms: number): string {
  // toLocaleTimeString's defaults (hour, minute, second) spelled out.
  return df({ hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false }).format(ms);
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

/** A time of day today ("2:02 PM"), the full date and time otherwise. */
function clockOrTime(ms: number, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString()
    ? df({ hour: 'numeric', minute: '2-digit' }).format(ms)
    : time(ms);
}

/** A short time in the user's zone: "2:02 PM" today, "Nov 23, 2:02 PM" another day (a delivery chip). */
export function shortTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  return d.toDateString() === new Date(now).toDateString()
    ? df({ hour: 'numeric', minute: '2-digit' }).format(d)
    : df({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(d);
}

/**
 * Where a price came from, in full: "oracle price (learnt from the service's risk ratios at
 * 2:02 PM, moved with the exchange since)".
 */
export function priceSource(p: UsdPrice, now = Date.now()): string {
  if (p.source === 'stablecoin') return 'stablecoin, counted as $1';
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

/** The exchange's price beside an oracle price where they differ by more than 1 %: "exchange $3.41 (+1.8 %)"; null otherwise. */
export function exchangeBeside(p: UsdPrice): string | null {
  if (p.source !== 'oracle' || p.exchange_usd === null || p.exchange_usd === undefined || !(p.usd > 0)) return null;
  const diff = (p.exchange_usd / p.usd - 1) * 100;
  return Math.abs(diff) > 1 ? `exchange ${usdPrice(p.exchange_usd)} (${signedPct(diff, 1)})` : null;
}

/** A signed move in percent with a true minus sign and a space: "+1.8 %", "−15 %". */
export function signedPct(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const text = Math.abs(value).toFixed(digits);
  const zero = Number(text) === 0;
  return `${zero ? '' : value > 0 ? '+' : '\u2212'}${text} %`;
}

/** A signed amount of money: "+$1,234.00", "−$4,100" (masked like `usd`). */
export function signedUsd(value: number | null | undefined, opts: { private?: boolean } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const text = usd(Math.abs(value), opts);
  return value > 0 ? `+${text}` : value < 0 ? `\u2212${text}` : text;
}

/** An interval in plain words: "45 s", "5 min", "1.5 h". */
export function every(ms: number): string {
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 90 * 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}
