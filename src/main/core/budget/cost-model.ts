import type { CreditForecast } from '../../../shared/contract';
import { CORE_LOCALE, countText, intervalText } from '../../../shared/format';
import { DAYS_PER_MONTH, ESTIMATED_CREDITS, STREAM_CREDITS_PER_KB, type Plan } from '../../../shared/credit-prices';
import type { PacedRead } from './budget-pacer';

/**
 * What the margin stream is assumed to cost until it is measured: its heartbeats alone
 * (": ping" every 15 s, ~45 KB a day) and a few events, about 50 credits a day on the Demo network.
 */
export const MARGIN_STREAM_PRIOR_PER_DAY = 50;
const DAY_MS = 86_400_000;
const KB = 1024;

export interface CostInputs {
  plan: { name: string; plan: Plan | null };
  /** The month's budget in credits (Settings, else the plan's), or null. */
  budget: number | null;
  /** The margin stream's measured bytes per second, or null while not measured. */
  marginStreamRate: number | null;
  /** The price reads as scheduled now (after the budget's pacing). */
  prices: readonly PacedRead[];
  /** Owners watched (each costs a margin-managers and an active-supplies request per records read). */
  owners: number;
  /** Credits of one read of every watched owner's records (recordsReadCredits, or the protocol-wide list's). */
  recordsCredits: number;
  /** How often the records are read on the timer; null: never on a timer. */
  recordsEveryMs: number | null;
  /** Each owner's record reads for its managers' events, at their measured (and paced) interval. */
  events: readonly PacedRead[];
  /** Pool streams open now (a page shows them) and their measured bytes per second (null: not yet). */
  poolStreams: ReadonlyArray<{ pool: string; rate: number | null }>;
}

/** Credits of one read of every watched owner's records (managers and supplies, one page each). */
export const recordsReadCredits = (owners: number): number => owners * 2 * ESTIMATED_CREDITS;

const round = (x: number): number => Math.round(x);

/**
 * The cost model (docs/credits.md "What it costs"): credits a day at the current settings, from
 * the reads the guard has scheduled (their published prices), the margin stream's measured volume
 * (1 credit per KB) and the record reads events caused. A pool stream costs only while its page
 * is shown: it is given per hour, beside the day's figure, not in it.
 */
export function forecast(i: CostInputs): CreditForecast {
  const lines: CreditForecast['lines'] = [];
  const stream =
    i.marginStreamRate === null
      ? MARGIN_STREAM_PRIOR_PER_DAY
      : ((i.marginStreamRate * 86_400) / KB) * STREAM_CREDITS_PER_KB;
  lines.push({
    what: 'Margin stream (always open: the liquidation alarm)',
    perDay: round(stream),
    detail:
      i.marginStreamRate === null
        ? 'assumed until measured'
        : `${countText((i.marginStreamRate * 86_400) / KB, CORE_LOCALE)} KB a day, measured`,
  });
  for (const r of i.prices) {
    const perDay = r.intervalMs === Infinity ? 0 : (DAY_MS / r.intervalMs) * r.credits;
    lines.push({
      what: `${r.id} price`,
      perDay: round(perDay),
      detail:
        r.intervalMs === Infinity
          ? 'not read: the budget is spent'
          : `every ${everyText(r.intervalMs)}, ${r.credits} credits a read`,
    });
  }
  if (i.owners > 0) {
    const perRead = i.recordsCredits;
    const timer =
      i.recordsEveryMs === null || i.recordsEveryMs === Infinity ? 0 : (DAY_MS / i.recordsEveryMs) * perRead;
    lines.push({
      what: 'Margin records (loans, deposits, supplies)',
      perDay: round(timer),
      detail:
        i.recordsEveryMs === null || i.recordsEveryMs === Infinity
          ? 'not on a timer'
          : `every ${everyText(i.recordsEveryMs)}, ${perRead} credits a read (${i.owners} wallet${i.owners === 1 ? '' : 's'})`,
    });
    const eventReads = i.events.reduce((a, e) => a + DAY_MS / e.intervalMs, 0);
    const eventCredits = i.events.reduce((a, e) => a + (DAY_MS / e.intervalMs) * e.credits, 0);
    if (eventReads >= 1)
      lines.push({
        what: "Records read again for watched managers' events",
        perDay: round(eventCredits),
        detail: `about ${countText(eventReads, CORE_LOCALE)} a day (an owner's lists and its prices), measured`,
      });
  }
  const perDay = lines.reduce((a, l) => a + l.perDay, 0);
  const planDay = i.plan.plan ? i.plan.plan.monthlyCredits / DAYS_PER_MONTH : null;
  const pools = i.poolStreams.map((p) => ({
    pool: p.pool,
    perHour: p.rate === null ? null : round(((p.rate * 3600) / KB) * STREAM_CREDITS_PER_KB),
  }));
  return {
    perDay,
    lines,
    plan: i.plan.name,
    planLabel: i.plan.plan?.label ?? 'Custom',
    planMonthlyCredits: i.plan.plan?.monthlyCredits ?? null,
    shareOfPlanDay: planDay ? perDay / planDay : null,
    budget: i.budget,
    shareOfBudgetDay: i.budget ? perDay / (i.budget / DAYS_PER_MONTH) : null,
    poolStreams: pools,
  };
}

/** "45 s", "5 min", "2.5 h" (shared/format.ts `intervalText`). */
export function everyText(ms: number): string {
  return intervalText(ms, CORE_LOCALE);
}
