import type { CreditUsage } from '../../../shared/contract';
import { priceOf, STREAM_CREDITS_PER_KB } from '../../../shared/credit-prices';
import type { CoreBus } from '../events';

/** What is kept between runs (the store's settings): counts of the current day and month. */
export interface CreditCounts {
  /** Local calendar day (YYYY-MM-DD) and month (YYYY-MM) the counts are of. */
  day: string;
  month: string;
  today: number;
  thisMonth: number;
  /** Of thisMonth: counted at an estimate (endpoints without a published price). */
  estimated: number;
  /** Of thisMonth: KB received on streams. */
  streamedKb: number;
  /** Of today: KB received on pool streams (a page's or the guard's; absent in counts kept before it was). */
  poolKbToday?: number;
}

export interface CreditMeterDeps {
  load(): CreditCounts | undefined;
  save(counts: CreditCounts): void;
  /** The monthly budget (Settings), or null: none. */
  budget(): number | null;
  /**
   * Publishes usage reaching `share` (0.8, then 1) of the month's budget (`creditBudgetReached`):
   * once per month, budget and share, and only the higher share when both are reached at once (a
   * budget set below what is spent); and that the counts changed (`creditsCounted`, at most every
   * PUBLISH_EVERY_MS).
   */
  events: Pick<CoreBus, 'emit'>;
  now?: () => Date;
}

/** Where the counts are kept (the store's settings). */
export const CREDITS_KEY = 'credits.usage';

/** Counts are written at most this often (and at close); the status is told at most this often. */
export const SAVE_EVERY_MS = 5_000;
export const PUBLISH_EVERY_MS = 2_000;
/** Streamed bytes are counted this often (a budget crossing is seen at most this late). */
export const STREAM_TALLY_MS = 1_000;

/** The shares of the monthly budget that warn, lowest first. */
const BUDGET_SHARES = [0.8, 1] as const;

const pad = (n: number): string => String(n).padStart(2, '0');
const dayOf = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const monthOf = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;

/**
 * The credit meter: every answered request at its published price and every KB a
 * stream delivers, counted for today and this month (local calendar; the service's billing cycle
 * starts on the plan's anniversary, so the month is a close reading, not the invoice). Kept in
 * the store, so a restart continues the count. The service's own dashboard is the authority.
 */
export class CreditMeter {
  private counts: CreditCounts;
  /** `month:budget:share` already warned of in this run. */
  private readonly warned = new Set<string>();
  private streamBytes = 0;
  /** Of streamBytes: a pool stream's. */
  private poolBytes = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  private publishTimer: NodeJS.Timeout | undefined;
  private tallyTimer: NodeJS.Timeout | undefined;
  private readonly now: () => Date;

  constructor(private readonly d: CreditMeterDeps) {
    this.now = d.now ?? (() => new Date());
    this.counts = this.rolled(d.load());
  }

  /** One answered request (charged whether or not its answer was usable). */
  noteRequest(specPath: string): void {
    const price = priceOf(specPath);
    this.add(price.credits, price.estimated ? price.credits : 0, 0);
  }

  /**
   * Bytes received on a stream: a credit per whole KB, the rest carried to the next bytes. Each
   * read only adds them up; they are counted (the month, the budget, a date) at most every
   * STREAM_TALLY_MS and whenever usage is read: counted per read, that work stood in front of
   * every event the read brought, a watched liquidation's alert among them (docs/operations.md, A
   * liquidation's way to its alert).
   */
  noteStreamBytes(bytes: number, pool = false): void {
    this.streamBytes += bytes;
    if (pool) this.poolBytes += bytes;
    this.tallyTimer ??= setTimeout(() => this.tallyStream(), STREAM_TALLY_MS).unref();
  }

  private tallyStream(): void {
    if (this.tallyTimer) clearTimeout(this.tallyTimer);
    this.tallyTimer = undefined;
    const kb = Math.floor(this.streamBytes / 1024);
    if (kb === 0) return;
    this.streamBytes -= kb * 1024;
    const poolKb = Math.min(kb, Math.floor(this.poolBytes / 1024));
    this.poolBytes -= poolKb * 1024;
    this.add(kb * STREAM_CREDITS_PER_KB, 0, kb, poolKb);
  }

  /** Credits the pool streams took today (the guard's streams share what the day's budget leaves). */
  poolStreamsToday(): number {
    this.tallyStream();
    return (this.rolled(this.counts).poolKbToday ?? 0) * STREAM_CREDITS_PER_KB;
  }

  usage(): CreditUsage {
    this.tallyStream();
    return this.snapshot();
  }

  /** The counts as they stand, without first counting the bytes streamed since the last tally. */
  private snapshot(): CreditUsage {
    const c = this.rolled(this.counts);
    return {
      today: c.today,
      thisMonth: c.thisMonth,
      month: c.month,
      estimated: c.estimated,
      streamedKb: c.streamedKb,
      budget: this.d.budget(),
    };
  }

  /** Write what is counted (at close). */
  flush(): void {
    this.tallyStream();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = undefined;
    this.d.save(this.counts);
  }

  /**
   * Warn when this month's spending has reached 80 % or 100 % of the budget and that was not yet
   * said for this month and budget: after each count, and when the budget changes (a budget set
   * at or below what is already spent warns at once, not at the next crossing that never comes).
   * A restart says it again only to the store, which keeps one alert per month, share and budget.
   */
  checkBudget(): void {
    const budget = this.d.budget();
    if (budget === null || budget <= 0) return;
    const c = (this.counts = this.rolled(this.counts));
    const reached = BUDGET_SHARES.filter((share) => c.thisMonth >= budget * share);
    const highest = reached.at(-1);
    if (highest === undefined) return;
    const key = (share: number): string => `${c.month}:${budget}:${share}`;
    if (this.warned.has(key(highest))) return;
    for (const share of reached) this.warned.add(key(share));
    this.d.events.emit('creditBudgetReached', { share: highest, usage: this.snapshot() });
  }

  private add(credits: number, estimated: number, kb: number, poolKb = 0): void {
    const c = (this.counts = this.rolled(this.counts));
    c.today += credits;
    if (poolKb > 0) c.poolKbToday = (c.poolKbToday ?? 0) + poolKb;
    c.thisMonth += credits;
    c.estimated += estimated;
    c.streamedKb += kb;
    this.checkBudget();
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      this.d.save(this.counts);
    }, SAVE_EVERY_MS).unref();
    this.publishTimer ??= setTimeout(() => {
      this.publishTimer = undefined;
      this.d.events.emit('creditsCounted');
    }, PUBLISH_EVERY_MS).unref();
  }

  /** The counts, started again for a new day or month. */
  private rolled(c: CreditCounts | undefined): CreditCounts {
    const now = this.now();
    const day = dayOf(now);
    const month = monthOf(now);
    if (!c || c.month !== month)
      return { day, month, today: 0, thisMonth: 0, estimated: 0, streamedKb: 0, poolKbToday: 0 };
    if (c.day !== day) return { ...c, day, today: 0, poolKbToday: 0 };
    return c;
  }
}
