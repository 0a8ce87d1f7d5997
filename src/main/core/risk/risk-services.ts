import type { AlertEngine } from '../alerts/alert-engine';
import type { ServiceClient } from '../client/service-client';
import type { CoreBus } from '../events';
import type { ServiceLink } from '../service-link';
import type { SettingsService } from '../settings';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';
import { AssetBookCache } from './asset-book';
import { CADENCE_RULES, type CadenceRule, type CadenceRuleName } from './cadence';
import { DangerPricing, streamsAffordable } from './danger-pricing';
import { EventUnits } from './event-amounts';
import { LateUnits } from './late-units';
import { LiquidationMapWatch } from './liquidation-map';
import { ManagerPoolLookup } from './manager-pools';
import { OracleBook } from './oracle-book';
import { PoolHealthWatch } from './pool-health';
import { PriceSchedule, type BudgetState } from './price-schedule';
import { PriceBook } from './prices';
import { RiskRefresh } from './risk-refresh';
import { VolatilityBook } from './volatility';

export interface RiskServicesDeps {
  store: Pick<Store, 'margin' | 'cache' | 'risk' | 'settings' | 'pools' | 'liquidationMap'>;
  /** The service: its client, whether it may be asked and is reachable, what each read found of that. */
  link: Pick<ServiceLink, 'client' | 'mayAsk' | 'offline' | 'noteNetwork'>;
  settings: Pick<SettingsService, 'effective'>;
  watch: WatchRegistry;
  alerts: AlertEngine;
  storeHealth: StoreHealth;
  /** Valuations and the pools the guard wants are published here; the pool streams' trades heard. */
  events: CoreBus;
  log: (line: string) => void;
}

/** What the month's budget allows the reads: the credits room's plan (credits/credit-plan.ts). */
export interface BudgetSource {
  budgetState(): BudgetState;
}

/**
 * The risk room, built and wired: the asset book, the units of events, the exchange's and the
 * oracle's prices, each asset's volatility, the read schedule, and the refresh that values every
 * watched position (risk/risk-refresh.ts), keeps its readings in the watch registry and publishes
 * each valuation. The credits room, built after it, hands it the budget its reads keep to (`paceBy`).
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
  /** The margin pools' utilization and rates, read on the plan's interval; their alerts. */
  readonly poolHealth: PoolHealthWatch;
  /** Every pool's liquidation map, from the protocol's loans read on the plan's interval. */
  readonly liquidationMap: LiquidationMapWatch;
  /** The plan the reads keep to; none (reads follow the guard alone) until the credits room is built. */
  private budget: BudgetSource | null = null;

  constructor(d: RiskServicesDeps) {
    const { link } = d;
    const client = (): ServiceClient => link.client;
    const budget = (): BudgetState | null => this.budget?.budgetState() ?? null;
    const rule = (): CadenceRule =>
      CADENCE_RULES[(process.env['TIDEWATCH_CADENCE'] as CadenceRuleName | undefined) ?? 'guard'] ??
      CADENCE_RULES.guard;
    this.assets = new AssetBookCache(client, () => link.mayAsk());
    this.eventUnits = new EventUnits(d.store.margin, d.store.cache, () => this.assets.now());
    this.managerPools = new ManagerPoolLookup({
      client,
      units: this.eventUnits,
      remember: (managers) => d.storeHealth.guard(() => d.store.margin.noteOwners(managers)),
      canRun: () => link.mayAsk() && !link.offline,
      log: d.log,
    });
    this.lateUnits = new LateUnits({
      eventUnits: this.eventUnits,
      managerPools: this.managerPools,
      assets: this.assets,
      watch: d.watch,
      link,
      events: d.events,
    });
    this.prices = new PriceBook(
      client,
      () => [...(this.assets.peek()?.poolsById.values() ?? [])],
      (asset, p) => this.volatility.note(asset, p.usd, p.at),
    );
    this.refresh = new RiskRefresh({
      link,
      store: d.store,
      storeHealth: d.storeHealth,
      settings: d.settings,
      watch: d.watch,
      alerts: d.alerts,
      assets: this.assets,
      prices: this.prices,
      oracle: this.oracle,
      eventUnits: this.eventUnits,
      // The refresh and the schedule read each other (the intervals planned; the positions valued):
      // these two ask the schedule, built next, only once the monitor starts.
      intervalMs: () => this.schedule.recordsIntervalMs() ?? d.settings.effective().recordsRefreshSec * 1000,
      eventGapMs: (owner) => this.schedule.eventGapMs(owner),
      priceDue: (asset, now) => this.schedule.priceDue(asset, now),
      events: d.events,
      log: d.log,
    });
    this.schedule = new PriceSchedule({
      prices: this.prices,
      volatility: this.volatility,
      client,
      rule,
      positions: () => this.refresh.positions(),
      budget,
      onPrices: () => void this.refresh.revalue(),
      onPlan: () => {
        this.refresh.retime();
        this.poolHealth.retime();
        this.liquidationMap.retime();
      },
      canRun: () => link.mayAsk() && !link.offline,
      log: d.log,
    });
    this.danger = new DangerPricing({
      prices: this.prices,
      affordable: () =>
        link.mayAsk() && !link.offline ? streamsAffordable(budget(), this.schedule.reads(), rule(), Date.now()) : 0,
      revalue: () => void this.refresh.revalue(),
      positions: () => this.refresh.positions(),
      readNow: (assets) => void this.schedule.readNow(assets),
      events: d.events,
    });
    this.poolHealth = new PoolHealthWatch({
      client,
      book: () => this.assets.load(),
      repo: () => d.store.pools,
      storeHealth: d.storeHealth,
      alerts: d.alerts,
      positions: () => this.refresh.portfolio()?.portfolio.wallets.flatMap((w) => w.positions) ?? [],
      linePct: () => d.settings.effective().rateAlertPct,
      intervalMs: () => this.schedule.poolsIntervalMs(),
      canRun: () => link.mayAsk() && !link.offline,
      revalue: () => void this.refresh.revalue(),
      log: d.log,
    });
    this.liquidationMap = new LiquidationMapWatch({
      client,
      book: () => this.assets.load(),
      repo: () => d.store.liquidationMap,
      storeHealth: d.storeHealth,
      own: () => d.watch.managers,
      valued: () => this.refresh.positions().map((g) => g.position),
      intervalMs: () => this.schedule.liquidationsIntervalMs(),
      canRun: () => link.mayAsk() && !link.offline,
      log: d.log,
    });
    // A manager the margin stream reports liquidated is left out of the map until its next read.
    d.events.on('managersLiquidated', ({ liquidations }) => this.liquidationMap.onLiquidated(liquidations));
    // After each valuation the schedule plans from the positions valued, and the guard looks for danger.
    // The pools are first read after the first valuation: a pool past its kink then is told with its borrowers.
    let poolsStarted = false;
    d.events.on('valuationDone', () => {
      if (!poolsStarted) {
        poolsStarted = true;
        this.poolHealth.start();
        this.liquidationMap.start();
      }
      this.schedule.replan();
      this.danger.update(this.refresh.positions());
    });
  }

  /** The credits room's plan: what the month's budget allows the read schedule and the guard's streams. */
  paceBy(plan: BudgetSource): void {
    this.budget = plan;
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
    this.poolHealth.close();
    this.liquidationMap.close();
  }
}
