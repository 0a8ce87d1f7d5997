import type { PacedRead } from '../budget/budget-pacer';

/** Events come in bursts: an owner's records are read this long after the first of them. */
export const EVENT_SOON_MS = 300;
/** However short the budget, an owner's event is read within this long (as the records' own timer). */
export const EVENT_READ_MAX_GAP_MS = 3 * 3_600_000;
/**
 * Event rates are measured over at least this long: a few events in the first minute are not a
 * day's rate, so until then they are spread over it (the rate taken low; what it misses, the
 * budget reserves as spend beyond the plan, credits/unplanned-spend.ts). History a first start
 * replays is not counted at all (streams/margin-dispatch.ts).
 */
const MIN_MEASURED_MS = 10 * 60_000;

interface OwnerEvents {
  events: number;
  lastReadAt: number;
}

/**
 * The record reads that events of watched managers cause, per owner: how often they came (the
 * cost model and the budget pace them like the other reads, docs/credits.md "Budget"), and when
 * an owner's records may be read again. Unpaced, an owner is read 300 ms after an event of one of
 * its managers; paced, no sooner than the budget's gap after its last read, so a busy wallet's
 * events are taken together instead of each costing a read.
 */
export class EventReads {
  private readonly owners = new Map<string, OwnerEvents>();
  private readonly startedAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  /** An event of one of the owner's managers arrived. */
  noteEvent(owner: string): void {
    this.entry(owner).events++;
  }

  /** The owner's records were read (for an event, or with every wallet's). */
  noteRead(owner: string, at = this.now()): void {
    this.entry(owner).lastReadAt = at;
  }

  /** When the owner's records may be read for an event, with `gapMs` the budget's least time between two. */
  dueAt(owner: string, gapMs: number): number {
    return Math.max(this.now() + EVENT_SOON_MS, (this.owners.get(owner)?.lastReadAt ?? 0) + gapMs);
  }

  /** Each owner with events: the mean time between them as measured, and what one read costs. */
  reads(creditsOf: (owner: string) => number): PacedRead[] {
    const elapsed = Math.max(this.now() - this.startedAt, MIN_MEASURED_MS);
    return [...this.owners]
      .filter(([, e]) => e.events > 0)
      .map(([owner, e]) => ({
        id: owner,
        intervalMs: elapsed / e.events,
        credits: creditsOf(owner),
        maxMs: EVENT_READ_MAX_GAP_MS,
      }));
  }

  forget(owner: string): void {
    this.owners.delete(owner);
  }

  private entry(owner: string): OwnerEvents {
    let e = this.owners.get(owner);
    if (!e) this.owners.set(owner, (e = { events: 0, lastReadAt: 0 }));
    return e;
  }
}
