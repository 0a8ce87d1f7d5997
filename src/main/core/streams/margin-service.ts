import type { AlertEngine } from '../alerts/alert-engine';
import type { ServiceClient } from '../client/service-client';
import type { CoreBus } from '../events';
import type { PushHub } from '../push-hub';
import { LargeLiquidationRule } from '../risk/large-liquidations';
import type { RiskServices } from '../risk/risk-services';
import type { ServiceLink } from '../service-link';
import type { SettingsService } from '../settings';
import type { IncomingMarginEvent } from '../store/margin-events';
import type { Store } from '../store/store';
import type { WatchRegistry } from '../watch-registry';
import { HistoryRecovery } from './history-recovery';
import { MarginDispatch } from './margin-dispatch';
import { MarginStream, type MarginSink } from './margin-stream';
import type { StreamSpec, StreamSupervisor } from './supervisor';

export interface MarginServiceDeps {
  store: Pick<Store, 'margin' | 'marginWriter' | 'gaps' | 'settings'>;
  link: Pick<ServiceLink, 'client'>;
  supervisor: StreamSupervisor;
  watch: WatchRegistry;
  /**
   * What a batch is dispatched to in the risk room: the units of events (and those pushed without,
   * again once known), prices for the large-liquidation rule, the refresh of watched owners, the
   * guard's reads after other traders' liquidations.
   */
  risk: Pick<RiskServices, 'eventUnits' | 'lateUnits' | 'assets' | 'prices' | 'refresh' | 'danger'>;
  alerts: AlertEngine;
  /** The network (the first start's `last-id`) and the large-liquidation rule's threshold. */
  settings: Pick<SettingsService, 'effective'>;
  /** Whether a page shows margin events (`margin`): only then are they dressed and pushed. */
  hub: Pick<PushHub, 'count'>;
  /** `last-id` for the very first start; default: `0` on the Demo network, `$` elsewhere. */
  marginFirstStart?: '$' | '0';
  /**
   * Publishes events ready for the page (`marginEventsReady`), the stream opening
   * (`marginStreamOpened`), its commits failing or working again (`marginStoreChanged`), and stream
   * history it could not replay (`historyGapFound`).
   */
  events: Pick<CoreBus, 'emit'>;
  log: (line: string) => void;
}

/**
 * The margin stream, end to end: the stream into the store (exactly once, through the writer
 * thread), a watched liquidation alerted the moment it is read, what follows each commit
 * (managers learnt, alerts, large liquidations, the push, risk refreshed), and the recovery of
 * history the stream could not replay. It is the stream's sink (`MarginSink`): the stream hands it
 * each event as read (`received`) and the new ones once committed (`committed`).
 */
export class MarginService implements MarginSink {
  private readonly stream: MarginStream;
  private readonly recovery: HistoryRecovery;
  /** The optional protocol-wide rule: liquidations from before this service (replayed history) never raise it. */
  private readonly large: LargeLiquidationRule;
  /** Where each event goes once read and once committed: the alerts, the risk room, the page. */
  private readonly dispatch: MarginDispatch;

  constructor(private readonly d: MarginServiceDeps) {
    const client = (): ServiceClient => d.link.client;
    this.large = new LargeLiquidationRule({
      settings: d.settings,
      assets: d.risk.assets,
      prices: d.risk.prices,
      alerts: d.alerts,
      log: d.log,
    });
    this.dispatch = new MarginDispatch({
      watch: d.watch,
      alerts: d.alerts,
      risk: d.risk,
      large: this.large,
      hub: d.hub,
      events: d.events,
    });
    this.stream = new MarginStream(
      {
        repo: d.store.margin,
        writer: d.store.marginWriter,
        naming: () => client().http.profile,
        urlFor: (lastId) => client().http.url('/dex-margin/manager-updates', { 'last-id': lastId }, 'stream'),
        firstStart: () => d.marginFirstStart ?? (d.settings.effective().network === 'demo' ? '0' : '$'),
      },
      this,
    );
    this.recovery = new HistoryRecovery({
      client,
      repo: d.store.margin,
      gaps: d.store.gaps,
      isOpen: () => this.isOpen(),
      watchedOwners: () => d.watch.owners(),
      loadAliveAt: () => d.store.settings.get<number>('margin.aliveAt') ?? d.store.margin.cursorUpdatedAt(),
      saveAliveAt: (ms) => d.store.settings.set('margin.aliveAt', ms),
      onRecovered: (events) => this.dispatch.afterCommit(events),
      refreshRisk: () => d.risk.refresh.refresh(),
      onGap: (gap) => {
        d.log(
          `stream history from ${new Date(gap.fromMs).toISOString()} to ${new Date(gap.toMs).toISOString()} could not be replayed; ${gap.recoveredLiquidations} liquidations recovered over REST`,
        );
        d.alerts.onHistoryGap(gap.fromMs, gap.toMs, gap.message);
        d.events.emit('historyGapFound', { gap });
      },
      log: d.log,
    });
  }

  /** The stream, for the supervisor. */
  get spec(): StreamSpec {
    return this.stream;
  }

  /** An event read, before its commit: a watched liquidation is alerted now (`MarginDispatch.onReceipt`). */
  received(event: IncomingMarginEvent, data: unknown): void {
    this.dispatch.onReceipt(event, data);
  }

  /** New events committed: the stream is alive; what follows a commit follows (`MarginDispatch.afterCommit`). */
  committed(events: IncomingMarginEvent[]): void {
    this.recovery.noteAlive();
    this.dispatch.afterCommit(events);
  }

  opened(): void {
    this.d.events.emit('marginStreamOpened');
    this.recovery.onOpen();
  }

  /** The stream's commits failed (`reason`) or work again (null): it stops until they work. */
  storeChanged(reason: string | null, err?: unknown): void {
    const d = this.d;
    if (reason !== null) {
      d.log(
        `store: ${reason} (${(err as Error | undefined)?.message ?? ''}); the margin stream stops until writes work again`,
      );
      d.supervisor.interrupt('margin');
    } else {
      d.log('store: writes work again; the margin stream resumes from its cursor');
    }
    d.events.emit('marginStoreChanged', { failure: reason });
  }

  isOpen(): boolean {
    return this.d.supervisor.statuses().some((x) => x.id === 'margin' && x.state === 'open');
  }

  /** Connect once the first read settles (a first start replays history), or at once. */
  connectAfter(firstRead: Promise<unknown>, canConnect: () => boolean): void {
    this.stream.connectAfter(firstRead, () => canConnect() && this.d.supervisor.add(this.stream));
  }

  /** Commit what is held, stop the recovery. */
  close(): void {
    this.large.close();
    this.recovery.close();
    this.stream.flush();
  }
}
