import {
  parseArgs,
  type ContractInput,
  type ContractMethod,
  type ContractResults,
  type CreditForecast,
  type DemoOwnerHint,
  type InvokeOptions,
  type KeyFacts,
  type PayloadOf,
  type RiskReading,
  type Settings,
  type StatusSnapshot,
  type TidewatchApi,
  type Topic,
} from '../../shared/contract';
import { AlertEngine } from './alerts/alert-engine';
import { toAbortSignal } from './client/abort';
import { redact, ServiceError } from './client/errors';
import type { ServiceClient } from './client/service-client';
import { ServiceLink } from './client/service-link';
import type { DemoTarget } from './client/service-target';
import { contractHandlers, dispatch } from './contract/handlers';
import type { Handlers } from './contract/context';
import { CreditMeter, CREDITS_KEY, type CreditCounts } from './credits/credit-meter';
import { CreditPlan } from './credits/credit-plan';
import { StreamVolumes } from './credits/stream-volume';
import type { NotifyConfig } from './notify/config';
import { Notifier } from './notify/notifier';
import { SightWatch } from './notify/sight';
import { PushHub } from './push-hub';
import { RiskServices } from './risk/risk-services';
import { MemorySecretStore, monthlyBudgetOf, SettingsService, type SecretStore } from './settings';
import { StatusReporter } from './status-reporter';
import { Store } from './store/store';
import { StoreHealth } from './store/store-health';
import { MarginService } from './streams/margin-service';
import { PoolStreams } from './streams/pool-streams';
import { StreamSupervisor } from './streams/supervisor';
import { WatchRegistry } from './watch-registry';

export interface MonitorOptions {
  dataDir: string;
  /** The Demo network the shell started (src/sim), used when settings.network is `demo`. */
  demo?: DemoTarget & { hints?: () => DemoOwnerHint[] };
  secrets: SecretStore;
  /** The stream keys (client/stream-keys.ts); none: streams use the API key. */
  streamSecrets?: SecretStore;
  /** The alert channels saved in Settings (one config document with its secrets), kept like the api-key. */
  notifySecrets?: SecretStore;
  /** `serve --notify-config FILE`, parsed: its channels for this run. */
  notifyFile?: { path: string; config: NotifyConfig; secrets: string[] } | null;
  /** The address links in messages point to when the config names none (serve's), or none. */
  publicUrl?: () => string | null;
  /** Settings forced by the command line for this run (not persisted). */
  overrides?: Partial<Omit<Settings, KeyFacts>>;
  /** Owners added to the watch list at start. */
  watch?: string[];
  /** `last-id` for the margin stream's very first start; default: `0` on the Demo network, `$` elsewhere. */
  marginFirstStart?: '$' | '0';
  fetch?: typeof fetch;
  /** Stream tuning (tests use short times). */
  streams?: { watchdogMs?: number; backoffBaseMs?: number; backoffCapMs?: number };
  log?: (line: string) => void;
}

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
  readonly alerts: AlertEngine;
  /** Alerts away from the desk: channels, outbox, escalation. */
  readonly notify: Notifier;
  /** The monitor watching itself: the blind alarm and the heartbeat. */
  readonly sight: SightWatch;
  /** The risk room: asset book, event units, prices, volatility, the read schedule, the valuation loop. */
  readonly risk: RiskServices;
  /** Credits spent on the service, and the plan kept to. */
  readonly credits: CreditMeter;
  readonly plan: CreditPlan;
  readonly supervisor: StreamSupervisor;
  readonly margin: MarginService;
  private readonly pools: PoolStreams;
  /** What each stream receives, for the cost model. */
  private readonly volumes = new StreamVolumes();
  private readonly handlers: Handlers;
  private closed = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: MonitorOptions) {
    const log = opts.log ?? (() => {});
    // Every log line passes the one redaction (a service's message may echo the key in any encoding).
    this.log = (line) => log(this.redact(line));
    const live = (): boolean => !this.closed;
    // Built in dependency order: each service after those it calls while it is built. A callback
    // into one built later (an event, or data pulled for a snapshot) runs only once all are built.

    this.store = Store.open(opts.dataDir, this.log);
    if (this.store.notice) this.log(this.store.notice);
    this.settings = new SettingsService(this.store.settings, opts.secrets, opts.streamSecrets, opts.overrides);
    for (const owner of opts.watch ?? []) this.store.settings.addWatch(owner, null);
    this.watch = new WatchRegistry(this.store.settings, this.store.margin);
    this.hub = new PushHub((topic, count) => this.onSubscribers(topic, count));
    this.reporter = new StatusReporter({
      network: () => this.effective().network,
      unreachableSince: () => this.link.unreachableSince,
      streams: () => this.supervisor.statuses(),
      storeNotice: this.store.notice,
      storeError: () => this.storeHealth.current(),
      historyGaps: () => this.store.gaps.recent(),
      credits: () => (this.link.client.http.metered ? this.credits.usage() : null),
      reads: () => this.risk.schedule.plan(),
      publish: (s) => this.hub.publish('status', s),
      closed: () => this.closed,
    });
    this.storeHealth = new StoreHealth(
      () => this.margin.storeFailure(),
      (reason) => this.alerts.onStoreFailure(reason),
      () => this.reporter.changed(),
    );
    this.alerts = new AlertEngine(
      this.store.risk,
      (a) => this.hub.publish('alerts', a),
      this.effective().alertCooldownSec * 1000,
      (err) => this.storeHealth.note(err, 'alerts'),
      {
        load: () => this.store.settings.get('risk.levels'),
        save: (s) => this.storeHealth.guard(() => this.store.settings.set('risk.levels', s)),
      },
    );
    this.credits = new CreditMeter({
      load: () => this.store.settings.get<CreditCounts>(CREDITS_KEY),
      save: (c) => this.storeHealth.guard(() => this.store.settings.set(CREDITS_KEY, c)),
      budget: () => monthlyBudgetOf(this.effective()),
      onBudget: (share, usage) => this.alerts.onCreditBudget(share, usage),
      onChange: () => this.reporter.changed(),
    });
    this.link = new ServiceLink({
      settings: this.settings,
      demo: opts.demo,
      fetch: opts.fetch,
      onAnswered: (p) => this.credits.noteRequest(p),
      onOfflineChange: () => this.reporter.changed(),
    });
    const client = this.link.client;
    const connected = (): boolean => live() && this.link.canConnect();

    this.notify = new Notifier({
      repo: this.store.risk,
      stored: opts.notifySecrets ?? new MemorySecretStore(),
      file: opts.notifyFile ?? null,
      privacy: () => this.effective().privacyMode,
      publicUrl: () => opts.publicUrl?.() ?? null,
      onAlertsChanged: (changed) => this.hub.publish('alerts', changed),
      fetch: opts.fetch,
      log: this.log,
      redact: (text) => this.redact(text),
    });

    this.risk = new RiskServices({
      store: this.store,
      client,
      settings: () => this.effective(),
      watch: this.watch,
      alerts: this.alerts,
      storeHealth: this.storeHealth,
      connected,
      offline: () => this.link.offline,
      noteNetwork: (err) => this.link.noteNetwork(err),
      budget: () => this.plan.budgetState(),
      publish: (push) => this.hub.publish('risk', push),
      onValued: () => this.reporter.changed(),
      log: this.log,
    });
    const { assets, eventUnits, prices, refresh, schedule } = this.risk;

    this.supervisor = new StreamSupervisor({
      budget: this.settings.effective().streamBudget,
      fetch: opts.fetch,
      onBytes: (id, bytes) => {
        this.volumes.note(id, bytes);
        if (client.http.metered) this.credits.noteStreamBytes(bytes);
      },
      redact: (s) => this.redact(s),
      keyName: (id) => client.http.streamKeyName(id),
      onReachable: (reachable) => this.link.noteNetwork(reachable ? undefined : 'unreachable'),
      onLimitLearnt: (limit) =>
        this.log(
          `the service allows ${limit} stream${limit === 1 ? '' : 's'} at once (it refused one more): pool pages wait for a free one`,
        ),
      ...opts.streams,
    });
    this.plan = new CreditPlan({
      settings: this.settings,
      link: this.link,
      credits: this.credits,
      volumes: this.volumes,
      risk: refresh,
      schedule: () => schedule,
      prices,
      streams: () => this.supervisor.statuses(),
      owners: () => this.watch.list().length,
      setStreamBudget: (n) => this.supervisor.setBudget(n),
    });
    this.supervisor.setBudget(this.plan.streamBudget());
    this.supervisor.onStatus((streams) => {
      for (const s of streams)
        if (s.state === 'stopped-auth' && s.lastError)
          this.alerts.onStreamAuthStopped(s.id, s.lastError, client.http.streamKeyName(s.id));
      this.reporter.changed();
    });
    this.pools = new PoolStreams({
      supervisor: this.supervisor,
      repo: this.store.market,
      client: () => client,
      canOpen: connected,
      subscribers: (pool) => this.hub.count(`pool:${pool}`),
      publish: (pool, push) => this.hub.publish(`pool:${pool}`, push),
      noteStore: (pool, err) => this.storeHealth.note(err, `pool:${pool}`),
      log: this.log,
    });
    this.margin = new MarginService({
      store: this.store,
      client: () => client,
      supervisor: this.supervisor,
      watch: this.watch,
      eventUnits,
      alerts: this.alerts,
      assets,
      prices,
      firstStart: () => opts.marginFirstStart ?? (this.effective().network === 'demo' ? '0' : '$'),
      largeLiquidationUsd: () => this.effective().largeLiquidationUsd,
      publish: (pushed) => this.hub.publish('margin', pushed),
      listening: () => this.hub.count('margin') > 0,
      refreshRisk: () => refresh.refresh(),
      refreshSoon: (owners) => refresh.refreshSoon(owners),
      onOpen: () => this.sight.noteStreamOpen(),
      onStoreState: () => this.storeHealth.changed(),
      onGap: () => this.reporter.changed(),
      closed: () => this.closed,
      log: this.log,
    });

    this.sight = new SightWatch({
      state: () => ({
        expected: connected(),
        marginOpen: this.margin.isOpen(),
        offline: this.link.offline,
        storeError: this.storeHealth.current(),
        creditsSpent: this.plan.spent(),
      }),
      config: () => this.notify.config(),
      // The store refusing writes is one way to go blind: then the alarm goes out without the outbox.
      blind: (since, reasons, now) => this.notify.deliverUnstored(this.alerts.onBlind(since, reasons, now)),
      back: (since, now) => this.notify.deliverUnstored(this.alerts.onSight(since, now)),
      fetch: opts.fetch,
      log: this.log,
    });

    this.handlers = contractHandlers({
      client,
      cache: this.store.cache,
      market: this.store.market,
      margin: this.store.margin,
      alerts: this.store.risk,
      stored: this.store.settings,
      storeHealth: this.storeHealth,
      noteNetwork: (err) => this.link.noteNetwork(err),
      offline: () => this.link.offline,
      streams: () => this.supervisor.statuses(),
      watch: this.watch,
      eventUnits,
      risk: refresh,
      assets,
      settings: this.settings,
      reconfigure: () => this.reconfigure(),
      retryStreams: () => this.retryStreamsNow(),
      status: () => this.status(),
      forecast: () => this.plan.forecast(),
      notify: this.notify,
      demoHints: () => this.demoHints(),
    });
  }

  /** Start the margin stream, the risk timer, the alert channels and the blind alarm. */
  start(): this {
    this.watch.learnStored();
    // A first start's history replay waits for the first Portfolio read.
    this.margin.connectAfter(this.refreshRisk(), () => this.link.canConnect());
    this.risk.refresh.restartTimer();
    this.notify.start();
    this.sight.start();
    return this;
  }

  /**
   * The computer woke from sleep (Electron's powerMonitor): reconnect every stream now, so the
   * time asleep is read from the stream's cursor at once rather than after the watchdog; until
   * the margin stream opens, Tidewatch counts itself blind.
   */
  resume(): void {
    this.log('the computer woke from sleep: reconnecting the streams to read the time asleep');
    this.sight.noteResume();
    if (this.link.canConnect()) this.supervisor.resumeAll();
  }

  status(): StatusSnapshot {
    return this.reporter.snapshot();
  }

  /** Settings with this run's overrides on top. */
  effective(): Settings {
    return this.settings.effective();
  }

  get client(): ServiceClient {
    return this.link.client;
  }

  /**
   * Settings changed: point the client at them; when the service itself changed (network, URLs,
   * key, naming), forget what was learnt about it and reconnect every stream.
   */
  reconfigure(): void {
    const changed = this.link.reconfigure();
    this.supervisor.setBudget(this.plan.streamBudget());
    if (changed) {
      this.risk.resetService();
    }
    if (this.link.canConnect()) {
      this.supervisor.add(this.margin.spec);
      if (changed) this.supervisor.resumeAll();
    }
    this.risk.refresh.restartTimer();
    this.risk.schedule.replan();
    // Another service: read everything again. Other settings (thresholds, plan, budget) need only
    // a new valuation of what is kept: a save in Settings cost every wallet's lists and prices.
    void (changed ? this.refreshRisk() : this.risk.refresh.revalue());
    this.reporter.changed();
  }

  /** The service's plan chosen where the app starts (`serve --plan`). */
  choosePlan(plan: Exclude<Settings['plan'], 'custom'>): this {
    this.plan.choose(plan);
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
    const once = this.link ? this.link.client.http.redact(text) : redact(text);
    return this.notify ? redact(once, ...this.notify.secrets()) : once;
  }

  /** The shells' last resort: an error nobody handled was caught and logged; the status shows it. */
  noteInternalError(err: unknown): void {
    this.reporter.noteInternalError(this.redact(err instanceof Error ? err.message : String(err)));
  }

  /** Reconnect every stream now (the user asked, or a key was entered). */
  retryStreamsNow(): void {
    this.supervisor.resumeAll();
  }

  /** Owners to try, on the Demo network only. */
  demoHints(): DemoOwnerHint[] {
    return this.effective().network === 'demo' ? (this.opts.demo?.hints?.() ?? []) : [];
  }

  /** Read every watched wallet now; resolves with the readings stored. */
  refreshRisk(): Promise<RiskReading[]> {
    return this.risk.refresh.refresh();
  }

  creditForecast(): CreditForecast {
    return this.plan.forecast();
  }

  /** A pool's page opened or closed: its stream follows; its cost is measured afresh each time it opens. */
  private onSubscribers(topic: Topic, count: number): void {
    if (!topic.startsWith('pool:')) return;
    this.pools.onSubscribers(topic.slice(5), count);
    if (count === 0) this.volumes.forget(topic);
  }

  /** Stop streams and timers, commit what is held, close the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.reporter.close();
    this.risk.close();
    this.notify.close();
    this.sight.close();
    this.supervisor.stopAll();
    this.margin.close();
    this.pools.flushAll();
    this.credits.flush();
    await this.store.shutdown(); // after the margin writer commits what it was handed
  }
}
