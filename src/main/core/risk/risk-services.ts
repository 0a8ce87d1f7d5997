import type { RiskPush, Settings, StoredMarginEvent } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import type { ServiceClient } from '../client/service-client';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';
import { AssetBookCache } from './asset-book';
import { CADENCE_RULES, type CadenceRule, type CadenceRuleName } from './cadence';
import { DangerPricing, streamAffordable } from './danger-pricing';
import { EventUnits } from './event-amounts';
import { LateUnits } from './late-units';
import { managerHistory } from './manager-history';
import { ManagerPoolLookup } from './manager-pools';
import { OracleBook } from './oracle-book';
import { PriceSchedule, type BudgetState } from './price-schedule';
import { PriceBook } from './prices';
import { RiskRefresh } from './risk-refresh';
import { thresholdsFrom } from './thresholds';
import { VolatilityBook } from './volatility';

export interface RiskServicesDeps {
  store: Pick<Store, 'margin' | 'cache' | 'risk' | 'settings'>;
  client: ServiceClient;
  settings: () => Settings;
  watch: WatchRegistry;
  alerts: AlertEngine;
  storeHealth: StoreHealth;
  /** A key, an address, and the monitor open: reads may go out. */
  connected: () => boolean;
  offline: () => boolean;
  noteNetwork: (err?: unknown) => void;
  /** What the month's budget allows the read schedule. */
  budget: () => BudgetState;
  publish: (push: RiskPush) => void;
  /** Margin events pushed again to the page, now with their units. */
  republish: (events: StoredMarginEvent[]) => void;
  /** A valuation was made (the schedule is planned again; the status may change). */
  onValued: () => void;
  log: (line: string) => void;
}

/**
 * The risk room, built and wired: the asset book, the units of events, the exchange's and the
 * oracle's prices, each asset's volatility, the read schedule, and the refresh that values every
 * watched position (risk/risk-refresh.ts) and hands its readings to the watch registry.
 */
export class RiskServices {
  readonly assets: AssetBookCache;
  readonly eventUnits: EventUnits;
  /** The pools of managers whose events name none, looked up when a page shows them. */
  readonly managerPools: ManagerPoolLookup;
  /** Events shown without units, pushed again once their units are known. */
  readonly lateUnits: LateUnits;
  readonly prices: PriceBook;
  readonly oracle = new OracleBook();
  readonly volatility = new VolatilityBook();
  readonly refresh: RiskRefresh;
  readonly schedule: PriceSchedule;
  /** Live prices from a pool's stream while a watched position there is in danger. */
  readonly danger: DangerPricing;

  constructor(d: RiskServicesDeps) {
    const client = (): ServiceClient => d.client;
    const rule = (): CadenceRule =>
      CADENCE_RULES[(process.env['TIDEWATCH_CADENCE'] as CadenceRuleName | undefined) ?? 'guard'] ??
      CADENCE_RULES.guard;
    this.assets = new AssetBookCache(client, d.connected);
    this.eventUnits = new EventUnits(d.store.margin, d.store.cache, () => this.assets.now());
    d.alerts.poolOf = (id) => this.eventUnits.poolNameOf(id);
    this.managerPools = new ManagerPoolLookup({
      client,
      units: this.eventUnits,
      remember: (managers) => d.storeHealth.guard(() => d.store.margin.noteOwners(managers)),
      canRun: () => d.connected() && !d.offline(),
      log: d.log,
    });
    this.lateUnits = new LateUnits({
      eventUnits: this.eventUnits,
      managerPools: this.managerPools,
      assets: this.assets,
      isOwn: (id) => d.watch.managers.has(id),
      republish: d.republish,
      closed: () => !d.connected(),
    });
    this.prices = new PriceBook(
      client,
      () => [...(this.assets.peek()?.poolsById.values() ?? [])],
      (asset, p) => this.volatility.note(asset, p.usd, p.at),
    );
    this.refresh = new RiskRefresh({
      client,
      assets: this.assets,
      prices: this.prices,
      oracle: this.oracle,
      cache: d.store.cache,
      risk: d.store.risk,
      alerts: d.alerts,
      watchList: () => d.watch.list(),
      thresholdsOf: () => thresholdsFrom(d.settings(), d.store.settings.thresholds()),
      history: (id) => managerHistory(d.store.margin, id),
      interestAlertDays: () => d.settings().interestAlertDays,
      cooldownMs: () => d.settings().alertCooldownSec * 1000,
      intervalMs: () => this.schedule.recordsIntervalMs() ?? d.settings().recordsRefreshSec * 1000,
      eventGapMs: (owner) => this.schedule.eventGapMs(owner),
      canRun: d.connected,
      onManagers: (managers) => {
        d.storeHealth.guard(() =>
          d.store.margin.noteOwners(managers.map((m) => ({ id: m.id, owner: m.owner, dexPoolId: m.dexPoolId }))),
        );
        d.watch.noteManagers(managers);
        for (const m of managers) this.eventUnits.notePool(m.id, m.dexPoolId);
      },
      onReadings: (readings, portfolio) => {
        d.watch.noteSnapshot(portfolio);
        d.publish({ readings, portfolio });
      },
      onValued: () => {
        this.schedule.replan();
        this.danger.update(this.refresh.positions());
        d.onValued();
      },
      noteNetwork: d.noteNetwork,
      noteStore: (err) => d.storeHealth.note(err),
      log: d.log,
    });
    this.schedule = new PriceSchedule({
      prices: this.prices,
      volatility: this.volatility,
      client,
      rule,
      positions: () => this.refresh.positions(),
      budget: d.budget,
      onPrices: () => void this.refresh.revalue(),
      onPlan: () => this.refresh.retime(),
      canRun: () => d.connected() && !d.offline(),
      log: d.log,
    });
    this.danger = new DangerPricing({
      prices: this.prices,
      allowed: () =>
        d.connected() && !d.offline() && streamAffordable(d.budget(), this.schedule.reads(), rule(), Date.now()),
      revalue: () => void this.refresh.revalue(),
      positions: () => this.refresh.positions(),
      readNow: (assets) => void this.schedule.readNow(assets),
    });
  }

  /** Another service: forget what was learnt about the one before. */
  resetService(): void {
    this.assets.reset();
    this.prices.reset();
    this.volatility.reset();
    this.refresh.resetService();
  }

  close(): void {
    this.refresh.close();
    this.schedule.close();
    this.danger.close();
  }
}
