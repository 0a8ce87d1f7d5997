import {
  parseArgs,
  type AlertRecord,
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
import { ServiceError } from './client/errors';
import { Redaction } from './client/redaction';
import type { Handlers } from './contract/context';
import { contractHandlers, dispatch } from './contract/handlers';
import { pushFacts } from './contract/pushes';
import { contractContext } from './contract/rooms';
import { CreditServices } from './credits/credit-services';
import { gatherDigest, storeDigestSources } from './digest/digest-facts';
import { DigestSchedule } from './digest/digest-schedule';
import { digestText } from './digest/digest-text';
import { EventBus, type CoreBus, type CoreEvents } from './events';
import type { MonitorOptions } from './monitor-options';
import { SightWatch } from './notify/sight';
import { PushHub } from './push-hub';
import { RiskServices } from './risk/risk-services';
import { ServiceLink } from './service-link';
import { MemorySecretStore, SettingsService } from './settings';
import { StatusReporter } from './status-reporter';
import { Store } from './store/store';
import { StoreHealth } from './store/store-health';
import { StreamServices } from './streams/stream-services';
import { WatchRegistry, type LatestReading } from './watch-registry';

export type { MonitorOptions } from './monitor-options';

/**
 * The monitor: the composition root of core. It builds each service in dependency order (each
 * after every service it calls), gives them one event bus to tell one another what happened
 * (events.ts), and runs their lifecycle. The shells get the contract (TidewatchApi, answered by
 * the handlers of core/contract), the lifecycle, and the few things a shell itself shows: the
 * tray's readings, the desktop's notifications, the acknowledge links. The services stay inside
 * (tests/support/monitor-harness.ts shows them to tests).
 */
export class Monitor implements TidewatchApi {
  /** What happened, published by the service that saw it to the services that care. */
  protected readonly events: CoreBus;
  protected readonly hub: PushHub;
  protected readonly store: Store;
  protected readonly settings: SettingsService;
  /** What is watched: owners, their managers, the latest readings. */
  protected readonly watch: WatchRegistry;
  protected readonly storeHealth: StoreHealth;
  /** The data service as the settings point at it: the client, connectability, reachability. */
  protected readonly link: ServiceLink;
  /** The alert room: the channels (router, outbox, escalation), then the engine. */
  protected readonly alerts: AlertServices;
  /** The risk room: asset book, event units, prices, volatility, the read schedule, the valuation loop. */
  protected readonly risk: RiskServices;
  /** The credits room: what the service bills, and the plan kept to. */
  protected readonly credits: CreditServices;
  /** The daily digest at the time set (Settings `digestAt`). */
  protected readonly digest: DigestSchedule;
  /** The streams room: the supervisor, the margin stream end to end, the pool streams. */
  protected readonly streams: StreamServices;
  /** The monitor watching itself: the blind alarm and the heartbeat. */
  protected readonly sight: SightWatch;
  /** The status bar's snapshot and its push. */
  private readonly reporter: StatusReporter;
  /** The one redaction: the keys once the link is built, the channels' secrets once the notifier is. */
  private readonly redaction = new Redaction();
  private readonly handlers: Handlers;
  private closed = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: MonitorOptions) {
    const log = opts.log ?? (() => {});
    // Every log line passes the one redaction (a service's message may echo the key in any encoding).
    this.log = (line) => log(this.redact(line));
    const redact = (text: string): string => this.redact(text);
    // Built in dependency order: each service after every service it calls, so none reaches one
    // built later; what one tells the others goes on the bus, and those that care subscribe.
    const events = (this.events = new EventBus<CoreEvents>(this.log));
    this.hub = new PushHub(events);
    // The pages hear of a fact before any other listener does.
    pushFacts(events, this.hub);

    const store = (this.store = Store.open(opts.dataDir, this.log, events));
    if (store.notice) this.log(store.notice);
    const settings = (this.settings = new SettingsService(
      store.settings,
      opts.secrets,
      opts.streamSecrets,
      opts.overrides,
    ));
    for (const owner of opts.watch ?? []) store.settings.addWatch(owner, null);
    const watch = (this.watch = new WatchRegistry(store.settings, store.margin));
    const storeHealth = (this.storeHealth = new StoreHealth(events));
    const link = (this.link = new ServiceLink({
      settings,
      demo: opts.demo,
      fetch: opts.fetch,
      timeoutMs: opts.serviceTimeoutMs,
      events,
    }));
    this.redaction.add(link.client.http);
    const alerts = (this.alerts = new AlertServices({
      store,
      storeHealth,
      cooldownMs: settings.effective().alertCooldownSec * 1000,
      // A wallet's group (the watch list) and the group's rule (Settings): a wallet on no list is the trader's own.
      groupRule: (owner) => settings.effective().groupRules[watch.groupOf(owner) ?? 'mine'],
      dustUsd: () => settings.effective().dustDebtUsd,
      channels: {
        stored: opts.notifySecrets ?? new MemorySecretStore(),
        file: opts.notifyFile ?? null,
        privacy: () => settings.effective().privacyMode,
        publicUrl: () => opts.publicUrl?.() ?? null,
        digestChannels: () => settings.effective().digestChannels,
      },
      events,
      now: opts.notifyClock,
      fetch: opts.fetch,
      log: this.log,
      redact,
    }));
    this.redaction.add(alerts.notify);
    const engine = alerts.engine;
    const risk = (this.risk = new RiskServices({
      store,
      link,
      settings,
      watch,
      alerts: engine,
      storeHealth,
      events,
      log: this.log,
    }));
    const credits = (this.credits = new CreditServices({
      settings,
      stored: store.settings,
      storeHealth,
      link,
      risk,
      watch,
      events,
    }));
    const digestSources = storeDigestSources(store, () => credits.usage());
    this.digest = new DigestSchedule({
      at: () => settings.effective().digestAt,
      zone: () => settings.effective().digestZone,
      build: (now, zone) => digestText(gatherDigest(digestSources, now), zone),
      engine,
      clock: opts.digestClock,
      log: this.log,
    });
    const streams = (this.streams = new StreamServices({
      store,
      link,
      settings,
      watch,
      risk,
      alerts: engine,
      hub: this.hub,
      storeHealth,
      credits,
      events,
      marginFirstStart: opts.marginFirstStart,
      tuning: opts.streams,
      fetch: opts.fetch,
      redact,
      log: this.log,
    }));
    this.sight = SightWatch.over({
      link,
      margin: streams.margin,
      storeHealth,
      plan: credits.plan,
      notify: alerts.notify,
      alarms: engine,
      events,
      fetch: opts.fetch,
      log: this.log,
    });
    this.reporter = new StatusReporter({
      settings,
      link,
      store,
      storeHealth,
      streams,
      credits,
      schedule: risk.schedule,
      reach: alerts.notify.reach,
      events,
    });

    const rooms = {
      store,
      settings,
      storeHealth,
      link,
      watch,
      risk,
      // Its statuses mark a pool stream the guard holds (the forecast names it so).
      supervisor: streams,
      plan: credits.plan,
      notify: alerts.notify,
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
    this.sight.start();
    this.digest.start();
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
  private reconfigure(): void {
    const changed = this.link.reconfigure();
    this.streams.supervisor.setBudget(this.credits.plan.streamBudget());
    this.credits.meter.checkBudget();
    if (changed) {
      this.risk.resetService();
    }
    if (this.link.canConnect()) this.streams.reconnect(changed);
    this.risk.refresh.restartTimer();
    this.risk.schedule.replan();
    this.digest.rearm();
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
    return this.redaction.redact(text);
  }

  /**
   * The tray's figures: each watched loan's latest reading (with its level, and whether its
   * wallet's group is alerted: Settings `groupRules`) and when it was valued.
   */
  latestReadings(): { readings: Array<LatestReading & { alerted: boolean }>; valuedAt: number | null } {
    const rules = this.settings.effective().groupRules;
    const readings = [...this.watch.latest.values()].map((r) => ({
      ...r,
      alerted: rules[this.watch.groupOf(r.owner) ?? 'mine'] === 'alert',
    }));
    return { readings, valuedAt: this.watch.valuedAt };
  }

  /** Whether the desktop's notification carries this alert (its channel's level, rules, quiet hours). */
  desktopCarries(alert: AlertRecord): boolean {
    return this.alerts.notify.desktopCarries(alert);
  }

  /** The alert an acknowledge link's token names, without spending it (`serve`'s confirming page). */
  alertOfToken(token: string): AlertRecord | undefined {
    return this.alerts.notify.alertOfToken(token);
  }

  /** An acknowledge link was used: its alert is acknowledged, once; undefined for a token unknown or spent. */
  acknowledgeByToken(token: string): AlertRecord | undefined {
    return this.alerts.notify.acknowledgeByToken(token);
  }

  /** The shells' last resort: an error nobody handled was caught and logged; the status shows it. */
  noteInternalError(err: unknown): void {
    this.reporter.noteInternalError(this.redact(err instanceof Error ? err.message : String(err)));
  }

  /** Reconnect every stream now (the user asked, or a key was entered). */
  private retryStreamsNow(): void {
    this.streams.supervisor.resumeAll();
  }

  /** Owners to try, on the Demo network only. */
  private demoHints(): DemoOwnerHint[] {
    return this.effective().network === 'demo' ? (this.opts.demo?.hints?.() ?? []) : [];
  }

  /** Read every watched wallet now; resolves with the readings stored. */
  protected refreshRisk(): Promise<RiskReading[]> {
    return this.risk.refresh.refresh();
  }

  /** Stop streams and timers, commit what is held, close the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.link.close();
    this.reporter.close();
    this.risk.close();
    this.alerts.close();
    this.digest.close();
    this.sight.close();
    this.streams.close();
    this.credits.meter.flush();
    await this.store.shutdown(); // after the margin writer commits what it was handed
  }
}
