import { EVENT_TYPES } from '../../../shared/api';
import type { StoredMarginEvent, WatchEntry } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import { amountsInWords, type EventUnits } from '../risk/event-amounts';
import type { IncomingMarginEvent } from '../store/margin-events';

export interface MarginDispatchDeps {
  watchList: () => WatchEntry[];
  /** Watched managers -> owner (learnt here from manager_created and recovered rows, and by the risk loop). */
  watchedManagers: Map<string, string>;
  eventUnits: EventUnits;
  alerts: AlertEngine;
  /** The optional protocol-wide rule (alerts/large-liquidations.ts). */
  checkLarge: (events: readonly IncomingMarginEvent[]) => void;
  publish: (events: StoredMarginEvent[]) => void;
  /** Whether anything shows the events (a Live events page): only then are they dressed for display and pushed. */
  listening: () => boolean;
  /** A watched manager moved: refresh its risk soon. */
  refreshSoon: () => void;
}

/**
 * What follows a commit of stream #22 events (or of liquidations recovered over REST): managers of
 * watched owners are learnt, watched liquidations alerted (with their amounts in words), large
 * ones checked, the events pushed with their units, and a watched manager's risk refreshed.
 */
export function dispatchMarginEvents(events: IncomingMarginEvent[], d: MarginDispatchDeps, now = Date.now()): void {
  const watch = d.watchList();
  const owners = new Set(watch.map((w) => w.owner));
  const since = new Map(watch.map((w) => [w.owner, w.added_at]));
  let touchesWatched = false;
  for (const e of events) {
    if (e.margin_manager_id && d.watchedManagers.has(e.margin_manager_id)) touchesWatched = true;
    // A manager created by a watched owner, or a recovered liquidation that names its owner.
    if ((e.type.endsWith('manager_created') || e.recovered) && e.margin_manager_id) {
      const owner = ownerNamed(e.data);
      if (owner && owners.has(owner)) {
        d.watchedManagers.set(e.margin_manager_id, owner);
        touchesWatched = true;
      }
    }
  }
  // Parsing and pricing every event of a busy stream is the thread's main work after a commit: done only for a page that shows them.
  const pushed = d.listening()
    ? d.eventUnits.apply(
        events.map((e) => ({ ...e, data: safeJson(e.data), received_at: now })),
        (id) => d.watchedManagers.has(id),
      )
    : [];
  const amounts = new Map(pushed.map((e) => [e.id, e.amounts]));
  d.alerts.onMarginEvents(events, (id) => d.watchedManagers.get(id), (owner) => since.get(owner) ?? 0, now, (e) => {
    const a = amounts.get(e.id) ?? amountsOf(e, d, now);
    return a ? amountsInWords(a) : undefined;
  });
  d.checkLarge(events);
  if (pushed.length > 0) d.publish(pushed);
  if (touchesWatched) d.refreshSoon();
}

/** One event's amounts in units (an alert's words), dressed on its own. */
function amountsOf(e: IncomingMarginEvent, d: Pick<MarginDispatchDeps, 'eventUnits'>, now: number) {
  return d.eventUnits.apply([{ ...e, data: safeJson(e.data), received_at: now }], () => true)[0]?.amounts;
}

/**
 * A liquidation of a watched manager is alerted the moment it is read, not after its commit: the
 * store's group commit and a WAL checkpoint must not stand between a liquidation and the trader.
 * The alert is stored with the event's id as its dedupe key, so the dispatch after the commit (or
 * a replay after a reconnect) does not alert again. If the alert cannot be stored (disk full) it
 * is left to the commit path, which reports the store failure.
 */
export function alertOnReceipt(e: IncomingMarginEvent, d: Pick<MarginDispatchDeps, 'watchList' | 'watchedManagers' | 'eventUnits' | 'alerts'>, now = Date.now()): void {
  if (e.type !== EVENT_TYPES.liquidation || !e.margin_manager_id || !d.watchedManagers.has(e.margin_manager_id)) return;
  const since = new Map(d.watchList().map((w) => [w.owner, w.added_at]));
  const amounts = amountsOf(e, d, now);
  try {
    d.alerts.onMarginEvents([e], (id) => d.watchedManagers.get(id), (owner) => since.get(owner) ?? 0, now, () => (amounts ? amountsInWords(amounts) : undefined));
  } catch {
    // not stored: the commit that follows fails the same way and says so
  }
}

function ownerNamed(data: string): string | undefined {
  try {
    const owner = (JSON.parse(data) as { owner?: unknown }).owner;
    return typeof owner === 'string' ? owner : undefined;
  } catch {
    return undefined; // kept as received
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
