import type { StreamStatus } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import type { CreditServices } from '../credits/credit-services';
import type { CoreBus } from '../events';
import type { PushHub } from '../push-hub';
import type { RiskServices } from '../risk/risk-services';
import type { ServiceLink } from '../service-link';
import type { SettingsService } from '../settings';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';
import { MarginService } from './margin-service';
import { PoolStreams } from './pool-streams';
import { StreamSupervisor, type SupervisorOptions } from './supervisor';

export interface StreamServicesDeps {
  store: Store;
  link: ServiceLink;
  settings: Pick<SettingsService, 'effective'>;
  watch: WatchRegistry;
  risk: Pick<RiskServices, 'assets' | 'eventUnits' | 'lateUnits' | 'prices' | 'refresh' | 'danger'>;
  alerts: AlertEngine;
  /** How many pages show a topic: the margin stream dresses events only for one, a pool stream opens for one. */
  hub: Pick<PushHub, 'count'>;
  storeHealth: StoreHealth;
  /** The plan's limit of streams open at once, and the volumes that measure each stream afresh when it opens. */
  credits: Pick<CreditServices, 'plan' | 'volumes'>;
  /** What the streams publish and hear: pages coming and going, the guard's pools, the plan's stream limit. */
  events: CoreBus;
  /** `last-id` for the margin stream's very first start; default: `0` on the Demo network, `$` elsewhere. */
  marginFirstStart?: '$' | '0';
  /** Stream tuning (tests use short times). */
  tuning?: Pick<SupervisorOptions, 'watchdogMs' | 'backoffBaseMs' | 'backoffCapMs'>;
  fetch?: typeof fetch;
  redact: (text: string) => string;
  log: (line: string) => void;
}

/**
 * The streams room, built and wired: the supervisor that keeps every stream open within the
 * plan's budget, the margin stream end to end (margin-service.ts), and a pool stream per pool a
 * page shows or the guard wants live (pool-streams.ts). What they receive and how they fare is
 * published (supervisor.ts); a page subscribing to a pool, the guard wanting one, and a new stream
 * limit are heard here.
 */
export class StreamServices {
  readonly supervisor: StreamSupervisor;
  readonly margin: MarginService;
  readonly pools: PoolStreams;

  constructor(d: StreamServicesDeps) {
    const { http } = d.link.client;
    this.supervisor = new StreamSupervisor({
      budget: d.credits.plan.streamBudget(),
      fetch: d.fetch,
      redact: d.redact,
      keyName: (id) => http.streamKeyName(id),
      events: d.events,
      log: d.log,
      ...d.tuning,
    });
    this.pools = new PoolStreams({
      supervisor: this.supervisor,
      repo: d.store.market,
      link: d.link,
      hub: d.hub,
      events: d.events,
      storeHealth: d.storeHealth,
      log: d.log,
    });
    this.margin = new MarginService({
      store: d.store,
      link: d.link,
      supervisor: this.supervisor,
      watch: d.watch,
      risk: d.risk,
      alerts: d.alerts,
      settings: d.settings,
      hub: d.hub,
      marginFirstStart: d.marginFirstStart,
      events: d.events,
      log: d.log,
    });
    d.events.on('streamsChanged', ({ streams }) => {
      for (const s of streams)
        if (s.state === 'stopped-auth' && s.lastError)
          d.alerts.onStreamAuthStopped(s.id, s.lastError, http.streamKeyName(s.id));
    });
    d.events.on('subscribersChanged', ({ topic, count }) => {
      // A pool's page opened or closed: its stream follows; its cost is measured afresh each time it opens.
      if (!topic.startsWith('pool:')) return;
      this.pools.onSubscribers(topic.slice(5), count);
      if (count === 0) d.credits.volumes.forget(topic);
    });
    d.events.on('guardPoolsWanted', ({ pools }) => this.pools.guard(pools));
    d.events.on('streamBudgetChanged', ({ streams }) => this.supervisor.setBudget(streams));
  }

  /** Every stream's status; a pool stream the guard holds open says so. */
  statuses(): StreamStatus[] {
    return this.supervisor
      .statuses()
      .map((s) => (s.id.startsWith('pool:') && this.pools.isGuarded(s.id.slice(5)) ? { ...s, guard: true } : s));
  }

  /** The service changed or came back: the margin stream is (again) one of the streams, reconnected when asked. */
  reconnect(serviceChanged: boolean): void {
    this.supervisor.add(this.margin.spec);
    if (serviceChanged) this.supervisor.resumeAll();
  }

  /** Stop every stream and commit what each holds. */
  close(): void {
    this.supervisor.stopAll();
    this.margin.close();
    this.pools.flushAll();
  }
}
