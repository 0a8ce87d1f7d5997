/**
 * Every unit rule of the service in one place, one tested module (docs/service.md, Units). Views
 * and the core call these; nothing else divides by powers of ten.
 */

/** The exchange stores prices in 1e9 fixed point. */
export const PRICE_SCALE_DECIMALS = 9;
/** The margin stream's liquidation `risk_ratio` is scaled by 1,000,000. */
export const STREAM_RISK_RATIO_SCALE = 1_000_000;

export interface PoolDecimals {
  base_asset_decimals: number;
  quote_asset_decimals: number;
}

type IntLike = number | bigint | string;

function pow10(n: number): number {
  return 10 ** n;
}

/** Decimal places that turn a raw price into a human price: 9 - base + quote. */
export function priceDecimals(pool: PoolDecimals): number {
  return PRICE_SCALE_DECIMALS - pool.base_asset_decimals + pool.quote_asset_decimals;
}

/** Human price (quote per one base) of a raw exchange price. SUI_USDC raw 3380500 is 3.3805. */
export function humanPrice(raw: number, pool: PoolDecimals): number {
  return raw / pow10(priceDecimals(pool));
}

/** Raw exchange price of a human price, rounded to the nearest integer. */
export function rawPrice(human: number, pool: PoolDecimals): number {
  return Math.round(human * pow10(priceDecimals(pool)));
}

/** Human base quantity: raw / 10^base_decimals. */
export function baseQuantity(raw: number, pool: PoolDecimals): number {
  return raw / pow10(pool.base_asset_decimals);
}

/** Human quote quantity: raw / 10^quote_decimals. */
export function quoteQuantity(raw: number, pool: PoolDecimals): number {
  return raw / pow10(pool.quote_asset_decimals);
}

/** A trade's raw quote quantity: base x price / 10^9, integer division (exact, in BigInt). */
export function quoteQuantityOf(baseRaw: IntLike, priceRaw: IntLike): bigint {
  return (BigInt(baseRaw) * BigInt(priceRaw)) / 10n ** BigInt(PRICE_SCALE_DECIMALS);
}

/** The margin stream's liquidation `risk_ratio` is scaled by 1,000,000 (REST's is a plain ratio: 1.25 = assets are 125 % of debt). */
export function riskRatioFromStream(scaled: number): number {
  return scaled / STREAM_RISK_RATIO_SCALE;
}

/** The inverse of riskRatioFromStream, as the service emits it (an integer). */
export function riskRatioToStream(ratio: number): number {
  return Math.round(ratio * STREAM_RISK_RATIO_SCALE);
}

/** Margin amounts and shares: integers in the smallest unit of the margin pool's asset. */
export function marginAmount(raw: number, assetDecimals: number): number {
  return raw / pow10(assetDecimals);
}

/** An oracle price with its decimals (Deposit, Liquidation): price / 10^decimals. */
export function oraclePrice(price: number, decimals: number): number {
  return price / pow10(decimals);
}

/**
 * Exact decimal text of a raw integer amount: formatUnits(3380500, 6) is "3.3805". Used where a
 * float would lose digits (amounts beyond 2^53, volumes that travel as strings).
 */
export function formatUnits(raw: IntLike, decimals: number): string {
  let big: bigint;
  if (typeof raw === 'bigint') big = raw;
  else if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) throw new RangeError(`formatUnits: ${raw} is not a finite number`);
    big = BigInt(Math.trunc(raw));
  } else big = BigInt(raw);
  const negative = big < 0n;
  const digits = (negative ? -big : big).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? digits.slice(digits.length - decimals).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Exact raw integer of a decimal text: parseUnits("3.3805", 6) is 3380500n. Extra digits are an error. */
export function parseUnits(text: string, decimals: number): bigint {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new RangeError(`parseUnits: "${text}" is not a decimal number`);
  const [, sign, whole, fraction = ''] = m;
  if (fraction.length > decimals) {
    throw new RangeError(`parseUnits: "${text}" has more than ${decimals} decimal places`);
  }
  const big = BigInt(whole + fraction.padEnd(decimals, '0'));
  return sign ? -big : big;
}

/** A candle's `timestamp` (ISO 8601, UTC; the service omits the zone) in UNIX milliseconds. */
export function candleTimeMs(timestamp: string): number {
  return Date.parse(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(timestamp) ? timestamp : `${timestamp}Z`);
}

/**
 * Decimal places a step of `human` size needs: 0.1 -> 1, 0.001 -> 3, 5 -> 0, 0.00005 -> 5,
 * 1e-9 -> 9 (at most 12). The step must be at least one unit of the last decimal: a step below a
 * millionth is otherwise within the float tolerance of zero units and got 0 decimals.
 */
function stepDecimals(human: number): number {
  if (!(human > 0) || !Number.isFinite(human)) return 2;
  for (let d = 0; d <= 12; d++) {
    const units = human * 10 ** d;
    if (Math.round(units) >= 1 && Math.abs(Math.round(units) - units) < 1e-6) return d;
  }
  return 12;
}

/** Decimals a pool's prices are shown with: those of its tick (a 0.1 tick: 107,677.8). */
export function tickDecimals(pool: PoolDecimals & { tick_size: number }): number {
  return stepDecimals(humanPrice(pool.tick_size, pool));
}

/**
 * Decimals a position's USD prices are shown with (its mark, liquidation and break-even prices):
 * its pool's tick's (`tickDecimals`), so a price reads alike on the Portfolio, the manager page,
 * the alerts and the pool's own page ("$0.19650" and "0.19650" on WAL_USDC's 0.00001 tick). For
 * a pool quoted in a dollar stablecoin (`quoteUsd` null) that is all; quoted in another asset, the
 * decimals of the tick's worth in dollars at the quote's price (a 0.0001 SUI tick at $3.38: 4;
 * at $12: 3), never fewer than none.
 */
export function usdTickDecimals(tickDecimals: number, quoteUsd: number | null = null): number {
  if (quoteUsd === null || !(quoteUsd > 0) || !Number.isFinite(quoteUsd)) return tickDecimals;
  return Math.min(12, Math.max(0, tickDecimals - Math.floor(Math.log10(quoteUsd))));
}

/**
 * The decimals a position's prices are written with: its pool's tick's (`usdTickDecimals`), and at
 * least the four significant digits of the price now. A tick coarser than that (SUI at $0.01015
 * on a 0.0001 tick) would otherwise round a liquidation price toward the price now past it.
 */
export function positionPriceDecimals(tickUsdDecimals: number, priceUsd: number | null): number {
  if (priceUsd === null || !(priceUsd > 0) || !Number.isFinite(priceUsd)) return tickUsdDecimals;
  return Math.min(12, Math.max(tickUsdDecimals, 3 - Math.floor(Math.log10(priceUsd))));
}

/** Decimals a pool's sizes are shown with: those of its lot (a 0.01 SUI lot: 12.34 SUI). */
export function lotDecimals(pool: PoolDecimals & { lot_size: number }): number {
  return stepDecimals(baseQuantity(pool.lot_size, pool));
}

/** The decimals of every ratio written, a reading, a threshold or a chart axis's tick: "1.250". */
export const RATIO_DIGITS = 3;

/**
 * A risk ratio as every view and alert writes it: 3 decimals, rounded down. A lower ratio is the
 * riskier side, so 1.1996 reads "1.199" and never "1.200" beside a liquidation below 1.2. The
 * 1e-7 (of a thousandth) keeps 1.15, stored as 1.1499999999999999, at "1.150".
 */
export function ratioText(value: number): string {
  return (Math.floor(value * 1000 + 1e-7) / 1000).toFixed(RATIO_DIGITS);
}

/**
 * A tick of a chart's ratio axis, at the ratios' three decimals and rounded to the nearest (a
 * tick is a place on the axis, not a reading): "1.250", "1.200", never "1.25" beside "1.2".
 */
export function ratioTickText(value: number): string {
  return (Math.round(value * 1000) / 1000).toFixed(RATIO_DIGITS);
}

/**
 * An event's amounts as words, each label once, as the alerts and Live events both write them:
 * "repaid 1,234.5 USDC, left 10 SUI and 20 USDC". `text` writes one amount with its symbol.
 */
export function groupedAmounts<A extends { label: string }>(amounts: readonly A[], text: (a: A) => string): string {
  return [...new Set(amounts.map((a) => a.label))]
    .map((label) => {
      const of = amounts
        .filter((a) => a.label === label)
        .map(text)
        .join(' and ');
      return label ? `${label} ${of}` : of;
    })
    .join(', ');
}
