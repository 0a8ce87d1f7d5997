import type { PositionSummary } from '../../../shared/contract';
import {
  amountText,
  amountWorthText,
  aprText,
  bringUsd,
  CORE_LOCALE,
  distanceText,
  POSITION_USD_DIGITS,
  usdPriceText,
  usdText,
  worthTells,
} from '../../../shared/format';
import { ratioText } from '../../../shared/units';

/**
 * Every figure of an alert by the product's rules (shared/format.ts, docs/formats.md), in
 * `CORE_LOCALE`: the page, the phone and the exports read the same digits.
 */
/** A position's own money, to the cent whatever its size, as the Portfolio and the manager page write it. */
const usd = (n: number): string => usdText(n, CORE_LOCALE, POSITION_USD_DIGITS);
/**
 * An amount of an asset at the asset's precision ("70.7072 SUI", "307.41 USDC"). An amount to
 * bring is already rounded up at those digits by the valuation (safe-round.ts adviceAmount), so
 * writing it rounds nothing again.
 */
const amount = (n: number, symbol: string | null): string => amountText(n, symbol, CORE_LOCALE);
/**
 * A position's price as its row shows it, at its pool's tick (`price_decimals`), trailing zeros
 * kept: "$0.19650" (WAL_USDC), "$3.8017" (SUI_USDC), "$108,757.4" (XBTC_USDC).
 */
const price = (n: number, p: PositionSummary): string => usdPriceText(n, CORE_LOCALE, p.price_decimals);
/** A distance to liquidation with a true minus sign, toward zero: "−1.2 %", "+4.0 %". */
const distance = (pct: number): string => distanceText(pct, CORE_LOCALE);
/**
 * Where a position at or below its liquidation ratio stands against its liquidation price, which
 * the price has already passed: "0.9 % below" (the liquidation price is above the price now), or
 * null when it has not passed it. A signed distance there would read as the move still to come.
 */
function passedBy(p: PositionSummary): string | null {
  const d = p.distance_pct;
  if (p.risk_ratio === null || d === null || p.risk_ratio > p.liquidation_ratio) return null;
  // A long is liquidated by a fall (its distance negative until passed), a short by a rise.
  if (!((p.side === 'long' && d > 0) || (p.side === 'short' && d < 0))) return null;
  return `${distance(Math.abs(d)).replace(/^\+/, '')} ${d > 0 ? 'below' : 'above'}`;
}
/**
 * An amount to bring with its money, as the repair panel writes it: "8,060.3740 DEEP ($1,464.15)",
 * a stablecoin's once ("307.41 USDC"); the money rounded up to the cent, as the amount is.
 */
const bring = (a: { amount: number; symbol: string; usd: number }): string =>
  amountWorthText(a.amount, a.symbol, bringUsd(a.usd), CORE_LOCALE, { usdDigits: POSITION_USD_DIGITS });
/** A target ratio with the three decimals of every ratio shown (a reading or a threshold): "1.200", "1.275". */
const target = (r: number): string => ratioText(r);

/**
 * The action that brings the position back to its target, every option with the amount that
 * reaches it as written: "Deposit 307.41 USDC or repay 70.7072 SUI ($238.99) from its balance → 1.224"; '' when above it.
 */
export function repairWords(p: PositionSummary): string {
  const r = p.repair;
  if (!r) return '';
  const first = r.deposits[0];
  const options = [
    first ? `deposit ${bring(first)}` : null,
    r.repay ? `repay ${bring(r.repay)} ${r.repay.from === 'balance' ? 'from its balance' : 'from your wallet'}` : null,
  ].filter((x) => x !== null);
  if (options.length === 0) return '';
  const text = `${options.join(' or ')} \u2192 ${target(r.target)}`;
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

/** The position in a trader's words: "Long 10,175.0000 WAL on WAL_USDC" ("Position on SUI_USDC" without a side). */
export function positionWords(p: PositionSummary): string {
  const pool = p.pool_name ? ` on ${p.pool_name}` : '';
  if (p.side === null || p.base_symbol === null) return `Position${pool}`;
  return `${p.side === 'long' ? 'Long' : 'Short'} ${amount(Math.abs(p.size), p.base_symbol)}${pool}`;
}

/**
 * The headline of an alert on a position: "Long 10,175.0000 WAL on WAL_USDC: 1.190, liquidation at
 * $0.19650, −1.2 %". Every figure is the valuation's (the row's), rounded toward the danger.
 */
export function positionHeadline(p: PositionSummary): string {
  const ratio = p.risk_ratio === null ? '' : `: ${ratioText(p.risk_ratio)}`;
  const passed = passedBy(p);
  const liq =
    p.liquidation_price === null || p.distance_pct === null
      ? ''
      : passed
        ? `, past its liquidation price ${price(p.liquidation_price, p)} (${passed})`
        : `, liquidation at ${price(p.liquidation_price, p)}, ${distance(p.distance_pct)}`;
  return `${positionWords(p)}${ratio}${liq}`;
}

/** What an alert says of a position, from the one valuation the row shows. */
export interface PositionWords {
  pool: string | null;
  /** "Long 10,175.0000 WAL on WAL_USDC: 1.190, liquidation at $0.19650, −1.2 %". */
  headline: string;
  /** The action first: "Deposit 307.41 USDC or repay 70.7072 SUI ($238.99) from its balance → 1.224"; '' when nothing is to be done. */
  action: string;
  /**
   * The facts after it: "Assets $3,000.00, debt 2,600.00 USDC: ratio 1.153. SUI at
   * $2.9250 (−2.5 %) liquidates it."
   */
  text: string;
  liquidation: number;
  ratio: number | null;
  distance: number | null;
  /** When its records last changed on chain (ms), where known. */
  updated: number | null;
}

export function describePosition(p: PositionSummary): PositionWords {
  const debt = p.debts.map((d) => amount(d.amount, d.symbol)).join(' + ');
  // Debts in stablecoins only: their money repeats them ("debt 16,645.13 USDC", never "… ($16,645.13)").
  const debtUsd = p.debt_usd === null || !worthTells(p.debts.map((d) => d.symbol)) ? '' : ` (${usd(p.debt_usd)})`;
  const opening = p.collateral_usd === null ? 'Debt' : `Assets ${usd(p.collateral_usd)}, debt`;
  const ratio = p.risk_ratio === null ? '' : `: ratio ${ratioText(p.risk_ratio)}`;
  const passed = passedBy(p);
  const liq =
    p.liquidation_price === null || p.distance_pct === null
      ? ''
      : passed
        ? ` ${p.moving_symbol} is ${passed} its liquidation price, ${price(p.liquidation_price, p)}.`
        : ` ${p.moving_symbol} at ${price(p.liquidation_price, p)} (${distance(p.distance_pct)}) liquidates it.`;
  return {
    pool: p.pool_name,
    headline: positionHeadline(p),
    action: repairWords(p),
    text: `${opening} ${debt || 'unknown'}${debtUsd}${ratio}.${liq}`,
    liquidation: p.liquidation_ratio,
    ratio: p.risk_ratio,
    distance: p.distance_pct,
    updated: p.updated_ms,
  };
}

/** What an interest-drift alert says of its position, from the one valuation its row shows. */
export interface InterestWords {
  /** "Long 1,000.0000 SUI on SUI_USDC". */
  position: string;
  /** How long until interest alone liquidates it (ms from the alert), and that in words ("in 5 days"). */
  inMs: number;
  inWords: string;
  /** The repair that keeps interest from liquidating it within the days set ("Deposit 184.00 USDC or repay 180.33 USDC → 1.227"); '' when none is needed. */
  action: string;
  /** The borrow rate ("37.20 %"), or '' when not known. */
  rate: string;
  /** Its liquidation ratio ("1.125"). */
  liquidation: string;
  /** The facts after it ("Assets $3,000.00, debt 2,600.00 USDC: ratio 1.154. …"). */
  facts: string;
}

/**
 * What an interest-drift alert says of the position: its words, when interest alone liquidates it
 * (`inMs` from now), `repair` (the plan that keeps it from that within the days set, risk/positions.ts
 * `interestRepairOf`) as its action, the borrow rate and the facts.
 */
export function interestWords(p: PositionSummary, inMs: number, repair: PositionSummary['repair']): InterestWords {
  const about = describePosition(p);
  return {
    position: positionWords(p),
    inMs,
    inWords: inWords(inMs),
    action: repairWords({ ...p, repair }),
    rate: p.interest.apr === null ? '' : aprText(p.interest.apr, CORE_LOCALE),
    liquidation: target(p.liquidation_ratio),
    facts: about.text,
  };
}

/** "in 23 days" / "in 5 hours". */
export function inWords(ms: number): string {
  const days = ms / 86_400_000;
  if (days >= 2) return `in ${Math.round(days)} days`;
  const hours = ms / 3_600_000;
  return hours >= 2 ? `in ${Math.round(hours)} hours` : 'within 2 hours';
}
