import type { CreditPlan } from '../credits/credit-plan';
import type { Notifier } from '../notify/notifier';
import type { RiskServices } from '../risk/risk-services';
import type { ServiceLink } from '../service-link';
import type { SettingsService } from '../settings';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { StreamSupervisor } from '../streams/supervisor';
import type { WatchRegistry } from '../watch-registry';
import type { ContractContext } from './context';

/** The rooms the monitor built, as the contract reads them. */
export interface ContractRooms {
  store: Pick<Store, 'cache' | 'market' | 'margin' | 'risk' | 'settings' | 'pools'>;
  settings: SettingsService;
  storeHealth: StoreHealth;
  link: ServiceLink;
  watch: WatchRegistry;
  risk: Pick<RiskServices, 'eventUnits' | 'lateUnits' | 'refresh' | 'assets' | 'poolHealth' | 'liquidationMap'>;
  /** The streams' statuses (a pool stream the guard holds open says so: the forecast names it). */
  supervisor: Pick<StreamSupervisor, 'statuses'>;
  plan: Pick<CreditPlan, 'forecast'>;
  notify: Notifier;
}

/** What the monitor itself does for the contract: the commands that touch several rooms at once. */
export type MonitorCommands = Pick<ContractContext, 'reconfigure' | 'retryStreams' | 'status' | 'demoHints'>;

/** The contract's context: each handler group picks the part it uses (contract/context.ts). */
export function contractContext(r: ContractRooms, commands: MonitorCommands): ContractContext {
  return {
    ...commands,
    client: r.link.client,
    cache: r.store.cache,
    market: r.store.market,
    margin: r.store.margin,
    alerts: r.store.risk,
    pools: r.store.pools,
    poolsEveryMs: () => r.risk.poolHealth.everyMs(),
    liquidationMap: r.risk.liquidationMap,
    stored: r.store.settings,
    storeHealth: r.storeHealth,
    noteNetwork: (err) => r.link.noteNetwork(err),
    offline: () => r.link.offline,
    streams: () => r.supervisor.statuses(),
    watch: r.watch,
    eventUnits: r.risk.eventUnits,
    lateUnits: r.risk.lateUnits,
    risk: r.risk.refresh,
    assets: r.risk.assets,
    settings: r.settings,
    forecast: (preview) => r.plan.forecast(r.supervisor.statuses(), preview),
    notify: r.notify,
  };
}
