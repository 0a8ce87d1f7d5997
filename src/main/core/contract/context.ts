import type {
  ArgsOf,
  ContractMethod,
  ContractResults,
  CreditForecast,
  DemoOwnerHint,
  ForecastPreview,
  StatusSnapshot,
  StreamStatus,
} from '../../../shared/contract';
import type { ServiceClient } from '../client/service-client';
import type { Notifier } from '../notify/notifier';
import type { AssetBookCache } from '../risk/asset-book';
import type { EventUnits } from '../risk/event-amounts';
import type { LateUnits } from '../risk/late-units';
import type { LiquidationMapWatch } from '../risk/liquidation-map';
import type { RiskRefresh } from '../risk/risk-refresh';
import type { SettingsService } from '../settings';
import type { ResponseCache } from '../store/cache-repo';
import type { MarginEventRepo } from '../store/margin-events';
import type { MarketRepo } from '../store/market-repo';
import type { PoolHealthRepo } from '../store/pool-health-repo';
import type { RiskAlertRepo } from '../store/risk-alert-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';

/**
 * Every service the contract's handlers use. Each group of handlers takes only the part it needs
 * (`Pick<ContractContext, …>`), so what a method can touch is written at its group.
 */
export interface ContractContext {
  client: ServiceClient;
  /** Answers kept for offline use. */
  cache: ResponseCache;
  market: MarketRepo;
  margin: MarginEventRepo;
  alerts: RiskAlertRepo;
  /** The margin pools' health as read (risk/pool-health.ts), and how often it is read now. */
  pools: PoolHealthRepo;
  poolsEveryMs: () => number | null;
  /** Every pool's liquidation map as last read (risk/liquidation-map.ts), and a read now. */
  liquidationMap: Pick<LiquidationMapWatch, 'view' | 'read'>;
  /** The watch list and per-manager thresholds as stored. */
  stored: SettingsRepo;
  storeHealth: StoreHealth;
  /** Whether the service answered (an error, or none): the offline banner. */
  noteNetwork: (err?: unknown) => void;
  offline: () => boolean;
  streams: () => StreamStatus[];
  watch: WatchRegistry;
  eventUnits: EventUnits;
  /** Looks up what events lack for their units; pushes again those shown without. */
  lateUnits: LateUnits;
  risk: RiskRefresh;
  assets: AssetBookCache;
  settings: SettingsService;
  /** Settings or keys changed: point the client and the streams at them. */
  reconfigure: () => void;
  retryStreams: () => void;
  status: () => StatusSnapshot;
  /** Credits a day at the saved settings, or at `preview`'s without saving them. */
  forecast: (preview?: ForecastPreview) => CreditForecast;
  notify: Notifier;
  demoHints: () => DemoOwnerHint[];
}

/** One handler per contract method: its parsed arguments and the caller's signal in, its answer out. */
export type Handler<M extends ContractMethod> = (
  args: ArgsOf<M>,
  signal?: AbortSignal,
) => Promise<ContractResults[M]> | ContractResults[M];

export type Handlers<K extends ContractMethod = ContractMethod> = { [M in K]: Handler<M> };
