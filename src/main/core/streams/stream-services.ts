import type { Settings, Topic } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import type { ServiceClient } from '../client/service-client';
import { StreamVolumes } from '../credits/stream-volume';
import type { PushHub } from '../push-hub';
import type { RiskServices } from '../risk/risk-services';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';
import { MarginService } from './margin-service';
import { PoolStreams } from './pool-streams';
import { StreamSupervisor, type SupervisorOptions } from './supervisor';

export interface StreamServicesDeps {
  store: Store;
  client: ServiceClient;
  settings: () => Settings;
  watch: WatchRegistry;
  risk: Pick<RiskServices, 'assets' | 'eventUnits' | 'lateUnits' | 'prices' | 'refresh' | 'danger'>;
  alerts: AlertEngine;
  hub: PushHub;
  storeHealth: StoreHealth;
  /** A key, an address, and the monitor open: streams may open. */
  connected: () => boolean;
  /** `last-id` for the margin stream's very first start; default: `0` on the Demo network, `$` elsewhere. */
  marginFirstStart?: '$' | '0';
  /** Stream tuning (tests use short times). */
  tuning?: Pick<SupervisorOptions, 'watchdogMs' | 'backoffBaseMs' | 'backoffCapMs'>;
  fetch?: typeof fetch;
  /** Bytes a stream received, after the volumes noted them: the credit meter counts them. */
  onBytes: (bytes: number) => void;
  /** The service answered a stream (true) or could not be reached (false). */
  onReachable: (reachable: boolean) => void;
  /** A stream's state changed, or the margin stream's store state or history gaps did. */
  onChange: () => void;
  /** The margin stream (re)opened. */
  onMarginOpen: () => void;
  closed: () => boolean;
  redact: (text: string) => string;
  log: (line: string) => void;
}

/**
 * The streams room, built and wired: the supervisor that keeps every stream open within the
 * plan's budget, the margin stream end to end (margin-service.ts), a pool stream per pool a page
 * shows or the guard wants live (pool-streams.ts), and what each stream receives, for the cost model.
 */
export class StreamServices {
  readonly supervisor: StreamSupervisor;
  readonly margin: MarginService;
  readonly pools: PoolStreams;
  /** What each stream receives, for the cost model (credits/credit-plan.ts). */
  readonly volumes = new StreamVolumes();

  constructor(d: StreamServicesDeps) {
    const client = (): ServiceClient => d.client;
    const { http } = d.client;
    this.supervisor = new StreamSupervisor({
      budget: d.settings().streamBudget,
      fetch: d.fetch,
      onBytes: (id, bytes) => {
        this.volumes.note(id, bytes);
        d.onBytes(bytes);
      },
      redact: d.redact,
      keyName: (id) => http.streamKeyName(id),
      onReachable: d.onReachable,
      onLimitLearnt: (limit) =>
        d.log(
          `the service allows ${limit} stream${limit === 1 ? '' : 's'} at once (it refused one more): pool pages wait for a free one`,
        ),
      ...d.tuning,
    });
    this.supervisor.onStatus((streams) => {
      for (const s of streams)
        if (s.state === 'stopped-auth' && s.lastError)
          d.alerts.onStreamAuthStopped(s.id, s.lastError, http.streamKeyName(s.id));
      d.onChange();
    });
    this.pools = new PoolStreams({
      supervisor: this.supervisor,
      repo: d.store.market,
      client,
      canOpen: d.connected,
      subscribers: (pool) => d.hub.count(`pool:${pool}`),
      publish: (pool, push) => d.hub.publish(`pool:${pool}`, push),
      onTrades: (pool, trades) => d.risk.danger.onTrades(pool, trades),
      noteStore: (pool, err) => d.storeHealth.note(err, `pool:${pool}`),
      log: d.log,
    });
    d.risk.danger.onWanted((pools) => this.pools.guard(pools));
    this.margin = new MarginService({
      store: d.store,
      client,
      supervisor: this.supervisor,
      watch: d.watch,
      eventUnits: d.risk.eventUnits,
      lateUnits: d.risk.lateUnits,
      alerts: d.alerts,
      assets: d.risk.assets,
      prices: d.risk.prices,
      firstStart: () => d.marginFirstStart ?? (d.settings().network === 'demo' ? '0' : '$'),
      largeLiquidationUsd: () => d.settings().largeLiquidationUsd,
      publish: (pushed) => d.hub.publish('margin', pushed),
      listening: () => d.hub.count('margin') > 0,
      refreshRisk: () => d.risk.refresh.refresh(),
      refreshSoon: (owners, live) => d.risk.refresh.refreshSoon(owners, live),
      // Another trader's manager is seldom learnt yet: its pool comes from its stored creation.
      marketLiquidations: (ids) => d.risk.danger.onMarketLiquidations(d.risk.eventUnits.poolNamesOf(ids)),
      onOpen: d.onMarginOpen,
      onStoreState: () => d.storeHealth.changed(),
      onGap: d.onChange,
      closed: d.closed,
      log: d.log,
    });
  }

  /** A pool's page opened or closed: its stream follows; its cost is measured afresh each time it opens. */
  onSubscribers(topic: Topic, count: number): void {
    if (!topic.startsWith('pool:')) return;
    this.pools.onSubscribers(topic.slice(5), count);
    if (count === 0) this.volumes.forget(topic);
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
