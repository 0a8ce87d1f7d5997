import type {
  AlertRecord,
  CreditUsage,
  PoolPush,
  RiskPush,
  StatusSnapshot,
  StoredMarginEvent,
  StreamStatus,
  Topic,
} from '../../shared/contract';
import type { HistoryGap, UnreachedChannel } from '../../shared/status';

/** An event's listener: told the payload, synchronously, in the order listeners subscribed. */
export type Listener<P> = (payload: P) => void;

/** The payload argument of `emit`: none for an event whose payload is `void`. */
type PayloadArgs<P> = [P] extends [void] ? [] : [payload: P];

/**
 * A typed event bus: `on` subscribes (and returns the way to unsubscribe), `off` unsubscribes,
 * `emit` tells every listener of the event at once, in the order they subscribed, before it
 * returns. A listener that throws is logged and the others are still told: a fault in what one
 * service does with a fact never stops the service that published it. A listener added or removed
 * while an event is delivered takes effect from the next emit; one added twice is told twice.
 */
export class EventBus<E extends object> {
  /** Per event, its listeners: a new array on each change, so a delivery goes on over the one it began with. */
  private readonly listeners = new Map<keyof E, ReadonlyArray<Listener<never>>>();

  constructor(private readonly log: (line: string) => void = (line) => console.error(`tidewatch: ${line}`)) {}

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener<never>]);
    return () => this.off(event, listener);
  }

  off<K extends keyof E>(event: K, listener: Listener<E[K]>): void {
    const now = this.listeners.get(event) ?? [];
    const i = now.indexOf(listener as Listener<never>);
    if (i < 0) return;
    const next = [...now.slice(0, i), ...now.slice(i + 1)];
    if (next.length > 0) this.listeners.set(event, next);
    else this.listeners.delete(event);
  }

  emit<K extends keyof E>(event: K, ...args: PayloadArgs<E[K]>): void {
    const listeners = this.listeners.get(event);
    if (!listeners) return;
    const payload = args[0] as E[K];
    for (const listener of listeners) {
      try {
        (listener as Listener<E[K]>)(payload);
      } catch (err) {
        this.log(`a listener of ${String(event)} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** How many listeners an event has. */
  listenerCount(event: keyof E): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/**
 * What happened in the core, by the room that publishes it (bottom first), each with who listens.
 * A service publishes a fact instead of calling the services that care; those subscribe. What a
 * service asks of one below it (a read, a command) stays a call on that service.
 */
export interface CoreEvents {
  // base
  /** A page subscribed to a topic or left it (push-hub.ts). Heard by the streams room: a pool's stream follows its page. */
  subscribersChanged: { topic: Topic; count: number };

  // io
  /** The store's check off the thread found damage (store/store.ts): the status shows the notice. */
  storeDamageFound: { notice: string };
  /** A write source of the store failed anew (store/store-health.ts): the alert engine raises the store-write alert. */
  storeFailed: { reason: string };
  /** Whether the store accepts writes changed (store/store-health.ts): the status shows it. */
  storeHealthChanged: { error: string | null };

  // links
  /** The service answered a request (service-link.ts, from the client): the credit meter counts it at its price. */
  requestAnswered: { specPath: string };
  /** The service became unreachable or reachable again (service-link.ts): the status's offline banner. */
  offlineChanged: { offline: boolean };
  /** Alerts changed after they were raised: acknowledged by a link, a delivery logged (notify/notifier.ts; `[]`: read again). Pushed on `alerts`. */
  alertsUpdated: { alerts: AlertRecord[] };
  /** Which alert channels do not reach the trader changed (notify/reach.ts through the notifier): the status shows it. */
  reachChanged: { unreached: readonly UnreachedChannel[] };

  // alerts
  /** The alert engine raised alerts, stored (and queued for their channels) or, when the store refused, not (id 0). Pushed on `alerts`. */
  alertsRaised: { alerts: AlertRecord[] };

  // risk
  /** A valuation's readings and Portfolio (risk/risk-refresh.ts). Pushed on `risk`. */
  positionsValued: RiskPush;
  /** A valuation is done, of every watched position or of none (risk/risk-refresh.ts): the read schedule plans again, the guard looks for danger, the status changes. */
  valuationDone: void;
  /** Margin events ready for the page with their units as known (after a commit, or again once units are learnt). Pushed on `margin`. */
  marginEventsReady: { events: StoredMarginEvent[] };
  /**
   * Managers were liquidated, any trader's, live or replayed (`at`: the event's time, ms) (streams/margin-dispatch.ts
   * after a commit): the liquidation map leaves them out until its next read (risk/liquidation-map.ts).
   */
  managersLiquidated: { liquidations: Array<{ manager_id: string; at: number }> };
  /** The pools the guard wants live on their trade streams changed (risk/danger-pricing.ts): the streams room opens or closes them. */
  guardPoolsWanted: { pools: ReadonlySet<string> };

  // credits
  /** The credit meter's counts changed (at most every 2 s, credits/credit-meter.ts): the status shows them. */
  creditsCounted: void;
  /** This month's credits reached a share of the budget (credits/credit-meter.ts): the alert engine warns. */
  creditBudgetReached: { share: 0.8 | 1; usage: CreditUsage };
  /** The plan's stream limit changed (credits/credit-plan.ts): the supervisor keeps to it. */
  streamBudgetChanged: { streams: number };

  // streams
  /** A stream's state changed (streams/supervisor.ts): the status shows them; a rejected key raises its alert. */
  streamsChanged: { streams: StreamStatus[] };
  /** A stream received bytes (streams/supervisor.ts): the volumes and the credit meter count them. */
  streamBytes: { streamId: string; bytes: number };
  /** Of those, a pool's book (streams/pool-stream.ts): the Demo network sends it at its own pace, whatever its speed. */
  streamPacedBytes: { streamId: string; bytes: number };
  /** The service answered a stream, or a stream could not reach it (streams/supervisor.ts): the link's offline state. */
  streamReached: { reachable: boolean };
  /** The margin stream (re)opened (streams/margin-service.ts): a wake's gap is being read, the blind alarm's sight. */
  marginStreamOpened: void;
  /** The margin stream's commits failed (`failure` in words) or work again (null) (streams/margin-service.ts): the store health. */
  marginStoreChanged: { failure: string | null };
  /** Stream history could not be replayed, recovered over REST where it could (streams/margin-service.ts): the status's gaps. */
  historyGapFound: { gap: HistoryGap };
  /** A pool stream's trades and depth (streams/pool-streams.ts): pushed on `pool:<name>`; the guard prices a pool in danger from its trades. */
  poolStreamRead: PoolPush;

  // contract
  /** A new status snapshot, changes within 100 ms as one (status-reporter.ts). Pushed on `status`. */
  statusChanged: { status: StatusSnapshot };
}

/** The core's one bus (monitor.ts builds it). */
export type CoreBus = EventBus<CoreEvents>;
