/**
 * Budget mode (docs/credits.md "Budget"): given the month's budget and what is spent, the reads
 * are paced so the month ends inside it. What may be spent per day from now on is what is left
 * of the budget over the days left in the month; the margin stream (the liquidation alarm) is
 * never cut, so its cost comes first. When the scheduled reads would spend more, their intervals
 * are stretched, the least urgent most: an interval I becomes I * f^w, w from 1 (read every
 * `maxMs` or less often: far from any threshold) down to 0.25 (every `minMs`: at a threshold).
 * The smallest f that fits is taken; with nothing left to spend the reads stop (f = Infinity),
 * but for those with a longest interval of their own (`maxMs`: the margin records, once a day).
 */
export interface PacedRead {
  /** What is read, for what the user is told ("SUI price", "margin records"). */
  id: string;
  /** The interval the guard asks for, before pacing. */
  intervalMs: number;
  /** Credits one read costs. */
  credits: number;
  /** The longest the budget may stretch it to (the records' interest drift: a day). */
  maxMs?: number;
}

export interface PaceBounds {
  minMs: number;
  maxMs: number;
}

const DAY_MS = 86_400_000;
/** Weight of the most urgent reads: they are stretched as f^0.25 (f = 16 doubles them). */
const MIN_WEIGHT = 0.25;

/** How much a read of interval `ms` is stretched by pacing: 1 for the least urgent, MIN_WEIGHT for the most. */
export function urgencyWeight(ms: number, b: PaceBounds): number {
  if (ms >= b.maxMs) return 1;
  if (ms <= b.minMs) return MIN_WEIGHT;
  return MIN_WEIGHT + (1 - MIN_WEIGHT) * (Math.log(ms / b.minMs) / Math.log(b.maxMs / b.minMs));
}

/** The interval of a read under pace factor `f` (at most its `maxMs`, when it has one). */
export function pacedIntervalMs(ms: number, f: number, b: PaceBounds, maxMs = Infinity): number {
  return f === 1 ? ms : Math.min(Math.max(ms, maxMs), ms * f ** urgencyWeight(ms, b));
}

/** Credits a day the reads spend under pace factor `f`. */
export function readsPerDay(reads: readonly PacedRead[], f: number, b: PaceBounds): number {
  let sum = 0;
  for (const r of reads) sum += (DAY_MS / pacedIntervalMs(r.intervalMs, f, b, r.maxMs)) * r.credits;
  return sum;
}

/**
 * The smallest pace factor (>= 1) with which `fixedPerDay` plus the reads fit `allowedPerDay`;
 * Infinity when even the fixed costs use it all.
 */
export function paceFactor(
  reads: readonly PacedRead[],
  fixedPerDay: number,
  allowedPerDay: number,
  b: PaceBounds,
): number {
  const room = allowedPerDay - fixedPerDay;
  if (readsPerDay(reads, 1, b) <= room) return 1;
  if (!(room > 0)) return Infinity;
  let lo = 1;
  let hi = 2;
  while (readsPerDay(reads, hi, b) > room) {
    hi *= 2;
    if (hi > 1e9) return Infinity;
  }
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (readsPerDay(reads, mid, b) > room) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * What may be spent per day from `now`: what is left of the budget over the days left in the
 * month, and never more than a 31st of the budget. The cap matters: the service's billing month
 * starts on the plan's anniversary, which Tidewatch does not know, so a calendar month's unspent
 * credits may already be a new billing month's; a day's share keeps any 31 days inside the budget.
 */
export function allowedPerDay(budget: number, spentThisMonth: number, now: Date): number {
  const end = new Date(now.getFullYear(), now.getMonth() + 1, 1).getTime();
  const daysLeft = Math.max((end - now.getTime()) / DAY_MS, 1 / 24);
  return Math.min(budget / 31, Math.max(0, budget - spentThisMonth) / daysLeft);
}
