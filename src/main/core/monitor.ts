import {
  parseArgs,
  type ContractInput,
  type ContractMethod,
  type ContractResults,
  type DemoOwnerHint,
  type InvokeOptions,
  type PayloadOf,
  type RiskReading,
  type Settings,
  type StatusSnapshot,
  type TidewatchApi,
  type Topic,
} from '../../shared/contract';
import { AlertServices } from './alerts/alert-services';
import { toAbortSignal } from './client/abort';
import { redact, ServiceError } from './client/errors';
import type { Handlers } from './contract/context';
import { contractHandlers, dispatch } from './contract/handlers';
import { contractContext } from './contract/rooms';
import { CreditServices } from './credits/credit-services';
import type { MonitorOptions } from './monitor-options';
import { PushHub } from './push-hub';
import { RiskServices } from './risk/risk-services';
import { ServiceLink } from './service-link';
import { MemorySecretStore, SettingsService } from './settings';
import { StatusReporter } from './status-reporter';
import { Store } from './store/store';
import { StoreHealth } from './store/store-health';
import { StreamServices } from './streams/stream-services';
import { WatchRegistry } from './watch-registry';

export type { MonitorOptions } from './monitor-options';

/**
 * The monitor: the composition root of core. It builds each service, wires what one tells
 * another, and implements TidewatchApi for both shells through the contract's handlers
 * (core/contract). Each field is a service that owns its state.
 */
export class Monitor implements TidewatchApi {
  readonly store: Store;
  readonly settings: SettingsService;
  /** The data service as the settings point at it: the client, connectability, reachability. */
  readonly link: ServiceLink;
  /** What is watched: owners, their managers, the latest readings. */
  readonly watch: WatchRegistry;
  readonly hub: PushHub;
  readonly storeHealth: StoreHealth;
  /** The status bar's snapshot and its push. */
  private readonly reporter: StatusReporter;
  /** The alert room: the engine, alerts away from the desk, the monitor watching itself. */
  readonly alerts: AlertServices;
  /** The risk room: asset book, event units, prices, volatility, the read schedule, the valuation loop. */
  readonly risk: RiskServices;
  /** The credits room: what the service bills, and the plan kept to. */
  readonly credits: CreditServices;
  /** The streams room: the supervisor, the margin stream end to end, the pool streams. */
  readonly streams: StreamServices;
  private readonly handlers: Handlers;
  private closed = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: MonitorOptions) {
    const log = opts.log ?? (() => {});
    // Every log line passes the one redaction (a service's message may echo the key in any encoding).
    this.log = (line) => log(this.redact(line));
    // A key, an address, and the monitor open: reads and streams may go out.
    const connected = (): boolean => !this.closed && this.link.canConnect();
    // Built in dependency order: each service after those it calls while it is built. A callback
    // into one built later (an event, or data pulled for a snapshot) runs only once all are built.

    this.store = Store.open(opts.dataDir, this.log);
    if (this.store.notice) this.log(this.store.notice);
    this.settings = new SettingsService(this.store.settings, opts.secrets, opts.streamSecrets, opts.overrides);
    for (const owner of opts.watch ?? []) this.store.settings.addWatch(owner, null);
    this.watch = new WatchRegistry(this.store.settings, this.store.margin);
    this.hub = new PushHub((topic, count) => this.streams.onSubscribers(topic, count));
    this.reporter = new StatusReporter({
      network: () => this.effective().network,
      unreachableSince: () => this.link.unreachableSince,
      streams: () =>
        this.streams.supervisor
          .statuses()
          .map((s) =>
            s.id.startsWith('pool:') && this.streams.pools.isGuarded(s.id.slice(5)) ? { ...s, guard: true } : s,
          ),
      storeNotice: () => this.store.notice,
      storeError: () => this.storeHealth.current(),
      historyGaps: () => this.store.gaps.recent(),
      credits: () => (this.credits.metered ? this.credits.meter.usage() : null),
      reads: () => this.risk.schedule.plan(),
      unreached: () => [...this.alerts.notify.reach.unreached],
      publish: (s) => this.hub.publish('status', s),
      closed: () => this.closed,
    });
    this.store.onNotice = () => this.reporter.changed();
    this.storeHealth = new StoreHealth(
      () => this.streams.margin.storeFailure(),
      (reason) => this.alerts.engine.onStoreFailure(reason),
      () => this.reporter.changed(),
    );
    this.alerts = new AlertServices({
      store: this.store,
      storeHealth: this.storeHealth,
      cooldownMs: this.effective().alertCooldownSec * 1000,
      publish: (a) => this.hub.publish('alerts', a),
      channels: {
        stored: opts.notifySecrets ?? new MemorySecretStore(),
        file: opts.notifyFile ?? null,
        privacy: () => this.effective().privacyMode,
        publicUrl: () => opts.publicUrl?.() ?? null,
      },
      sight: () => ({
        expected: connected(),
        marginOpen: this.streams.margin.isOpen(),
        offline: this.link.offline,
        storeError: this.storeHealth.current(),
        creditsSpent: this.credits.plan.spent(),
      }),
      onReachChanged: () => this.reporter.changed(),
      now: opts.notifyClock,
      fetch: opts.fetch,
      log: this.log,
      redact: (text) => this.redact(text),
    });
    this.link = new ServiceLink({
      settings: this.settings,
      demo: opts.demo,
      fetch: opts.fetch,
      timeoutMs: opts.serviceTimeoutMs,
      onAnswered: (p) => this.credits.meter.noteRequest(p),
      onOfflineChange: () => this.reporter.changed(),
    });
    const client = this.link.client;
    const engine = this.alerts.engine;

    this.risk = new RiskServices({
      store: this.store,
      client,
      settings: () => this.effective(),
      watch: this.watch,
      alerts: engine,
      storeHealth: this.storeHealth,
      connected,
      offline: () => this.link.offline,
      noteNetwork: (err) => this.link.noteNetwork(err),
      budget: () => this.credits.plan.budgetState(),
      publish: (push) => this.hub.publish('risk', push),
      republish: (events) => this.hub.publish('margin', events),
      onValued: () => this.reporter.changed(),
      log: this.log,
    });

    this.streams = new StreamServices({
      store: this.store,
      client,
      settings: () => this.effective(),
      watch: this.watch,
      risk: this.risk,
      alerts: engine,
      hub: this.hub,
      storeHealth: this.storeHealth,
      connected,
      marginFirstStart: opts.marginFirstStart,
      tuning: opts.streams,
      fetch: opts.fetch,
      onBytes: (bytes) => this.credits.noteStreamBytes(bytes),
      onReachable: (reachable) => this.link.noteNetwork(reachable ? undefined : 'unreachable'),
      onChange: () => this.reporter.changed(),
      onMarginOpen: () => this.alerts.sight.noteStreamOpen(),
      closed: () => this.closed,
      redact: (s) => this.redact(s),
      log: this.log,
    });

    this.credits = new CreditServices({
      settings: this.settings,
      stored: this.store.settings,
      storeHealth: this.storeHealth,
      link: this.link,
      risk: { risk: this.risk.refresh, schedule: () => this.risk.schedule },
      streams: this.streams,
      owners: () => this.watch.list().length,
      onBudget: (share, usage) => engine.onCreditBudget(share, usage),
      onChange: () => this.reporter.changed(),
    });

    const rooms = {
      store: this.store,
      settings: this.settings,
      storeHealth: this.storeHealth,
      link: this.link,
      watch: this.watch,
      risk: this.risk,
      supervisor: this.streams.supervisor,
      plan: this.credits.plan,
      notify: this.alerts.notify,
    };
    this.handlers = contractHandlers(
      contractContext(rooms, {
        reconfigure: () => this.reconfigure(),
        retryStreams: () => this.retryStreamsNow(),
        status: () => this.status(),
        demoHints: () => this.demoHints(),
      }),
    );
  }

  /** Start the margin stream, the risk timer, the alert channels and the blind alarm. */
  start(): this {
    this.watch.learnStored();
    // A first start's history replay waits for the first Portfolio read.
    this.streams.margin.connectAfter(this.refreshRisk(), () => this.link.canConnect());
    this.risk.refresh.restartTimer();
    this.alerts.start();
    return this;
  }

  /**
   * The computer woke from sleep (Electron's powerMonitor): reconnect every stream now, so the
   * time asleep is read from the stream's cursor at once rather than after the watchdog; until
   * the margin stream opens, Tidewatch counts itself blind.
   */
  resume(): void {
    this.log('the computer woke from sleep: reconnecting the streams to read the time asleep');
    this.alerts.sight.noteResume();
    if (this.link.canConnect()) this.streams.supervisor.resumeAll();
  }

  status(): StatusSnapshot {
    return this.reporter.snapshot();
  }

  /** Settings with this run's overrides on top. */
  effective(): Settings {
    return this.settings.effective();
  }

  /**
   * Settings changed: point the client at them; when the service itself changed (network, URLs,
   * key, naming), forget what was learnt about it and reconnect every stream.
   */
  reconfigure(): void {
    const changed = this.link.reconfigure();
    this.streams.supervisor.setBudget(this.credits.plan.streamBudget());
    this.credits.meter.checkBudget();
    if (changed) {
      this.risk.resetService();
    }
    if (this.link.canConnect()) this.streams.reconnect(changed);
    this.risk.refresh.restartTimer();
    this.risk.schedule.replan();
    // Another service: read everything again. Other settings (thresholds, plan, budget) need only
    // a new valuation of what is kept: a save in Settings cost every wallet's lists and prices.
    void (changed ? this.refreshRisk() : this.risk.refresh.revalue());
    this.reporter.changed();
  }

  /** The service's plan chosen where the app starts (`serve --plan`). */
  choosePlan(plan: Exclude<Settings['plan'], 'custom'>): this {
    this.credits.plan.choose(plan);
    return this;
  }

  async invoke<M extends ContractMethod>(
    method: M,
    args: ContractInput<M>,
    options: InvokeOptions = {},
  ): Promise<ContractResults[M]> {
    if (this.closed) throw new Error('Tidewatch is shutting down');
    try {
      return await dispatch(this.handlers, method, parseArgs(method, args), toAbortSignal(options.signal));
    } catch (err) {
      // Whatever an error says goes through the one redaction before any shell answers with it.
      if (err instanceof Error) {
        err.message = this.redact(err.message);
        if (err instanceof ServiceError && err.request) err.request = this.redact(err.request);
      }
      throw err;
    }
  }

  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
    return this.hub.subscribe(topic, listener);
  }

  /** The one redaction with this run's secrets: the keys, and the alert channels' tokens, passwords and URLs. */
  redact(text: string): string {
    // One pass over all of them: every stream event goes through it.
    const channels = this.alerts ? this.alerts.notify.secrets() : [];
    return this.link ? this.link.client.http.redact(text, ...channels) : redact(text, ...channels);
  }

  /** The shells' last resort: an error nobody handled was caught and logged; the status shows it. */
  noteInternalError(err: unknown): void {
    this.reporter.noteInternalError(this.redact(err instanceof Error ? err.message : String(err)));
  }

  /** Reconnect every stream now (the user asked, or a key was entered). */
  retryStreamsNow(): void {
    this.streams.supervisor.resumeAll();
  }

  /** Owners to try, on the Demo network only. */
  private demoHints(): DemoOwnerHint[] {
    return this.effective().network === 'demo' ? (this.opts.demo?.hints?.() ?? []) : [];
  }

  /** Read every watched wallet now; resolves with the readings stored. */
  refreshRisk(): Promise<RiskReading[]> {
    return this.risk.refresh.refresh();
  }

  /** Stop streams and timers, commit what is held, close the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.reporter.close();
    this.risk.close();
    this.alerts.close();
    this.streams.close();
    this.credits.meter.flush();
    await this.store.shutdown(); // after the margin writer commits what it was handed
  }
}
