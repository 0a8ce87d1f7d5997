import type { StoredMarginEvent } from '../../../shared/contract';
import type { CoreBus } from '../events';
import type { ServiceLink } from '../service-link';
import type { WatchRegistry } from '../watch-registry';
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
  watch: Pick<WatchRegistry, 'managers'>;
  /** Whether the service may still be asked: once not (the monitor closed), nothing is pushed again. */
  link: Pick<ServiceLink, 'mayAsk'>;
  /** Publishes events pushed again with their units (`marginEventsReady`; `replaces`: the page replaces the row it shows, adds none). */
  events: Pick<CoreBus, 'emit'>;
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
   * Looks up what `events` lack for their units (their managers' pools, the asset book if it is
   * not loaded). Resolves with whether anything was learnt, never rejects; undefined when nothing
   * is missing.
   */
  lookUp(events: readonly StoredMarginEvent[], signal?: AbortSignal): Promise<boolean> | undefined {
    const { eventUnits, managerPools, assets } = this.d;
    const managers = eventUnits.unplaced(events);
    const noBook = assets.peek() === undefined;
    if (managers.length === 0 && !noBook) return undefined;
    const learnt = managers.length > 0 ? managerPools.learn(managers, signal).catch(() => []) : Promise.resolve([]);
    const book = noBook ? assets.settled() : Promise.resolve(undefined);
    return Promise.all([learnt, book]).then(([ids, loaded]) => ids.length > 0 || loaded !== undefined);
  }

  /**
   * Events shown with the units known then (`shown`, their `amounts` as shown): once `learnt`
   * says something was learnt, those whose amounts grew are pushed again. `keep(i)`: whether
   * shown[i] may still be on a page.
   */
  pushWhenLearnt(
    shown: readonly StoredMarginEvent[],
    learnt: Promise<boolean>,
    keep: (i: number) => boolean = () => true,
  ): void {
    void learnt.then((any) => {
      if (!any || !this.d.link.mayAsk()) return;
      const at: number[] = [];
      shown.forEach((e, i) => {
        if (e.valid && e.margin_manager_id !== null && !e.type.endsWith('manager_created') && keep(i)) at.push(i);
      });
      const again = this.d.eventUnits
        .apply(
          at.map((i) => shown[i]!),
          (id) => this.d.watch.managers.has(id),
        )
        .filter((e, j) => (e.amounts?.length ?? 0) > (shown[at[j]!]!.amounts?.length ?? 0));
      if (again.length > 0)
        this.d.events.emit('marginEventsReady', { events: again.map((e) => ({ ...e, replaces: true })) });
    });
  }

  /** Events just pushed with their units as known then: those that lacked some are pushed again once known. */
  afterPush(pushed: readonly StoredMarginEvent[]): void {
    const end = (this.pushed += pushed.length);
    const learnt = this.lookUp(pushed);
    // pushed[i] has (this.pushed - end) + (pushed.length - i) pushed after it, itself included.
    if (learnt) this.pushWhenLearnt(pushed, learnt, (i) => this.pushed - end + pushed.length - i <= PAGE_KEEPS);
  }
}
