import type { StoredMarginEvent } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import type { ServiceClient } from '../client/service-client';
import type { AssetBookCache } from '../risk/asset-book';
import type { EventUnits } from '../risk/event-amounts';
import { checkLargeLiquidations } from '../risk/large-liquidations';
import type { LateUnits } from '../risk/late-units';
import type { PriceBook } from '../risk/prices';
import type { IncomingMarginEvent } from '../store/margin-events';
import type { Store } from '../store/store';
import type { WatchRegistry } from '../watch-registry';
import { HistoryRecovery } from './history-recovery';
import { alertOnReceipt, dispatchMarginEvents, type MarginDispatchDeps } from './margin-dispatch';
import { marginStream } from './margin-stream';
import type { StreamSupervisor } from './supervisor';

export interface MarginServiceDeps {
  store: Pick<Store, 'margin' | 'marginWriter' | 'gaps' | 'settings'>;
  client: () => ServiceClient;
  supervisor: StreamSupervisor;
  watch: WatchRegistry;
  eventUnits: EventUnits;
  /** Pushed events that lack units: pushed again once they are known. */
  lateUnits: LateUnits;
  alerts: AlertEngine;
  assets: AssetBookCache;
  prices: PriceBook;
  /** `last-id` on the very first start. */
  firstStart: () => '$' | '0';
  /** The large-liquidation rule's threshold in USD, or null (off). */
  largeLiquidationUsd: () => number | null;
  /** Push margin events to the page, and whether a page listens. */
  publish: (events: StoredMarginEvent[]) => void;
  listening: () => boolean;
  /** Read every watched wallet now, or these owners' records soon. */
  refreshRisk: () => Promise<unknown>;
  refreshSoon: MarginDispatchDeps['refreshSoon'];
  /** Other traders' liquidations (margin-dispatch.ts). */
  marketLiquidations?: (managerIds: readonly string[]) => void;
  /** The stream (re)opened. */
  onOpen: () => void;
  /** The stream's commits failed or work again (the store health tells the status). */
  onStoreState: () => void;
  /** Stream history that could not be replayed, recovered over REST where it could. */
  onGap: () => void;
  closed: () => boolean;
  log: (line: string) => void;
}

/**
 * The margin stream, end to end: the stream into the store (exactly once, through the writer
 * thread), a watched liquidation alerted the moment it is read, what follows each commit
 * (managers learnt, alerts, large liquidations, the push, risk refreshed), and the recovery of
 * history the stream could not replay.
 */
export class MarginService {
  private readonly stream: ReturnType<typeof marginStream>;
  private readonly recovery: HistoryRecovery;
  /** Liquidations before this time (replayed history) never raise the large-liquidation alert. */
  private readonly startedAt = Date.now();
  /** What the dispatch needs, built once: each liquidation's alert reads it. */
  private readonly dispatchDeps: Pick<MarginDispatchDeps, 'watchedSince' | 'watchedManagers' | 'eventUnits' | 'alerts'>;

  constructor(private readonly d: MarginServiceDeps) {
    this.dispatchDeps = {
      watchedSince: (owner) => d.watch.since(owner),
      watchedManagers: d.watch.managers,
      eventUnits: d.eventUnits,
      alerts: d.alerts,
    };
    this.stream = marginStream({
      repo: d.store.margin,
      writer: d.store.marginWriter,
      naming: () => d.client().http.profile,
      urlFor: (lastId) => d.client().http.url('/dex-margin/manager-updates', { 'last-id': lastId }, 'stream'),
      firstStart: d.firstStart,
      onCommitted: (events) => {
        this.recovery.noteAlive();
        this.onCommitted(events);
      },
      onReceived: (e, data) => alertOnReceipt(e, data, this.dispatchDeps),
      onOpen: () => {
        d.onOpen();
        this.recovery.onOpen();
      },
      onStoreState: (reason, err) => {
        if (reason !== null) {
          d.log(
            `store: ${reason} (${(err as Error | undefined)?.message ?? ''}); the margin stream stops until writes work again`,
          );
          d.supervisor.interrupt('margin');
        } else {
          d.log('store: writes work again; the margin stream resumes from its cursor');
        }
        d.onStoreState();
      },
    });
    this.recovery = new HistoryRecovery({
      client: d.client,
      repo: d.store.margin,
      gaps: d.store.gaps,
      isOpen: () => this.isOpen(),
      watchedOwners: () => d.watch.owners(),
      loadAliveAt: () => d.store.settings.get<number>('margin.aliveAt') ?? d.store.margin.cursorUpdatedAt(),
      saveAliveAt: (ms) => d.store.settings.set('margin.aliveAt', ms),
      onRecovered: (events) => this.onCommitted(events),
      refreshRisk: d.refreshRisk,
      onGap: (gap) => {
        d.log(
          `stream history from ${new Date(gap.fromMs).toISOString()} to ${new Date(gap.toMs).toISOString()} could not be replayed; ${gap.recoveredLiquidations} liquidations recovered over REST`,
        );
        d.alerts.onHistoryGap(gap.fromMs, gap.toMs, gap.message);
        d.onGap();
      },
      log: d.log,
    });
  }

  /** The stream's spec, for the supervisor. */
  get spec(): ReturnType<typeof marginStream>['spec'] {
    return this.stream.spec;
  }

  isOpen(): boolean {
    return this.d.supervisor.statuses().some((x) => x.id === 'margin' && x.state === 'open');
  }

  /** Why the stream's commits fail now, or null. */
  storeFailure(): string | null {
    return this.stream.storeFailure();
  }

  /** Connect once the first read settles (a first start replays history), or at once. */
  connectAfter(firstRead: Promise<unknown>, canConnect: () => boolean): void {
    this.stream.connectAfter(firstRead, () => canConnect() && this.d.supervisor.add(this.stream.spec));
  }

  /** Commit what is held, stop the recovery. */
  close(): void {
    this.recovery.close();
    this.stream.flush();
  }

  private onCommitted(events: IncomingMarginEvent[]): void {
    const d = this.d;
    dispatchMarginEvents(events, {
      ...this.dispatchDeps,
      checkLarge: (evs) =>
        void checkLargeLiquidations(evs, {
          limitUsd: d.largeLiquidationUsd(),
          since: this.startedAt,
          assets: d.assets,
          prices: d.prices,
          alerts: d.alerts,
          closed: d.closed,
          log: d.log,
        }),
      publish: d.publish,
      afterPush: (pushed) => d.lateUnits.afterPush(pushed),
      listening: d.listening,
      refreshSoon: d.refreshSoon,
      marketLiquidations: d.marketLiquidations,
    });
  }
}
