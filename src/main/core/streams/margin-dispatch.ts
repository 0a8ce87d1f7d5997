import { EVENT_TYPES } from '../../../shared/api';
import type { StoredMarginEvent } from '../../../shared/contract';
import type { AlertEngine, LiquidationWords } from '../alerts/alert-engine';
import { amountsInWords, type EventUnits } from '../risk/event-amounts';
import type { IncomingMarginEvent } from '../store/margin-events';

export interface MarginDispatchDeps {
  /** When an owner joined the watch list (ms), undefined when it is not on it. */
  watchedSince: (owner: string) => number | undefined;
  /** Watched managers -> owner (learnt here from manager_created and recovered rows, and by the risk loop). */
  watchedManagers: Map<string, string>;
  eventUnits: EventUnits;
  alerts: AlertEngine;
  /** The optional protocol-wide rule (risk/large-liquidations.ts). */
  checkLarge: (events: readonly IncomingMarginEvent[]) => void;
  publish: (events: StoredMarginEvent[]) => void;
  /** Pushed events, some perhaps without units (a manager's pool or the asset book not known yet): pushed again once known. */
  afterPush: (pushed: StoredMarginEvent[]) => void;
  /** Whether anything shows the events (a Live events page): only then are they dressed for display and pushed. */
  listening: () => boolean;
  /**
   * Watched managers of these owners moved: read their records (and prices) again soon. `live`:
   * the owners with an event of now, not a replay of history (only they measure how often events
   * come, risk/event-reads.ts).
   */
  refreshSoon: (owners: ReadonlySet<string>, live: ReadonlySet<string>) => void;
  /**
   * Managers were liquidated just now (other traders' or watched ones): the market moved on their
   * pools, perhaps toward a watched position there (risk/danger-pricing.ts reads that pool's price
   * at once).
   */
  marketLiquidations?: (managerIds: readonly string[]) => void;
}

/**
 * An event at most this old is of now; an older one is history replayed (a first start, the time
 * an outage or a sleep missed): it still reads its owner's records, but says nothing of how often
 * events come or of where the market is now.
 */
export const LIVE_EVENT_MS = 120_000;

/**
 * What follows a commit of margin stream events (or of liquidations recovered over REST): managers of
 * watched owners are learnt, watched liquidations alerted (with their amounts in words), large
 * ones checked, the events pushed with their units, and a watched manager's risk refreshed.
 */
export function dispatchMarginEvents(events: IncomingMarginEvent[], d: MarginDispatchDeps, now = Date.now()): void {
  const touched = new Set<string>();
  const live = new Set<string>();
  const isLive = (e: IncomingMarginEvent): boolean => e.timestamp_ms !== null && e.timestamp_ms >= now - LIVE_EVENT_MS;
  for (const e of events) {
    const known = e.margin_manager_id ? d.watchedManagers.get(e.margin_manager_id) : undefined;
    if (known !== undefined) {
      touched.add(known);
      if (isLive(e)) live.add(known);
    }
    // A manager created by a watched owner, or a recovered liquidation that names its owner.
    if ((e.type.endsWith('manager_created') || e.recovered) && e.margin_manager_id) {
      const owner = ownerNamed(e.data);
      if (owner && d.watchedSince(owner) !== undefined) {
        d.watchedManagers.set(e.margin_manager_id, owner);
        touched.add(owner);
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
  d.alerts.onMarginEvents(
    events,
    (id) => d.watchedManagers.get(id),
    (owner) => d.watchedSince(owner) ?? 0,
    now,
    (e, data) => liquidationWords(e, d.eventUnits, () => amounts.get(e.id) ?? d.eventUnits.amountsOfOne(e, data)),
  );
  d.checkLarge(events);
  if (pushed.length > 0) {
    d.publish(pushed);
    d.afterPush(pushed);
  }
  if (touched.size > 0) d.refreshSoon(touched, live);
  // Any live liquidation moved its pool's market, a watched one too: its siblings there are read
  // at once (an owner's event read leaves prices to the schedule, risk-refresh.ts).
  const liquidated = events
    .filter((e) => e.type === EVENT_TYPES.liquidation && e.margin_manager_id && isLive(e))
    .map((e) => e.margin_manager_id!);
  if (liquidated.length > 0) d.marketLiquidations?.(liquidated);
}

/**
 * A liquidation of a watched manager is alerted the moment it is read, not after its commit: the
 * store's group commit and a WAL checkpoint must not stand between a liquidation and the trader.
 * `data` is the event's data as read (parsed once on this path). The alert is stored with the
 * event's id as its dedupe key, so the dispatch after the commit (or a replay after a reconnect)
 * does not alert again. If the alert cannot be stored (disk full) it is shown all the same and the
 * store failure reported (AlertEngine.raise); the commit path shows it again once it is stored.
 */
export function alertOnReceipt(
  e: IncomingMarginEvent,
  data: unknown,
  d: Pick<MarginDispatchDeps, 'watchedSince' | 'watchedManagers' | 'eventUnits' | 'alerts'>,
  now = Date.now(),
): void {
  if (e.type !== EVENT_TYPES.liquidation || !e.margin_manager_id) return;
  const owner = d.watchedManagers.get(e.margin_manager_id);
  if (owner === undefined) return;
  d.alerts.onLiquidation(
    e,
    owner,
    d.watchedSince(owner) ?? 0,
    data,
    liquidationWords(e, d.eventUnits, () => d.eventUnits.amountsOfOne(e, data)),
    now,
  );
}

/** A liquidation's amounts in words and its manager's pool, read only when its alert is written. */
function liquidationWords(
  e: IncomingMarginEvent,
  units: EventUnits,
  amounts: () => ReturnType<EventUnits['amountsOfOne']>,
): LiquidationWords {
  return {
    amounts: () => {
      const a = amounts();
      return a ? amountsInWords(a) : undefined;
    },
    pool: () => units.poolNameOf(e.margin_manager_id!),
  };
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
