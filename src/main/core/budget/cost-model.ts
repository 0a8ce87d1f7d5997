import type { CreditForecast, ReadPlan } from '../../../shared/contract';
import { CORE_LOCALE, countText, intervalText } from '../../../shared/format';
import {
  DAYS_PER_MONTH,
  ESTIMATED_CREDITS,
  priceOf,
  STREAM_CREDITS_PER_KB,
  type Plan,
} from '../../../shared/credit-prices';
import type { PacedRead } from './budget-pacer';

/**
 * What the margin stream is assumed to cost until it is measured: its heartbeats alone
 * (": ping" every 15 s, ~45 KB a day) and a few events, about 50 credits a day on the Demo network.
 */
export const MARGIN_STREAM_PRIOR_PER_DAY = 50;
const DAY_MS = 86_400_000;
const KB = 1024;

/** Credits of one read of every margin pool (`/dex-margin/pools`, pool health: not on the published list, the meter's estimate). */
export const POOLS_READ_CREDITS = priceOf('/dex-margin/pools').credits;

export interface CostInputs {
  plan: { name: string; plan: Plan | null };
  /** The month's budget in credits (Settings, else the plan's), or null. */
  budget: number | null;
  /** The margin stream's measured bytes per second, or null while not measured. */
  marginStreamRate: number | null;
  /**
   * The reads counted (after the budget's pacing): each price at its interval, the margin
   * records on their timer; the plan the status bar shows (price-schedule.ts `readPlanOf`).
   */
  reads: ReadPlan;
  /** Credits of one price read. */
  priceCredits: number;
  /** Owners watched (each costs a margin-managers and an active-supplies request per records read). */
  owners: number;
  /** Credits of one read of every watched owner's records (recordsReadCredits, or the protocol-wide list's). */
  recordsCredits: number;
  /** Credits of one read of the protocol's loans for the liquidation map (its pages as last read); absent: not read. */
  liquidationsCredits?: number;
  /**
   * Each owner's record reads for its managers' events, at their measured (and paced) interval;
   * on the Demo network already as at speed 1 (`demoEvents`).
   */
  events: readonly PacedRead[];
  /**
   * Pool streams open now (a page shows them, or the guard holds them for a position in danger)
   * and their measured bytes per second (null: not yet). `barred`: open here, but the plan would
   * not open it on the data service (the Demo network's forecast), in a few words why.
   */
  /**
   * Pool streams open now: `rate` their bytes a second as measured, `paced` the part of it the Demo
   * network sends at its own pace whatever its speed (the book, 4 a second: not divided by the speed).
   */
  poolStreams: ReadonlyArray<{
    pool: string;
    rate: number | null;
    paced?: number | null;
    guard?: boolean;
    barred?: string;
  }>;
  /**
   * The guard's pool stream (docs/credits.md "In danger: the pool's stream"): what one is assumed
   * to cost an hour until measured, and why the plan never opens one (its streams are the margin
   * stream's), or null when it may.
   */
  guardStream?: { assumedPerHour: number; never: string | null };
  /**
   * Credits a day the guard's pool streams may take in all (the day's allowance less the margin
   * stream and the reads: risk/danger-pricing.ts `streamRoomPerDay`); they close once it is spent.
   * Absent or null: no budget bounds them.
   */
  guardRoomPerDay?: number | null;
  /**
   * The Demo network's speed, or null on the service. Its market runs that many times faster
   * than real time, so the streams' bytes come that much oftener: the measured rates are divided
   * by it, the forecast is as at speed 1.
   */
  demoSpeed?: number | null;
}

/** The Demo network's event reads as at speed 1: its events come `speed` times as often as a real market's. */
export function demoEvents(events: readonly PacedRead[], speed: number): PacedRead[] {
  return events.map((e) => ({ ...e, intervalMs: e.intervalMs * speed }));
}

/** The pages of each protocol-wide list of the records, where known (risk/records-source.ts learns them). */
export interface ProtocolPages {
  /** `/dex-margin/margin-managers`: every manager of every owner, with its loans and deposit. */
  managers?: number;
  /** `/dex-margin/active-supplies`: every supply, with its supplier cap's owner. */
  supplies?: number;
}

/**
 * Credits of one read of `owners` watched owners' records (docs/credits.md "What is read"): each
 * of the two lists (managers, supplies) a page per owner, or its protocol-wide pages where known
 * and fewer. A desk of 100 wallets of the Demo network (seed 7, `--margin-owners 100`: 1,196
 * managers in 24 pages, 111 supplies in 3) reads 27 pages, 270 credits, where per owner it reads
 * 200, 2,000 credits.
 */
export function recordsReadCredits(owners: number, protocol: ProtocolPages = {}): number {
  const pages = (known: number | undefined): number => (known === undefined ? owners : Math.min(known, owners));
  return (pages(protocol.managers) + pages(protocol.supplies)) * ESTIMATED_CREDITS;
}

const round = (x: number): number => Math.round(x);

/**
 * The cost model (docs/credits.md "What it costs"): credits a day at the current settings, from
 * the reads the guard has scheduled (their published prices), the margin stream's measured volume
 * (1 credit per KB), the record reads events caused, and each guard stream open now as if it
 * stayed open all day; a pool page's stream has its own line per hour, apart from the day's figure
 * (it closes with the page). Without a guard stream open, a
 * line says what one would cost while a position is in danger, or why the plan never opens one.
 */
export function forecast(i: CostInputs): Omit<CreditForecast, 'preview' | 'demo'> {
  const speed = i.demoSpeed ?? 1;
  const atSpeed = speed === 1 ? '' : ` at speed ${speed} and divided by ${speed}`;
  const lines: CreditForecast['lines'] = [];
  const kbPerDay = i.marginStreamRate === null ? null : (i.marginStreamRate * 86_400) / KB / speed;
  lines.push({
    what: 'Margin stream (always open: the liquidation alarm)',
    perDay: round(kbPerDay === null ? MARGIN_STREAM_PRIOR_PER_DAY : kbPerDay * STREAM_CREDITS_PER_KB),
    detail:
      kbPerDay === null ? 'assumed until measured' : `${countText(kbPerDay, CORE_LOCALE)} KB a day, measured${atSpeed}`,
  });
  const slowed = (yes: boolean): string => (yes ? ' (slowed for the budget)' : '');
  for (const r of i.reads.prices) {
    lines.push({
      what: `${r.symbol} price`,
      perDay: r.everyMs === null ? 0 : round((DAY_MS / r.everyMs) * i.priceCredits),
      detail:
        r.everyMs === null
          ? 'not read: the budget is spent'
          : `every ${everyText(r.everyMs)}, ${i.priceCredits} credits a read${slowed(r.slowed)}`,
    });
  }
  if (i.owners > 0) {
    const perRead = i.recordsCredits;
    const every = i.reads.recordsEveryMs;
    lines.push({
      what: 'Margin records (loans, deposits, supplies)',
      perDay: every === null ? 0 : round((DAY_MS / every) * perRead),
      detail:
        every === null
          ? 'not on a timer'
          : `every ${everyText(every)}, ${perRead} credits a read (${i.owners} wallet${i.owners === 1 ? '' : 's'})${slowed(i.reads.recordsSlowed)}`,
    });
    const eventReads = i.events.reduce((a, e) => a + DAY_MS / e.intervalMs, 0);
    const eventCredits = i.events.reduce((a, e) => a + (DAY_MS / e.intervalMs) * e.credits, 0);
    if (eventReads >= 1)
      lines.push({
        what: "Records read again for watched managers' events",
        perDay: round(eventCredits),
        detail: `about ${countText(eventReads, CORE_LOCALE)} a day (an owner's lists; prices are the schedule's), measured${atSpeed}`,
      });
  }
  if (i.reads.poolsEveryMs !== undefined) {
    const every = i.reads.poolsEveryMs;
    lines.push({
      what: "Margin pools' rates and utilization (pool health)",
      perDay: every === null ? 0 : round((DAY_MS / every) * POOLS_READ_CREDITS),
      detail:
        every === null
          ? 'not read: the budget is spent'
          : `every ${everyText(every)}, ${POOLS_READ_CREDITS} credits a read (every pool at once)${slowed(i.reads.poolsSlowed === true)}`,
    });
  }
  if (i.reads.liquidationsEveryMs !== undefined && i.liquidationsCredits !== undefined) {
    const every = i.reads.liquidationsEveryMs;
    const credits = i.liquidationsCredits;
    lines.push({
      what: 'Liquidation map (every loan of the protocol)',
      perDay: every === null ? 0 : round((DAY_MS / every) * credits),
      detail:
        every === null
          ? 'not read: the budget is spent'
          : `every ${everyText(every)}, ${countText(credits, CORE_LOCALE)} credits a read (${countText(credits / ESTIMATED_CREDITS, CORE_LOCALE)} pages of loans)${slowed(i.reads.liquidationsSlowed === true)}`,
    });
  }
  const pools = i.poolStreams.map((p) => ({
    pool: p.pool,
    guard: p.guard === true,
    perHour:
      p.rate === null ? null : round((asAtSpeed1(p.rate, p.paced ?? 0, speed) * 3600 * STREAM_CREDITS_PER_KB) / KB),
  }));
  const assumed = i.guardStream?.assumedPerHour ?? null;
  const guardLines: CreditForecast['lines'] = [];
  i.poolStreams.forEach((p, k) => {
    const measured = pools[k]!.perHour;
    const open = p.guard ? 'open while it guards a watched position in danger' : 'open while its page is shown';
    if (p.barred !== undefined) {
      // What it would cost where the plan holds it, as measured here: the figure a trader choosing a plan looks for.
      const would =
        measured === null ? '' : ` (where a plan holds it: about ${countText(measured, CORE_LOCALE)} credits an hour)`;
      lines.push({ what: `${p.pool} pool stream`, perDay: 0, detail: `${open} here; ${p.barred}${would}` });
      return;
    }
    const hour = measured ?? assumed;
    // Its book comes at every checkpoint whatever the speed: only its trades are divided (`asAtSpeed1`).
    const poolAtSpeed = speed === 1 || !(p.paced ?? 0) ? atSpeed : ` at speed ${speed}, its trades divided by ${speed}`;
    const how = hour === null ? '' : `, ${measured === null ? 'assumed until measured' : `measured${poolAtSpeed}`}`;
    if (!p.guard) {
      // A page's stream is the trader's doing, open while the page is: per hour, apart from the
      // day's figure (a review's pool page left open in a tab read as 671 % of the Builder plan).
      lines.push({
        what: `${p.pool} pool stream`,
        perDay: 0,
        perHour: measured,
        detail:
          measured === null
            ? `${open}: its cost is being measured; not in the day's total`
            : `${open}${how}; not in the day's total: it closes with the page`,
      });
      return;
    }
    lines.push({
      what: `${p.pool} pool stream`,
      perDay: hour === null ? 0 : round(hour * 24),
      detail:
        hour === null
          ? `${open}: its cost is being measured`
          : `${open}: about ${countText(hour, CORE_LOCALE)} credits an hour${how}, counted as if open all day`,
    });
    guardLines.push(lines.at(-1)!);
  });
  capGuardLines(guardLines, i.guardRoomPerDay ?? null);
  // A guard stream open here has its line (open, or why the plan would not hold it): no second one.
  if (i.guardStream && !i.poolStreams.some((p) => p.guard)) {
    const never = i.guardStream.never;
    lines.push({
      what: 'Pool stream for a position in danger',
      perDay: 0,
      detail:
        never !== null
          ? `never opened on this plan: ${never}`
          : `none open: one opens on the pool of a watched position in danger when a stream and the budget allow it, about ${countText(i.guardStream.assumedPerHour, CORE_LOCALE)} credits an hour while open`,
    });
  }
  const perDay = lines.reduce((a, l) => a + l.perDay, 0);
  const planDay = i.plan.plan ? i.plan.plan.monthlyCredits / DAYS_PER_MONTH : null;
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
    reads: i.reads,
  };
}

/**
 * A Demo network pool stream's bytes a second as at speed 1: its trades come `speed` times as
 * often as at speed 1, its book at every checkpoint whatever the speed (SUI_USDC, 60 s each:
 * 11.3 KB/s at speed 1, 16.1 KB/s at speed 20, the book 240 events at both, the trades 20 and
 * 271), so only the trades' part is divided.
 */
export function asAtSpeed1(rate: number, paced: number, speed: number): number {
  const book = Math.min(rate, Math.max(0, paced));
  return book + (rate - book) / speed;
}

/** "45 s", "5 min", "2.5 h" (shared/format.ts `intervalText`). */
export function everyText(ms: number): string {
  return intervalText(ms, CORE_LOCALE);
}

/**
 * The guard's streams close once what the day leaves them is spent (risk/danger-pricing.ts
 * `streamsAffordable`): together they are forecast at most `room` a day, each its share of it.
 */
function capGuardLines(lines: CreditForecast['lines'], room: number | null): void {
  const asked = lines.reduce((a, l) => a + l.perDay, 0);
  if (room === null || asked <= room) return;
  for (const l of lines) {
    l.perDay = round((l.perDay * room) / asked);
    l.detail = l.detail.replace(
      /, counted as if open all day$/,
      `, open only while the day's budget leaves an hour of it: ${countText(room, CORE_LOCALE)} a day for the guard's streams`,
    );
  }
}
