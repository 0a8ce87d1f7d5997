import { EVENT_TYPES } from '../../../shared/api';
import type { StoredMarginEvent } from '../../../shared/contract';
import type { AlertEngine, LiquidationWording, LiquidationWords } from '../alerts/alert-engine';
import type { CoreBus } from '../events';
import type { PushHub } from '../push-hub';
import type { DangerPricing } from '../risk/danger-pricing';
import { amountsInWords, type EventUnits } from '../risk/event-amounts';
import type { LargeLiquidationRule } from '../risk/large-liquidations';
import type { LateUnits } from '../risk/late-units';
import type { RiskRefresh } from '../risk/risk-refresh';
import type { IncomingMarginEvent } from '../store/margin-events';
import type { WatchRegistry } from '../watch-registry';

/**
 * The services a margin batch is dispatched to: who is watched, the alert engine, the risk room's
 * pieces that follow a commit, the large-liquidation rule, the push hub and the bus.
 */
export interface MarginDispatchServices {
  /**
   * Who is watched (watch-registry.ts `WatchRegistry`): watched managers -> owner, learnt here from
   * manager_created and recovered rows (and by the risk loop), and since when each owner is.
   */
  watch: Pick<WatchRegistry, 'managers' | 'ownerOf' | 'since'>;
  alerts: Pick<AlertEngine, 'onLiquidation' | 'onMarginEvents'>;
  risk: {
    /** Events' amounts in their units, and managers' pools by name (risk/event-amounts.ts). */
    eventUnits: EventUnits;
    /** Pushed events, some perhaps without units (a manager's pool or the asset book not known yet): pushed again once known. */
    lateUnits: Pick<LateUnits, 'afterPush'>;
    /**
     * Watched managers of these owners moved: their records (and prices) are read again soon.
     * `live`: the owners with an event of now, not a replay of history (only they measure how often
     * events come, risk/event-reads.ts).
     */
    refresh: Pick<RiskRefresh, 'refreshSoon'>;
    /**
     * Managers were liquidated just now (other traders' or watched ones): the market moved on their
     * pools, perhaps toward a watched position there (risk/danger-pricing.ts reads that pool's
     * price at once).
     */
    danger: Pick<DangerPricing, 'onMarketLiquidations'>;
  };
  /** The optional protocol-wide rule (risk/large-liquidations.ts). */
  large: Pick<LargeLiquidationRule, 'check'>;
  /** Whether a page shows margin events (`margin`): only then are they dressed for display and pushed. */
  hub: Pick<PushHub, 'count'>;
  /** Publishes the events ready for the page (`marginEventsReady`) and the managers liquidated (`managersLiquidated`). */
  events: Pick<CoreBus, 'emit'>;
}

/**
 * An event at most this old is of now; an older one is history replayed (a first start, the time
 * an outage or a sleep missed): it still reads its owner's records, but says nothing of how often
 * events come or of where the market is now.
 */
export const LIVE_EVENT_MS = 120_000;

/**
 * Where the margin stream's events go once read (`onReceipt`) and once committed (`afterCommit`):
 * a watched liquidation to the alert engine, managers of watched owners learnt, large liquidations
 * checked, the events pushed with their units, and a watched manager's risk refreshed.
 */
export class MarginDispatch {
  constructor(private readonly s: MarginDispatchServices) {}

  /**
   * A liquidation of a watched manager is alerted the moment it is read, not after its commit: the
   * store's group commit and a WAL checkpoint must not stand between a liquidation and the trader.
   * `data` is the event's data as read (parsed once on this path). The alert is stored with the
   * event's id as its dedupe key, so the dispatch after the commit (or a replay after a reconnect)
   * does not alert again. If the alert cannot be stored (disk full) it is shown all the same and
   * the store failure reported (AlertEngine.raiseShowingFirst); the commit path shows it again once
   * it is stored.
   */
  onReceipt(e: IncomingMarginEvent, data: unknown, now = Date.now()): void {
    if (e.type !== EVENT_TYPES.liquidation || !e.margin_manager_id) return;
    const { watch, risk } = this.s;
    const owner = watch.ownerOf(e.margin_manager_id);
    if (owner === undefined) return;
    this.s.alerts.onLiquidation(
      e,
      owner,
      watch.since(owner) ?? 0,
      data,
      liquidationWords(e, data, risk.eventUnits),
      now,
    );
  }

  /**
   * What follows a commit of margin stream events (or of liquidations recovered over REST):
   * managers of watched owners are learnt, watched liquidations alerted (with their amounts in
   * words), large ones checked, the events pushed with their units, and a watched manager's risk
   * refreshed.
   */
  afterCommit(events: IncomingMarginEvent[], now = Date.now()): void {
    const { watch, risk } = this.s;
    const touched = new Set<string>();
    const live = new Set<string>();
    const isLive = (e: IncomingMarginEvent): boolean =>
      e.timestamp_ms !== null && e.timestamp_ms >= now - LIVE_EVENT_MS;
    for (const e of events) {
      const known = e.margin_manager_id ? watch.ownerOf(e.margin_manager_id) : undefined;
      if (known !== undefined) {
        touched.add(known);
        if (isLive(e)) live.add(known);
      }
      // A manager created by a watched owner, or a recovered liquidation that names its owner.
      if ((e.type.endsWith('manager_created') || e.recovered) && e.margin_manager_id) {
        const owner = ownerNamed(e.data);
        if (owner && watch.since(owner) !== undefined) {
          watch.managers.set(e.margin_manager_id, owner);
          touched.add(owner);
        }
      }
    }
    // Parsing and pricing every event of a busy stream is the thread's main work after a commit: done only for a page that shows them.
    const pushed =
      this.s.hub.count('margin') > 0
        ? risk.eventUnits.apply(
            events.map((e) => ({ ...e, data: safeJson(e.data), received_at: now })),
            (id) => watch.managers.has(id),
          )
        : [];
    this.s.alerts.onMarginEvents(events, watch, new BatchWords(risk.eventUnits, pushed), now);
    this.s.large.check(events);
    if (pushed.length > 0) {
      this.s.events.emit('marginEventsReady', { events: pushed });
      risk.lateUnits.afterPush(pushed);
    }
    if (touched.size > 0) risk.refresh.refreshSoon(touched, live);
    // Any live liquidation moved its pool's market, a watched one too: its siblings there are read
    // at once (an owner's event read leaves prices to the schedule, risk/risk-refresh.ts). Another
    // trader's manager is seldom learnt yet: its pool comes from its stored creation.
    const liquidations = events.filter((e) => e.type === EVENT_TYPES.liquidation && e.margin_manager_id);
    const liquidated = liquidations.filter(isLive).map((e) => e.margin_manager_id!);
    if (liquidated.length > 0) risk.danger.onMarketLiquidations(risk.eventUnits.poolNamesOf(liquidated));
    // Every liquidation read, replayed ones too: the liquidation map leaves out those since its read.
    if (liquidations.length > 0)
      this.s.events.emit('managersLiquidated', {
        liquidations: liquidations.map((e) => ({ manager_id: e.margin_manager_id!, at: e.timestamp_ms ?? now })),
      });
  }
}

/**
 * The words of a committed batch's liquidation alerts: the amounts the push already priced, else
 * priced from the event.
 */
class BatchWords implements LiquidationWording {
  private readonly amounts: Map<string, StoredMarginEvent['amounts']>;

  constructor(
    private readonly units: EventUnits,
    pushed: readonly StoredMarginEvent[],
  ) {
    this.amounts = new Map(pushed.map((e) => [e.id, e.amounts]));
  }

  wordsOf(e: IncomingMarginEvent, data: unknown): LiquidationWords {
    return liquidationWords(e, data, this.units, this.amounts.get(e.id));
  }
}

/**
 * A liquidation's amounts in words (`amountsInWords`; those `known`, else priced from `data`) and
 * its manager's pool, read only when its alert is written.
 */
function liquidationWords(
  e: IncomingMarginEvent,
  data: unknown,
  units: EventUnits,
  known?: StoredMarginEvent['amounts'],
): LiquidationWords {
  return {
    amounts: () => {
      const a = known ?? units.amountsOfOne(e, data);
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
