import type { PositionSummary } from '../../../../shared/contract';
import { modelOf } from '../../../../shared/portfolio';
import {
  actionsAt,
  adviceAmount,
  adviceDigits,
  adviceTarget,
  afterDeposit,
  DAY_MS,
  liquidationPriceShown,
  depositFor,
  priceAtRatio,
  projectRatio,
  reduceOnlyCloseFor,
  reduceOnlyCloseOnBook,
  repayFor,
  depositAndRepayFor,
  valueAt,
  type AllowedActions,
  type Amount,
  type BookLevel,
  type DebtRates,
  type Holdings,
  type PricePair,
  type ReduceOnlyClose,
} from '../../../../shared/risk-model';
import { pctSet, positionUsd, ratio, usdPrice } from '../../format';
import { usdPriceDigits } from '../../../../shared/format';

/**
 * A manager's page figures the risk model computes in the renderer, from the position main
 * sends (the same holdings and prices its row shows): the repair at a chosen target and the
 * ratio's drift with interest alone.
 */

/** The debt's borrow rate on the asset owed (the position's APR applies to its one loan). */
export function debtRates(p: PositionSummary): DebtRates {
  return { base: p.debt_base > 0 ? p.interest.apr : null, quote: p.debt_quote > 0 ? p.interest.apr : null };
}

export interface RepairAt {
  target: number;
  /** The ratio now; at or above `target` there is nothing to do (`deposits` empty, `repay` null). */
  ratio: number | null;
  above: boolean;
  /** Deposits of either asset, any one of which brings the ratio to `target`: quote first. */
  deposits: Array<{ asset: 'base' | 'quote'; symbol: string; decimals: number; amount: Amount }>;
  /**
   * The repayment in the asset owed: `amount` from the manager's own balance (the protocol's
   * repay; enough however it is paid), `brought` if deposited from the wallet first and then
   * repaid (the assets stay, so less is needed). `amount` is null at a ratio of 1 or below, and
   * where the manager holds less of the asset owed than it takes.
   */
  repay: { symbol: string; decimals: number; amount: Amount | null; brought: Amount } | null;
  /** The liquidation price after the quote deposit (USD, the quote's price held). */
  liquidationPriceAfter: number | null;
  /** What the protocol allows at the ratio now (borrows refused below the pool's minimum borrow ratio). */
  actions: AllowedActions;
  /**
   * Where borrows are refused (the danger band, or liquidatable): the reduce-only close that
   * reaches `target` at the current prices, fees and slippage aside, its base amount rounded up at
   * the digits it is shown with; null outside the band, when there is nothing to do, or when no
   * trade that repays applies (at a ratio of 1 or below; a long owing its base).
   */
  close:
    (ReduceOnlyClose & { baseSymbol: string; quoteSymbol: string; price: number; book: CloseOnBook | null }) | null;
}

/** The pool's book as the close trades on it (human units, best first), and when it was read. */
export interface BookSides {
  bids: BookLevel[];
  asks: BookLevel[];
  at: number;
}

/** How the close fills on the book: its average (quote per base) and the levels' depth; `at`: the book's time. */
export interface CloseOnBook {
  average: number;
  depth: number;
  at: number;
}

/** What brings the position back to `target`; null when it cannot be priced or has no debt. */
export function repairAt(p: PositionSummary, target: number, book: BookSides | null = null): RepairAt | null {
  const m = modelOf(p);
  if (!m.prices || !(target > 0)) return null;
  const h = m.holdings;
  const ratio = valueAt(h, m.prices).ratio;
  if (ratio === null) return null;
  const base = p.base_symbol ?? '?';
  const quote = p.quote_symbol ?? '?';
  const owesBase = h.debtBase > 0 && h.debtQuote <= 0;
  // Aimed a hair above the target, as the alerts' advice is (safe-round.ts ADVICE_CUSHION).
  const above = ratio >= target;
  const aim = adviceTarget(target);
  const byQuote = above ? null : depositFor(h, m.prices, aim, 'quote', p.quote_decimals);
  const byBase = above ? null : depositFor(h, m.prices, aim, 'base', p.base_decimals);
  const repayDecimals = owesBase ? p.base_decimals : p.quote_decimals;
  // From its own balance only where the manager holds that much of the asset owed (a long owing
  // USDC that holds only SUI cannot): else the repayment is deposited from the wallet first.
  const fromBalance = above ? null : repayFor(h, m.prices, aim, repayDecimals);
  const held = owesBase ? h.base : h.quote;
  const repay = fromBalance && fromBalance.amount <= held ? fromBalance : null;
  const brought = above ? null : depositAndRepayFor(h, m.prices, aim, repayDecimals);
  const actions = actionsAt(ratio, p.risk_params);
  const digits = adviceDigits(base, p.base_decimals);
  // On the book where it was read (a long sells into the bids, a short buys from the asks), so the
  // amount followed as written reaches the target; else at the valuation's price.
  const onBook =
    above || actions.borrow || !book
      ? null
      : reduceOnlyCloseOnBook(h, m.prices, aim, digits, h.debtQuote > 0 ? book.bids : book.asks);
  const close = above || actions.borrow ? null : (onBook ?? reduceOnlyCloseFor(h, m.prices, aim, digits));
  return {
    target,
    ratio,
    above,
    deposits: [
      ...(byQuote ? [{ asset: 'quote' as const, symbol: quote, decimals: p.quote_decimals, amount: byQuote }] : []),
      ...(byBase ? [{ asset: 'base' as const, symbol: base, decimals: p.base_decimals, amount: byBase }] : []),
    ],
    repay: brought ? { symbol: owesBase ? base : quote, decimals: repayDecimals, amount: repay, brought } : null,
    liquidationPriceAfter: byQuote
      ? liquidationAfter(
          h,
          m.prices,
          adviceAmount(byQuote.amount, quote, p.quote_decimals),
          p.liquidation_ratio,
          p.price_decimals,
        )
      : null,
    actions,
    close: close
      ? {
          ...close,
          baseSymbol: base,
          quoteSymbol: quote,
          price: m.prices.base,
          book: onBook && book ? { average: onBook.average, depth: onBook.depth, at: book.at } : null,
        }
      : null,
  };
}

/**
 * Why the repair offers no borrow or withdrawal, where the protocol refuses them (the danger band
 * or below: docs/valuation.md "The danger band"); null where it allows borrows.
 */
export function refusedText(p: PositionSummary, actions: AllowedActions): string | null {
  if (actions.borrow || p.risk_ratio === null) return null;
  const pool = p.pool_name ? `${p.pool_name}'s` : "its pool's";
  const what = actions.withdraw ? 'new borrows' : 'new borrows and withdrawals';
  return `The ratio ${ratio(p.risk_ratio)} is below ${pool} minimum borrow ratio ${ratio(p.risk_params.min_borrow)}: the protocol refuses ${what} there, since each would lower the ratio further, so none is offered here. What raises it: a deposit, a repayment, or a reduce-only close.`;
}

/**
 * The liquidation price after depositing `amount` of the quote asset (as shown), rounded toward
 * the price now at the position's price decimals (its pool's tick's), as main rounds it.
 */
function liquidationAfter(
  h: Holdings,
  prices: PricePair,
  amount: number,
  liquidation: number,
  digits: number | null,
): number | null {
  const after = priceAtRatio(afterDeposit(h, 'quote', amount), prices.quote, liquidation);
  return after === null ? null : liquidationPriceShown(after, prices.base, digits ?? usdPriceDigits(after));
}

/** The longest the chart looks ahead. */
export const PROJECTION_DAYS = 90;

/**
 * The ratio ahead with interest alone at today's prices, from `startMs`: `maxDays` ahead (at most
 * 90), or to when interest liquidates the position if sooner. Empty without debt, prices or a
 * known rate.
 */
export function interestProjection(
  p: PositionSummary,
  startMs: number,
  steps = 45,
  maxDays = PROJECTION_DAYS,
): Array<{ ts_ms: number; ratio: number | null }> {
  const m = modelOf(p);
  if (!m.prices || p.interest.apr === null || (p.debt_base <= 0 && p.debt_quote <= 0)) return [];
  const untilLiq = p.interest.liquidation_in_ms === null ? Infinity : p.interest.liquidation_in_ms / DAY_MS;
  const horizon = Math.min(PROJECTION_DAYS, maxDays, untilLiq);
  if (!(horizon > 0)) return [];
  const days = Array.from({ length: steps + 1 }, (_, i) => (horizon * i) / steps);
  return projectRatio(m.holdings, m.prices, debtRates(p), startMs, days);
}

/** A gap in the readings is at least this long, and this many times their usual interval. */
export const GAP_MIN_MS = 30_000;
export const GAP_INTERVALS = 4;

/**
 * The risk chart's line: each reading's time and ratio, with a break (a point of no ratio) where
 * no reading came for much longer than usual (the app closed, the service away), so a gap is drawn
 * as a gap, never as a straight line across it; `reading` is the index of each point's reading.
 */
export function readingPoints(
  readings: ReadonlyArray<{ ts_ms: number; risk_ratio: number | null }>,
): Array<{ at: number; ratio: number | null; reading: number | null }> {
  const steps = readings
    .slice(1)
    .map((r, i) => r.ts_ms - readings[i]!.ts_ms)
    .sort((a, b) => a - b);
  const usual = steps.length > 0 ? steps[Math.floor(steps.length / 2)]! : 0;
  const gap = Math.max(GAP_MIN_MS, GAP_INTERVALS * usual);
  const out: Array<{ at: number; ratio: number | null; reading: number | null }> = [];
  readings.forEach((r, i) => {
    const before = readings[i - 1];
    if (before && r.ts_ms - before.ts_ms > gap)
      out.push({ at: (before.ts_ms + r.ts_ms) / 2, ratio: null, reading: null });
    out.push({ at: r.ts_ms, ratio: r.risk_ratio, reading: i });
  });
  return out;
}

/** The dashed interest tail takes at most this share of the risk chart's width: the history keeps the rest. */
export const TAIL_SHARE = 0.2;
/** The least span of history the chart shows (a single reading still gets an axis). */
export const MIN_HISTORY_MS = 60_000;

/**
 * The risk chart's time axis: the history from its first reading to the position's valuation
 * (at least a minute of it), and when the interest tail is shown, a fifth of the width more
 * (a quarter of the history's span): the history fills the chart, never a day of flat dashes.
 */
export function riskChartWindow(
  firstMs: number,
  lastMs: number,
  ahead: boolean,
): { fromMs: number; toMs: number; tailMs: number } {
  const fromMs = Math.min(firstMs, lastMs - MIN_HISTORY_MS);
  const tailMs = ahead ? ((lastMs - fromMs) * TAIL_SHARE) / (1 - TAIL_SHARE) : 0;
  return { fromMs, toMs: lastMs + tailMs, tailMs };
}

/**
 * How the ratio moves a day with interest alone at today's prices (negative: it falls), over the
 * next day or to liquidation if sooner; null without debt, prices or a known rate.
 */
export function interestDriftPerDay(p: PositionSummary, startMs: number): number | null {
  const [now, then] = interestProjection(p, startMs, 1, 1);
  if (!now || !then || now.ratio === null || then.ratio === null || then.ts_ms <= now.ts_ms) return null;
  return ((then.ratio - now.ratio) / (then.ts_ms - now.ts_ms)) * DAY_MS;
}

/** A wait in plain words: "5 hours", "1 day", "213 days" (rounded down: it comes no later). */
export function duration(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (ms < 2 * DAY_MS) return hours <= 1 ? 'less than 2 hours' : `${hours} hours`;
  return `${Math.floor(ms / DAY_MS)} days`;
}

/** When interest alone liquidates the position at today's prices, in one sentence. */
export function interestLiquidationText(p: PositionSummary): string | null {
  if (p.debt_base <= 0 && p.debt_quote <= 0) return null;
  if (p.interest.apr === null) return 'The borrow rate is not known: how interest moves the ratio cannot be told.';
  const ms = p.interest.liquidation_in_ms;
  if (ms === null) return "Interest alone does not liquidate it within a year at today's prices.";
  if (ms <= 0) return 'At or below its liquidation ratio now.';
  return `Liquidated by interest alone in ${duration(ms)} at today's prices.`;
}

/** A reward share as a percent: 0.01 -> "1 %", 0.025 -> "2.5 %". */
export const share = (x: number): string => pctSet(x * 100);

/**
 * The cost of doing nothing: what a liquidation at the liquidation price takes, in one sentence,
 * its money the position's own, to the cent as the row writes it (never "$10,518 … of which $525.89").
 */
export function liquidationCostText(p: PositionSummary, own: boolean): string | null {
  const c = p.liquidation_cost;
  if (!c || p.liquidation_price === null) return null;
  const o = { private: own };
  const whose = own ? 'your' : 'its';
  const at = `If nothing is done: at ${usdPrice(p.liquidation_price, p.price_decimals)} (the liquidation price)`;
  const equity = `${whose} equity there, ${positionUsd(c.equity_before_usd, o)}, falls to ${positionUsd(c.equity_after_usd, o)}.`;
  const rewards = `${share(p.risk_params.user_reward)} to the liquidator, ${share(p.risk_params.pool_reward)} to the pool`;
  if (c.defaulted_usd > 0) {
    return `${at} the assets do not cover the debt and its rewards: the liquidators take all ${positionUsd(c.seized_usd, o)} of assets and repay ${positionUsd(c.repaid_usd, o)} of debt, the pool absorbs the other ${positionUsd(c.defaulted_usd, o)}; ${equity}`;
  }
  const fees = c.liquidator_reward_usd + c.pool_reward_usd;
  return `${at} the liquidators repay ${positionUsd(c.repaid_usd, o)} of debt and take ${positionUsd(c.seized_usd, o)} of assets, of which ${positionUsd(fees, o)} are rewards (${rewards}); ${equity}`;
}
