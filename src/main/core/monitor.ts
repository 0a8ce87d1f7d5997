import {
  parseArgs,
  type ContractInput,
  type ContractMethod,
  type DemoOwnerHint,
  type ContractResults,
  type InvokeOptions,
  type PayloadOf,
  type RiskReading,
  type KeyFacts,
  type Settings,
  type StatusSnapshot,
  type TidewatchApi,
  type Topic,
} from '../../shared/contract';
import { AlertEngine } from './alerts/alert-engine';
import { checkLargeLiquidations } from './alerts/large-liquidations';
import { redact, ServiceError } from './client/errors';
import type { ServiceConfig } from './client/http';
import { serviceConfigOf, serviceIdentity, type DemoTarget } from './client/service-target';
import { ServiceClient } from './client/service-client';
import { dispatch } from './monitor-queries';
import { PushHub } from './push-hub';
import { Notifier } from './notify/notifier';
import type { NotifyConfig } from './notify/config';
import { SightWatch, type SightState } from './notify/sight';
import type { PositionLevel } from '../../shared/risk-model';
import { AssetBookCache } from './risk/asset-book';
import { EventUnits } from './risk/event-amounts';
import { PriceBook } from './risk/prices';
import { OracleBook } from './risk/oracle-book';
import { managerHistory } from './risk/manager-history';
import { thresholdsFrom } from './risk/thresholds';
import { RiskRefresh } from './risk/risk-refresh';
import { MemorySecretStore, monthlyBudgetOf, planOf, SettingsService, type SecretStore } from './settings';
import type { IncomingMarginEvent } from './store/margin-events';
import { StoreHealth } from './store/store-health';
import { Store } from './store/store';
import { HistoryRecovery } from './streams/history-recovery';
import {
  alertOnReceipt,
  dispatchMarginEvents,
  learnStoredManagers,
  type MarginDispatchDeps,
} from './streams/margin-dispatch';
import { toAbortSignal } from './client/abort';
import { marginStream } from './streams/margin-stream';
import { PoolStreams } from './streams/pool-streams';
import { StreamSupervisor } from './streams/supervisor';
import { CreditMeter, CREDITS_KEY, type CreditCounts } from './credits/credit-meter';
import { forecast, MARGIN_STREAM_PRIOR_PER_DAY } from './credits/cost-model';
import { StreamVolumes } from './credits/stream-volume';
import { CADENCE_RULES, type CadenceRuleName } from './risk/cadence';
import { PRICE_READ_CREDITS, PriceSchedule, type BudgetState } from './risk/price-schedule';
import { VolatilityBook } from './risk/volatility';
import type { CreditForecast } from '../../shared/contract';

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
 * The monitor: composes the REST client, the store, the stream supervisor, risk and alerts,
 * and implements TidewatchApi for both shells.
 */
export class Monitor implements TidewatchApi {
  readonly store: Store;
  readonly settings: SettingsService;
  readonly client: ServiceClient;
  readonly supervisor: StreamSupervisor;
  readonly hub: PushHub;
  readonly alerts: AlertEngine;
  /** Alerts away from the desk: channels, outbox, escalation (notify/notifier.ts). */
  readonly notify: Notifier;
  /** The monitor watching itself: the blind alarm and the heartbeat (notify/sight.ts). */
  readonly sight: SightWatch;
  private readonly margin: ReturnType<typeof marginStream>;
  readonly assets: AssetBookCache;
  /** Units for stream #22 events (Live events and the margin push). */
  readonly eventUnits: EventUnits;
  readonly prices: PriceBook;
  /** The oracle's prices as learnt from the margin records: the one price set of every position. */
  readonly oracle: OracleBook;
  /** Each watched asset's volatility, which the price schedule reads. */
  readonly volatility = new VolatilityBook();
  /** When each watched asset's price is read (risk/price-schedule.ts). */
  readonly schedule: PriceSchedule;
  /** What each stream receives, for the cost model. */
  private readonly volumes = new StreamVolumes();
  readonly risk: RiskRefresh;
  /** Credits spent on the service (credits/credit-meter.ts). */
  readonly credits: CreditMeter;
  /** Liquidations before this time (replayed history) never raise the large-liquidation alert. */
  private readonly startedAt = Date.now();
  readonly watchedManagers = new Map<string, string>(); // watched managers -> owner (margin-dispatch.ts learns them)
  /** The latest risk reading of each watched manager (the tray shows the worst). */
  readonly latestReadings = new Map<string, RiskReading & { level: PositionLevel }>();
  private pools!: PoolStreams;
  private statusTimer: NodeJS.Timeout | undefined;
  private offlineSince: number | null = null;
  readonly storeHealth: StoreHealth;
  private internalError: { at: number; message: string } | null = null;
  private readonly recovery: HistoryRecovery;
  /** What stream #22's dispatch needs of the monitor (margin-dispatch.ts), built once: each liquidation's alert reads it. */
  private readonly marginDeps: Pick<MarginDispatchDeps, 'watchedSince' | 'watchedManagers' | 'eventUnits' | 'alerts'>;
  private closed = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: MonitorOptions) {
    const log = opts.log ?? (() => {});
    // Every log line passes the one redaction (a service's message may echo the key in any encoding).
    this.log = (line) => log(this.redact(line));
    this.store = Store.open(opts.dataDir, (line) => this.log(line));
    if (this.store.notice) this.log(this.store.notice);
    this.settings = new SettingsService(this.store.settings, opts.secrets, opts.streamSecrets);
    for (const owner of opts.watch ?? []) this.store.settings.addWatch(owner, null);
    this.client = new ServiceClient(this.serviceConfig());
    this.assets = new AssetBookCache(
      () => this.client,
      () => this.canConnect() && !this.closed,
    );
    this.eventUnits = new EventUnits(this.store.margin, this.store.cache, () => this.assets.now());
    this.prices = new PriceBook(
      () => this.client,
      () => [...(this.assets.peek()?.poolsById.values() ?? [])],
      (asset, p) => this.volatility.note(asset, p.usd, p.at),
    );
    this.oracle = new OracleBook();
    this.connectionIdentity = serviceIdentity(this.serviceConfig());
    this.hub = new PushHub((topic, count) => {
      if (topic.startsWith('pool:')) {
        this.pools.onSubscribers(topic.slice(5), count);
        // A pool stream's cost is measured afresh each time its page opens (closed time is not its rate).
        if (count === 0) this.volumes.forget(topic);
      }
    });
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
    this.alerts.poolOf = (id) => this.eventUnits.poolNameOf(id);
    this.notify = new Notifier({
      repo: this.store.risk,
      stored: opts.notifySecrets ?? new MemorySecretStore(),
      file: opts.notifyFile ?? null,
      privacy: () => this.effective().privacyMode,
      publicUrl: () => opts.publicUrl?.() ?? null,
      onAlertsChanged: (changed) => this.hub.publish('alerts', changed),
      fetch: opts.fetch,
      log: (line) => this.log(line),
      redact: (text) => this.redact(text),
    });
    this.sight = new SightWatch({
      state: () => this.sightState(),
      config: () => this.notify.config(),
      // The store refusing writes is one way to go blind: then the alarm goes out without the outbox.
      blind: (since, reasons, now) => this.notify.deliverUnstored(this.alerts.onBlind(since, reasons, now)),
      back: (since, now) => this.notify.deliverUnstored(this.alerts.onSight(since, now)),
      fetch: opts.fetch,
      log: (line) => this.log(line),
    });
    this.marginDeps = {
      watchedSince: (owner) => this.store.settings.watchedSince(owner),
      watchedManagers: this.watchedManagers,
      eventUnits: this.eventUnits,
      alerts: this.alerts,
    };
    this.risk = new RiskRefresh({
      client: () => this.client,
      assets: this.assets,
      prices: this.prices,
      oracle: this.oracle,
      cache: this.store.cache,
      risk: this.store.risk,
      alerts: this.alerts,
      watchList: () => this.store.settings.watchList(),
      thresholdsOf: () => thresholdsFrom(this.effective(), this.store.settings.thresholds()),
      history: (id) => managerHistory(this.store.margin, id),
      interestAlertDays: () => this.effective().interestAlertDays,
      cooldownMs: () => this.effective().alertCooldownSec * 1000,
      intervalMs: () => this.schedule.recordsIntervalMs() ?? this.effective().recordsRefreshSec * 1000,
      eventGapMs: (owner) => this.schedule.eventGapMs(owner),
      canRun: () => !this.closed && this.canConnect(),
      onManagers: (managers) => {
        this.storeHealth.guard(() =>
          this.store.margin.noteOwners(managers.map((m) => ({ id: m.id, owner: m.owner, dexPoolId: m.dexPoolId }))),
        );
        for (const m of managers) {
          this.watchedManagers.set(m.id, m.owner);
          this.eventUnits.notePool(m.id, m.dexPoolId);
        }
      },
      onReadings: (readings, portfolio) => {
        const levels = new Map(portfolio.wallets.flatMap((w) => w.positions.map((p) => [p.manager_id, p.level])));
        for (const r of readings)
          this.latestReadings.set(r.manager_id, { ...r, level: levels.get(r.manager_id) ?? 'ok' });
        for (const id of [...this.latestReadings.keys()])
          if (!this.watchedManagers.has(id)) this.latestReadings.delete(id);
        this.hub.publish('risk', { readings, portfolio });
      },
      onValued: () => {
        this.schedule.replan();
        this.scheduleStatus();
      },
      noteNetwork: (err) => this.noteNetwork(err),
      noteStore: (err) => this.storeHealth.note(err),
      log: (line) => this.log(line),
    });
    this.schedule = new PriceSchedule({
      prices: this.prices,
      volatility: this.volatility,
      client: () => this.client,
      rule: () =>
        CADENCE_RULES[(process.env['TIDEWATCH_CADENCE'] as CadenceRuleName | undefined) ?? 'guard'] ??
        CADENCE_RULES.guard,
      positions: () => this.risk.positions(),
      budget: () => this.budgetState(),
      onPrices: () => void this.risk.revalue(),
      canRun: () => !this.closed && this.canConnect() && !this.offline,
      log: (line) => this.log(line),
    });
    this.credits = new CreditMeter({
      load: () => this.store.settings.get<CreditCounts>(CREDITS_KEY),
      save: (c) => this.storeHealth.guard(() => this.store.settings.set(CREDITS_KEY, c)),
      budget: () => monthlyBudgetOf(this.effective()),
      onBudget: (share, usage) => this.alerts.onCreditBudget(share, usage),
      onChange: () => this.scheduleStatus(),
    });
    this.supervisor = new StreamSupervisor({
      budget: this.streamBudget(),
      fetch: opts.fetch,
      onBytes: (id, bytes) => {
        this.volumes.note(id, bytes);
        if (this.client.http.metered) this.credits.noteStreamBytes(bytes);
      },
      redact: (s) => this.redact(s),
      keyName: (id) => this.client.http.streamKeyName(id),
      onReachable: (reachable) => this.noteNetwork(reachable ? undefined : 'unreachable'),
      onLimitLearnt: (limit) =>
        this.log(
          `the service allows ${limit} stream${limit === 1 ? '' : 's'} at once (it refused one more): pool pages wait for a free one`,
        ),
      ...opts.streams,
    });
    this.pools = new PoolStreams({
      supervisor: this.supervisor,
      repo: this.store.market,
      client: () => this.client,
      canOpen: () => this.canConnect() && !this.closed,
      subscribers: (pool) => this.hub.count(`pool:${pool}`),
      publish: (pool, push) => this.hub.publish(`pool:${pool}`, push),
      noteStore: (pool, err) => this.storeHealth.note(err, `pool:${pool}`),
      log: (line) => this.log(line),
    });
    this.supervisor.onStatus((streams) => {
      for (const s of streams)
        if (s.state === 'stopped-auth' && s.lastError)
          this.alerts.onStreamAuthStopped(s.id, s.lastError, this.client.http.streamKeyName(s.id));
      this.scheduleStatus();
    });
    this.margin = marginStream({
      repo: this.store.margin,
      writer: this.store.marginWriter,
      naming: () => this.client.http.profile,
      urlFor: (lastId) => this.client.http.url('/dex-margin/manager-updates', { 'last-id': lastId }, 'stream'),
      firstStart: () => opts.marginFirstStart ?? (this.effective().network === 'demo' ? '0' : '$'),
      onCommitted: (events) => {
        this.recovery.noteAlive();
        this.onMarginCommitted(events);
      },
      onReceived: (e, data) => alertOnReceipt(e, data, this.marginDeps),
      onOpen: () => {
        this.sight.noteStreamOpen();
        this.recovery.onOpen();
      },
      onStoreState: (reason, err) => {
        if (reason !== null) {
          this.log(
            `store: ${reason} (${(err as Error | undefined)?.message ?? ''}); the margin stream stops until writes work again`,
          );
          this.supervisor.interrupt('margin');
        } else {
          this.log('store: writes work again; the margin stream resumes from its cursor');
        }
        this.storeHealth.changed();
      },
    });
    this.storeHealth = new StoreHealth(
      () => this.margin.storeFailure(),
      (reason) => this.alerts.onStoreFailure(reason),
      () => this.scheduleStatus(),
    );
    this.recovery = new HistoryRecovery({
      client: () => this.client,
      repo: this.store.margin,
      gaps: this.store.gaps,
      isOpen: () => this.supervisor.statuses().some((x) => x.id === 'margin' && x.state === 'open'),
      watchedOwners: () => this.store.settings.watchList().map((w) => w.owner),
      loadAliveAt: () => this.store.settings.get<number>('margin.aliveAt') ?? this.store.margin.cursorUpdatedAt(),
      saveAliveAt: (ms) => this.store.settings.set('margin.aliveAt', ms),
      onRecovered: (events) => this.onMarginCommitted(events),
      refreshRisk: () => this.refreshRisk(),
      onGap: (gap) => {
        this.log(
          `stream history from ${new Date(gap.fromMs).toISOString()} to ${new Date(gap.toMs).toISOString()} could not be replayed; ${gap.recoveredLiquidations} liquidations recovered over REST`,
        );
        this.alerts.onHistoryGap(gap.fromMs, gap.toMs, gap.message);
        this.scheduleStatus();
      },
      log: (line) => this.log(line),
    });
  }

  /** Start streams and the risk timer. */
  start(): this {
    learnStoredManagers(
      this.store.settings.watchList().map((w) => w.owner),
      this.store.margin,
      this.watchedManagers,
    );
    // A first start's history replay waits for the first Portfolio read (marginStream's connectAfter).
    this.margin.connectAfter(this.refreshRisk(), () => this.canConnect() && this.supervisor.add(this.margin.spec));
    this.risk.restartTimer();
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
    if (this.canConnect()) this.supervisor.resumeAll();
  }

  /** What the blind alarm judges (notify/sight.ts). */
  private sightState(): SightState {
    const s = this.effective();
    const budget = planOf(s)?.monthlyCredits ?? null;
    return {
      expected: this.canConnect() && !this.closed,
      marginOpen: this.supervisor.statuses().some((x) => x.id === 'margin' && x.state === 'open'),
      offline: this.offline,
      storeError: this.storeHealth.current(),
      creditsSpent: this.client.http.metered && budget !== null && this.credits.usage().thisMonth >= budget,
    };
  }

  /** Settings with this run's overrides on top. */
  effective(): Settings {
    return { ...this.settings.get(), ...this.opts.overrides };
  }

  private apiKey(): string | null {
    const s = this.effective();
    return s.network === 'demo' ? (this.opts.demo?.apiKey ?? null) : this.opts.secrets.get();
  }

  private canConnect(): boolean {
    const s = this.effective();
    return this.apiKey() !== null && (s.network === 'demo' ? this.opts.demo !== undefined : s.baseUrl !== '');
  }

  private connectionIdentity: string;

  private serviceConfig(): ServiceConfig {
    const s = this.effective();
    const keys = { apiKey: this.apiKey(), streamKeys: this.settings.streamKeys() };
    return serviceConfigOf(s, s.network === 'demo' ? this.opts.demo : undefined, keys, {
      fetch: this.opts.fetch,
      onAnswered: (p) => this.credits.noteRequest(p),
    });
  }

  /**
   * Settings changed: rebuild the client; when the service itself changed (network, URLs, key,
   * naming), forget what was learnt about it and reconnect every stream.
   */
  reconfigure(): void {
    const identity = serviceIdentity(this.serviceConfig());
    const changed = identity !== this.connectionIdentity;
    this.connectionIdentity = identity;
    this.client.http.reconfigure(this.serviceConfig());
    this.supervisor.setBudget(this.streamBudget());
    if (changed) {
      this.assets.reset();
      this.prices.reset();
      this.volatility.reset();
      this.risk.resetService();
    }
    if (this.canConnect()) {
      this.supervisor.add(this.margin.spec);
      if (changed) this.supervisor.resumeAll();
    }
    this.risk.restartTimer();
    this.schedule.replan();
    // Another service: read everything again. Other settings (thresholds, plan, budget) need only
    // a new valuation of what is kept: a save in Settings cost every wallet's lists and prices.
    void (changed ? this.refreshRisk() : this.risk.revalue());
    this.scheduleStatus();
  }

  /**
   * The service's plan chosen where the app starts (`serve --plan`): kept in Settings like a
   * choice made there, with its limits applied before anything is read.
   */
  choosePlan(plan: Exclude<Settings['plan'], 'custom'>): this {
    this.settings.update({ plan });
    this.client.http.reconfigure(this.serviceConfig());
    this.supervisor.setBudget(this.streamBudget());
    return this;
  }

  // ---- the contract ------------------------------------------------------------------

  async invoke<M extends ContractMethod>(
    method: M,
    args: ContractInput<M>,
    options: InvokeOptions = {},
  ): Promise<ContractResults[M]> {
    if (this.closed) throw new Error('Tidewatch is shutting down');
    try {
      return await dispatch(this, method, parseArgs(method, args), toAbortSignal(options.signal));
    } catch (err) {
      // Whatever an error says goes through the one redaction before any shell answers with it.
      if (err instanceof Error) {
        err.message = this.redact(err.message);
        if (err instanceof ServiceError && err.request) err.request = this.redact(err.request);
      }
      throw err;
    }
  }

  /** The one redaction with this run's secrets (`client/errors.ts` redact). */
  redact(text: string): string {
    const once = this.client ? this.client.http.redact(text) : redact(text);
    // The alert channels' secrets (tokens, passwords, webhook URLs) too.
    return this.notify ? redact(once, ...this.notify.secrets()) : once;
  }

  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
    return this.hub.subscribe(topic, listener);
  }

  status(): StatusSnapshot {
    let historyGaps: StatusSnapshot['historyGaps'] = [];
    try {
      historyGaps = this.closed ? [] : this.store.gaps.recent();
    } catch {
      // a store that cannot be read says so through storeError
    }
    return {
      network: this.effective().network,
      online: this.offlineSince === null,
      offlineSince: this.offlineSince,
      streams: this.supervisor.statuses(),
      storeNotice: this.store.notice,
      storeError: this.storeHealth.current(),
      historyGaps,
      internalError: this.internalError,
      credits: this.client.http.metered ? this.credits.usage() : null,
      reads: this.schedule.plan(),
    };
  }

  /**
   * Streams open at once: the plan's (Settings). The Demo network in this process is free and has
   * no limit, so there a named plan's one stream does not keep a pool page from streaming; a
   * custom budget is taken as set.
   */
  private streamBudget(): number {
    const s = this.effective();
    return s.network === 'demo' && s.plan !== 'custom' ? Math.max(s.streamBudget, 4) : s.streamBudget;
  }

  /** What the budget allows the schedule (no budget where reads are free: the Demo network in this process). */
  private budgetState(): BudgetState {
    const s = this.effective();
    const rate = this.volumes.rate('margin');
    const metered = this.client.http.metered;
    return {
      monthly: metered ? monthlyBudgetOf(s) : null,
      spentThisMonth: metered ? this.credits.usage().thisMonth : 0,
      fixedPerDay: rate === null ? MARGIN_STREAM_PRIOR_PER_DAY : (rate * 86_400) / 1024,
      records: {
        id: 'margin records',
        intervalMs: s.recordsRefreshSec * 1000,
        credits: this.risk.recordsCredits(),
        maxMs: 86_400_000,
      },
      events: this.risk.eventReads(),
    };
  }

  /** Credits a day at the current settings, and where they go (credits/cost-model.ts). */
  creditForecast(): CreditForecast {
    const s = this.effective();
    const pools = this.supervisor.statuses().filter((x) => x.id.startsWith('pool:') && x.state === 'open');
    // Where reads are free (the Demo network in this process) they are not paced: the forecast is
    // of what the service would charge, so it plans them as the service's budget would pace them.
    const paced = this.client.http.metered
      ? null
      : this.schedule.planWith({ ...this.budgetState(), monthly: monthlyBudgetOf(s) });
    return forecast({
      plan: { name: s.plan, plan: planOf(s) },
      budget: monthlyBudgetOf(s),
      marginStreamRate: this.volumes.rate('margin'),
      prices: paced
        ? paced.assets.map((a) => ({
            id: this.prices.symbolOf(a.asset),
            intervalMs: a.everyMs,
            credits: PRICE_READ_CREDITS,
          }))
        : this.schedule.reads(),
      owners: this.store.settings.watchList().length,
      recordsCredits: this.risk.recordsCredits(),
      recordsEveryMs: (paced ? paced.recordsEveryMs : this.schedule.recordsIntervalMs()) ?? s.recordsRefreshSec * 1000,
      events: paced ? paced.events : this.schedule.eventReads(),
      poolStreams: pools.map((p) => ({ pool: p.id.slice(5), rate: this.volumes.rate(p.id) })),
    });
  }

  /**
   * The shells' last resort: an error nobody handled was caught, logged, and survived. It shows
   * in the status so the user knows something went wrong; the tests fail on any such error.
   */
  noteInternalError(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.internalError = { at: Date.now(), message: this.redact(message).slice(0, 300) };
    this.scheduleStatus();
  }

  /** Reconnect every stream now (the user asked, or a key was entered). */
  retryStreamsNow(): void {
    this.supervisor.resumeAll();
  }

  /** Owners to try, on the Demo network only. */
  demoHints(): DemoOwnerHint[] {
    return this.effective().network === 'demo' ? (this.opts.demo?.hints?.() ?? []) : [];
  }

  /** Whether the service is known to be unreachable now. */
  get offline(): boolean {
    return this.offlineSince !== null;
  }

  /** Record whether the service answered: drives the offline banner. */
  noteNetwork(err?: unknown): void {
    const offline =
      err === 'unreachable' || (err instanceof ServiceError && (err.kind === 'network' || err.kind === 'timeout'));
    const was = this.offlineSince;
    if (offline) this.offlineSince ??= Date.now();
    else if (!err) this.offlineSince = null;
    if (was !== this.offlineSince) this.scheduleStatus();
  }

  private scheduleStatus(): void {
    if (this.closed) return;
    this.statusTimer ??= setTimeout(() => {
      this.statusTimer = undefined;
      this.hub.publish('status', this.status());
    }, 100);
  }

  // ---- streams -----------------------------------------------------------------------

  private onMarginCommitted(events: IncomingMarginEvent[]): void {
    dispatchMarginEvents(events, {
      ...this.marginDeps,
      checkLarge: (evs) =>
        void checkLargeLiquidations(evs, {
          limitUsd: this.effective().largeLiquidationUsd,
          since: this.startedAt,
          assets: this.assets,
          prices: this.prices,
          alerts: this.alerts,
          closed: () => this.closed,
          log: this.log,
        }),
      publish: (pushed) => this.hub.publish('margin', pushed),
      listening: () => this.hub.count('margin') > 0,
      refreshSoon: (owners) => this.risk.refreshSoon(owners),
    });
  }

  // ---- risk --------------------------------------------------------------------------

  /** Read every watched wallet now; resolves with the readings stored. */
  refreshRisk(): Promise<RiskReading[]> {
    return this.risk.refresh();
  }

  // ---- lifecycle ---------------------------------------------------------------------

  /** Stop streams and timers, commit what is held, close the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.risk.close();
    this.notify.close();
    this.sight.close();
    this.schedule.close();
    this.supervisor.stopAll();
    this.recovery.close();
    this.margin.flush();
    this.pools.flushAll();
    this.credits.flush();
    await this.store.shutdown(); // after the margin writer commits what it was handed
  }
}
