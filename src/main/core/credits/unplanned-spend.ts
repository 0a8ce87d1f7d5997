const DAY_MS = 86_400_000;

/** The spend beyond the plan is measured in windows this long... */
export const UNPLANNED_BUCKET_MS = 5 * 60_000;
/** ...over the last this many of them... */
export const UNPLANNED_BUCKETS = 6;
/** ...and nothing is reserved before this many are measured whole. */
export const UNPLANNED_MIN_BUCKETS = 3;

interface Sample {
  at: number;
  /** Request credits counted so far this month. */
  spent: number;
  /** Credits the plans in force would have spent by then (their credits a day, integrated). */
  planned: number;
}

/**
 * Credits the requests spend beyond what the read plan expects, as a steady rate (docs/credits.md
 * "Budget"): reads outside the schedule (a pool's price read at once for other traders'
 * liquidations, a page's lookups) and event reads above their measured rate. The budget reserves
 * it before it paces the scheduled reads, so the day ends inside the plan whatever was not
 * planned. A rate, not a sum: the median of the last five-minute windows' excess, so a one-off
 * (the start's reads, every wallet's records read at once) is not taken for a day's rate.
 */
export class UnplannedSpend {
  private samples: Sample[] = [];

  /**
   * At `at`, `spent` request credits were counted this month; the plan in force since the last
   * note expected `plannedPerDay` a day of them (the budget is asked before each new plan).
   */
  note(at: number, spent: number, plannedPerDay: number): void {
    const last = this.samples.at(-1);
    // A new month's count starts again from nothing: so does the measure.
    if (last && (spent < last.spent || at < last.at)) this.samples = [];
    const prev = this.samples.at(-1);
    const planned = prev ? prev.planned + (plannedPerDay * (at - prev.at)) / DAY_MS : 0;
    this.samples.push({ at, spent, planned });
    // One sample at or before the oldest window's start is kept: every window is measured whole.
    const from = at - UNPLANNED_BUCKETS * UNPLANNED_BUCKET_MS;
    while (this.samples.length > 2 && this.samples[1]!.at <= from) this.samples.shift();
  }

  /** Credits a day spent beyond the plans: the median window's (0 until UNPLANNED_MIN_BUCKETS are measured). */
  perDay(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last) return 0;
    const whole = Math.min(UNPLANNED_BUCKETS, Math.floor((last.at - first.at) / UNPLANNED_BUCKET_MS));
    if (whole < UNPLANNED_MIN_BUCKETS) return 0;
    const excess: number[] = [];
    for (let k = 0; k < whole; k++) {
      const end = this.at(last.at - k * UNPLANNED_BUCKET_MS);
      const start = this.at(last.at - (k + 1) * UNPLANNED_BUCKET_MS);
      excess.push(end.spent - start.spent - (end.planned - start.planned));
    }
    excess.sort((a, b) => a - b);
    const mid = excess.length / 2;
    const median = excess.length % 2 ? excess[Math.floor(mid)]! : (excess[mid - 1]! + excess[mid]!) / 2;
    return Math.max(0, (median / UNPLANNED_BUCKET_MS) * DAY_MS);
  }

  /** The counts at `t`, between the samples around it (spent and planned grow steadily between notes). */
  private at(t: number): Omit<Sample, 'at'> {
    const s = this.samples;
    let i = s.length - 1;
    while (i > 0 && s[i - 1]!.at >= t) i--;
    const b = s[i]!;
    const a = s[i - 1];
    if (!a || b.at <= t || b.at === a.at) return b;
    const f = (t - a.at) / (b.at - a.at);
    return { spent: a.spent + f * (b.spent - a.spent), planned: a.planned + f * (b.planned - a.planned) };
  }
}
