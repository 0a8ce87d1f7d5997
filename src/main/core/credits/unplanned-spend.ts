const DAY_MS = 86_400_000;

/** The spend beyond the plan is measured over this trailing window. */
export const UNPLANNED_WINDOW_MS = 20 * 60_000;
/** Nothing is reserved before this much of it is measured (the start's reads are not a day's). */
export const UNPLANNED_MIN_MS = 2 * 60_000;

interface Sample {
  at: number;
  /** Request credits counted so far this month. */
  spent: number;
  /** Credits the plans in force would have spent by then (their credits a day, integrated). */
  planned: number;
}

/**
 * Credits the requests spend beyond what the read plan expects (docs/credits.md "Budget"): the
 * reads outside the schedule (a pool's price read at once for other traders' liquidations, a
 * page's lookups, candles), and the event reads while their rate is still being measured. The
 * budget reserves this spend, measured over the last UNPLANNED_WINDOW_MS, before it paces the
 * scheduled reads, so the day ends inside the plan whatever was not planned.
 */
export class UnplannedSpend {
  private samples: Sample[] = [];

  constructor(
    private readonly windowMs = UNPLANNED_WINDOW_MS,
    private readonly minMs = UNPLANNED_MIN_MS,
  ) {}

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
    // One sample at or before the window's start is kept: the window is measured whole.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** Credits a day spent beyond the plans over the window (0 until UNPLANNED_MIN_MS of it is measured). */
  perDay(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < this.minMs) return 0;
    const beyond = last.spent - first.spent - (last.planned - first.planned);
    return Math.max(0, (beyond / (last.at - first.at)) * DAY_MS);
  }
}
