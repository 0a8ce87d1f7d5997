import type { PoolHealth, PositionSummary } from '../../../shared/contract';
import {
  aprText,
  CORE_LOCALE,
  percentText,
  POSITION_USD_DIGITS,
  settingPercentText,
  usdText,
} from '../../../shared/format';
import { pastKink } from '../../../shared/risk-model';
import { positionWords } from './position-text';

/**
 * How far a pool must come back before a crossing is over, in points of utilization and of APR:
 * a pool at 80.5 % that dips to 79.9 % and back, or a rate hovering at the line, alerts once.
 */
export const RATE_HYSTERESIS = 0.02;

/** Why a pool's rate alerts: past its curve's kink, past the user's line, or both. */
export type RateCause = 'kink' | 'line' | 'both';

/** A crossing: the pool as read now, and its rate before it crossed (null: it was first read already past). */
export interface RateCrossing {
  pool: PoolHealth;
  wasApr: number | null;
  cause: RateCause;
  /** The user's line (a fraction a year), or null when none is set. */
  line: number | null;
}

/** What a tracker keeps across a restart: the pools past a line now, and each calm pool's last rate. */
export interface RateTrackerState {
  high: string[];
  calm: Record<string, number>;
}

/**
 * Each margin pool's borrow rate judged against its curve's kink and the user's line
 * (docs/alerts.md "Borrow rates"), in the style of the escalation tracker: a pool becomes *high*
 * as soon as a read is past the kink or at or above the line, and is calm again only once a read
 * is back by `RATE_HYSTERESIS` on both (utilization at most the kink less 2 points, the rate below
 * the line less 2 points). Each rise to high is one crossing, told once.
 */
export class RateTracker {
  private readonly high = new Set<string>();
  /** Each calm pool's rate at its latest read: what a crossing's "was" says. */
  private readonly calm = new Map<string, number>();

  constructor(private readonly hysteresis = RATE_HYSTERESIS) {}

  /** Feed a pool's read, `line` the user's (a fraction a year, null: none); returns the crossing, if this read is one. */
  observe(p: PoolHealth, line: number | null): RateCrossing | null {
    const kink = pastKink(p.curve, p.utilization);
    const over = line !== null && p.borrow_apr >= line;
    const id = p.margin_pool_id;
    if (this.high.has(id)) {
      const clearOfKink = p.utilization <= p.curve.optimal_utilization - this.hysteresis;
      const clearOfLine = line === null || p.borrow_apr < line - this.hysteresis;
      if (clearOfKink && clearOfLine) {
        this.high.delete(id);
        this.calm.set(id, p.borrow_apr);
      }
      return null;
    }
    if (!kink && !over) {
      this.calm.set(id, p.borrow_apr);
      return null;
    }
    this.high.add(id);
    const wasApr = this.calm.get(id) ?? null;
    this.calm.delete(id);
    return { pool: p, wasApr, cause: kink && over ? 'both' : kink ? 'kink' : 'line', line };
  }

  isHigh(poolId: string): boolean {
    return this.high.has(poolId);
  }

  state(): RateTrackerState {
    return { high: [...this.high], calm: Object.fromEntries(this.calm) };
  }

  restore(s: RateTrackerState): void {
    for (const id of Array.isArray(s.high) ? s.high : []) if (typeof id === 'string') this.high.add(id);
    for (const [id, apr] of Object.entries(s.calm ?? {})) if (typeof apr === 'number') this.calm.set(id, apr);
  }
}

const apr = (x: number): string => aprText(x, CORE_LOCALE);
const used = (u: number): string => percentText(u * 100, 0, CORE_LOCALE);
/** At most this many positions are named; the rest are counted. */
const NAMED = 3;

/** What a position's debt in the pool costs a day more at the new rate than at the old (USD), or null when not known. */
export function extraPerDay(p: PositionSummary, poolId: string, fromApr: number, toApr: number): number | null {
  const debt = p.debts.find((d) => d.margin_pool_id === poolId);
  if (!debt || debt.usd === null) return null;
  return (debt.usd * (toApr - fromApr)) / 365;
}

/**
 * A rate alert's words (docs/alerts.md "Borrow rates"): the title says the rate and what it was
 * ("USDC borrow rate 37.20 % (was 12.40 %)"); the message says why (the pool's use against its
 * kink, or the user's line) and what it costs each watched position that borrows there ("your
 * Long 1,000.0000 SUI on SUI_USDC pays about $0.68 a day more"), the largest debts first.
 */
export function rateAlertText(
  c: RateCrossing,
  borrowers: readonly PositionSummary[],
): { title: string; message: string } {
  const p = c.pool;
  const was = c.wasApr === null ? '' : ` (was ${apr(c.wasApr)})`;
  const title = `${p.symbol} borrow rate ${apr(p.borrow_apr)}${was}`;
  const kink = settingPercentText(p.curve.optimal_utilization * 100, CORE_LOCALE);
  const line = c.line === null ? '' : settingPercentText(c.line * 100, CORE_LOCALE);
  const why =
    c.cause === 'line'
      ? `the rate passed your ${line} line; the pool is ${used(p.utilization)} used (its kink is at ${kink})`
      : `the pool is ${used(p.utilization)} used, past its ${kink} kink${c.cause === 'both' ? ` and your ${line} line` : ''}`;
  const from = c.wasApr ?? p.kink_apr;
  const cost = (b: PositionSummary): number => b.debts.find((d) => d.margin_pool_id === p.margin_pool_id)?.usd ?? 0;
  const sorted = [...borrowers].sort((a, b) => cost(b) - cost(a));
  const named = sorted.slice(0, NAMED).map((b) => {
    const more = extraPerDay(b, p.margin_pool_id, from, p.borrow_apr);
    const pays =
      more === null
        ? 'pays more'
        : more > 0
          ? // The position's own money, to the cent whatever its size, as its digest line writes its interest.
            `pays about ${usdText(more, CORE_LOCALE, POSITION_USD_DIGITS)} a day more`
          : 'pays about the same';
    return `your ${positionWords(b)} ${pays}`;
  });
  const rest = sorted.length - named.length;
  const whom =
    named.length === 0
      ? ''
      : `; ${named.join(', ')}${rest > 0 ? `, and ${rest} more position${rest === 1 ? '' : 's'}` : ''}`;
  const steep = `Past the kink each point of use adds ${settingPercentText(p.curve.excess_slope, CORE_LOCALE)} a year${c.wasApr === null ? `; at the kink the rate is ${apr(p.kink_apr)}` : ''}.`;
  return {
    title,
    message: `${title}: ${why}${whom}. ${steep} Check what you owe in ${p.symbol}: repaying it, or adding collateral, keeps the interest from eating your margin.`,
  };
}
