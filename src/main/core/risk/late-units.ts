import type { StoredMarginEvent } from '../../../shared/contract';
import type { AssetBookCache } from './asset-book';
import type { EventUnits } from './event-amounts';
import type { ManagerPoolLookup } from './manager-pools';

/**
 * Events pushed again are dropped once this many newer ones were pushed: Live events keeps the
 * newest 5,000 rows, so an older one is on no page (a catch-up pushes many before the book loads).
 */
const PAGE_KEEPS = 5_000;

export interface LateUnitsDeps {
  eventUnits: EventUnits;
  managerPools: ManagerPoolLookup;
  assets: AssetBookCache;
  /** The user's own managers (`own` on their events). */
  isOwn: (managerId: string) => boolean;
  /** Events pushed again with their units (`replaces`: the page replaces the row it shows, adds none). */
  republish: (events: StoredMarginEvent[]) => void;
  closed: () => boolean;
}

/**
 * What events wait for before their amounts can be put in units, learnt in the background: the
 * pools of managers created before the stored history (risk/manager-pools.ts), and the asset book
 * while it loads (a first start answers Live events before the pool list is read). Events shown
 * without units meanwhile are pushed again once they have them, so no row stays "the asset is not
 * known yet" after its units are known.
 */
export class LateUnits {
  /** Events pushed to the page so far: a re-push skips those more than PAGE_KEEPS behind. */
  private pushed = 0;

  constructor(private readonly d: LateUnitsDeps) {}

  /**
   * Live events' rows (`rows`, before their units are put on) that lack units: what they wait for
   * is looked up. Resolves when it is known (or cannot be), never rejects; undefined when nothing is
   * missing. If the call answered without waiting for it (`answered()`), the rows that gain units
   * are pushed again then.
   */
  forAnswer(
    rows: readonly StoredMarginEvent[],
    answered: () => boolean,
    signal?: AbortSignal,
  ): Promise<void> | undefined {
    const counts = (events: StoredMarginEvent[]): number[] =>
      this.d.eventUnits.apply(events).map((e) => e.amounts?.length ?? 0);
    return this.learn(rows, counts, signal, (gained) => {
      if (answered() && !signal?.aborted) this.republish(gained.map((g) => g.event));
    });
  }

  /** Events just pushed with their units as known then: those that lacked some are pushed again once known. */
  afterPush(pushed: readonly StoredMarginEvent[]): void {
    const end = (this.pushed += pushed.length);
    const counts = (events: StoredMarginEvent[]): number[] => events.map((e) => e.amounts?.length ?? 0);
    void this.learn(pushed, counts, undefined, (gained) => {
      // pushed[i] has (this.pushed - end) + (pushed.length - i) pushed after it, itself included.
      const newer = this.pushed - end + pushed.length;
      this.republish(gained.filter((g) => newer - g.at <= PAGE_KEEPS).map((g) => g.event));
    });
  }

  /**
   * Looks up what `events` wait for; then `then` gets those whose amounts grew (by `counts`, as
   * they were before), with their index in `events`.
   */
  private learn(
    events: readonly StoredMarginEvent[],
    counts: (events: StoredMarginEvent[]) => number[],
    signal: AbortSignal | undefined,
    then: (gained: { at: number; event: StoredMarginEvent }[]) => void,
  ): Promise<void> | undefined {
    const { eventUnits, managerPools, assets } = this.d;
    const managers = eventUnits.unplaced(events);
    const noBook = assets.peek() === undefined;
    if (managers.length === 0 && !noBook) return undefined;
    const waiting = new Set(managers);
    const at: number[] = [];
    events.forEach((e, i) => {
      if (
        e.valid &&
        e.margin_manager_id !== null &&
        !e.type.endsWith('manager_created') &&
        (noBook || waiting.has(e.margin_manager_id))
      )
        at.push(i);
    });
    if (at.length === 0) return undefined;
    const candidates = at.map((i) => events[i]!);
    const before = counts(candidates);
    const lookups: Promise<unknown>[] = [];
    if (managers.length > 0) lookups.push(managerPools.learn(managers, signal));
    if (noBook) lookups.push(assets.settled());
    return Promise.allSettled(lookups).then(() => {
      if (this.d.closed()) return;
      const gained: { at: number; event: StoredMarginEvent }[] = [];
      eventUnits.apply(candidates, this.d.isOwn).forEach((e, j) => {
        if ((e.amounts?.length ?? 0) > before[j]!) gained.push({ at: at[j]!, event: e });
      });
      if (gained.length > 0) then(gained);
    });
  }

  private republish(events: readonly StoredMarginEvent[]): void {
    if (events.length > 0) this.d.republish(events.map((e) => ({ ...e, replaces: true })));
  }
}
