import type { CreditForecast, ForecastPreview, ReadPlan, Settings, StreamStatus } from '../../../shared/contract';
import type { PacedRead } from '../budget/budget-pacer';
import {
  demoEvents,
  forecast,
  MARGIN_STREAM_PRIOR_PER_DAY,
  POOLS_READ_CREDITS,
  type CostInputs,
} from '../budget/cost-model';
import { POOL_HEALTH_INTERVAL_MS, POOL_HEALTH_MAX_MS } from '../risk/pool-health';
import { LIQUIDATION_MAP_INTERVAL_MS, LIQUIDATION_MAP_MAX_MS, type LiquidationMapWatch } from '../risk/liquidation-map';
import { CADENCE_RULES } from '../risk/cadence';
import { STREAM_CREDITS_PER_HOUR, streamRoomPerDay, streamsAffordable } from '../risk/danger-pricing';
import type { CoreBus } from '../events';
import { PRICE_READ_CREDITS, type BudgetState, type PriceSchedule } from '../risk/price-schedule';
import type { RiskRefresh } from '../risk/risk-refresh';
import type { ServiceLink } from '../service-link';
import { monthlyBudgetOf, planOf, type SettingsService } from '../settings';
import type { WatchRegistry } from '../watch-registry';
import type { CreditMeter } from './credit-meter';
import type { StreamVolumes } from './stream-volume';
import { UnplannedSpend } from './unplanned-spend';

export interface CreditPlanDeps {
  settings: Pick<SettingsService, 'effective' | 'update'>;
  link: ServiceLink;
  credits: CreditMeter;
  volumes: StreamVolumes;
  /** The reads the risk room makes, for the forecast and the budget's pacing. */
  risk: {
    refresh: Pick<RiskRefresh, 'recordsCredits' | 'eventReads'>;
    schedule: Pick<PriceSchedule, 'inForce' | 'planFor' | 'plannedCreditsPerDay'>;
    liquidationMap: Pick<LiquidationMapWatch, 'readCredits'>;
  };
  /** How many owners are watched. */
  watch: Pick<WatchRegistry, 'list'>;
  /** Publishes a new stream limit (`streamBudgetChanged`): the supervisor keeps to it. */
  events: Pick<CoreBus, 'emit'>;
}

/** The margin pools' read (pool health, risk/pool-health.ts): every 15 minutes, stretched by the budget to 6 hours at most. */
export const POOLS_READ: PacedRead = {
  id: 'margin pools',
  intervalMs: POOL_HEALTH_INTERVAL_MS,
  credits: POOLS_READ_CREDITS,
  maxMs: POOL_HEALTH_MAX_MS,
};

/**
 * The liquidation map's read (risk/liquidation-map.ts): every page of the protocol's loans, hourly,
 * stretched by the budget to a day at most; `credits`: its pages as last read.
 */
export const liquidationsRead = (credits: number): PacedRead => ({
  id: 'liquidation map',
  intervalMs: LIQUIDATION_MAP_INTERVAL_MS,
  credits,
  maxMs: LIQUIDATION_MAP_MAX_MS,
});

/** The streams a plan allows at once, the margin stream's first (a custom plan's as set). */
const streamSlots = (s: Settings): number => planOf(s)?.streams ?? s.streamBudget;

/** The guard's pool stream as the cost model counts it: its assumed cost, and whether the plan ever opens one. */
export function guardStreamOf(s: Settings): NonNullable<CostInputs['guardStream']> {
  return {
    assumedPerHour: STREAM_CREDITS_PER_HOUR,
    never: streamSlots(s) <= 1 ? `the ${planOf(s)?.label ?? 'custom'} plan's one stream is the margin stream's` : null,
  };
}

/**
 * The service's plan as Tidewatch keeps to it: how many streams may be open, what the month's
 * budget leaves the read schedule, and the forecast of credits a day (budget/cost-model.ts).
 */
export class CreditPlan {
  private readonly unplanned = new UnplannedSpend();

  constructor(
    private readonly d: CreditPlanDeps,
    private readonly now: () => number = Date.now,
  ) {}

  private get settings(): Settings {
    return this.d.settings.effective();
  }

  /**
   * Streams open at once: the plan's (Settings). The Demo network in this process is free and has
   * no limit, so there a named plan's one stream does not keep a pool page from streaming; a
   * custom budget is taken as set.
   */
  streamBudget(): number {
    const s = this.settings;
    return s.network === 'demo' && s.plan !== 'custom' ? Math.max(s.streamBudget, 4) : s.streamBudget;
  }

  /**
   * The plan chosen where the app starts (`serve --plan`): kept in Settings like a choice made
   * there, with its limits applied before anything is read.
   */
  choose(plan: Exclude<Settings['plan'], 'custom'>): void {
    this.d.settings.update({ plan });
    this.d.link.reconfigure();
    this.d.events.emit('streamBudgetChanged', { streams: this.streamBudget() });
  }

  /**
   * What the budget allows the schedule (no budget where reads are free: the Demo network in this
   * process). Never cut: the margin stream, and what the requests spent beyond the plan lately
   * (credits/unplanned-spend.ts). `s`: settings other than the saved ones (a preview).
   */
  budgetState(s: Settings = this.settings): BudgetState {
    const rate = this.d.volumes.rate('margin');
    const metered = this.d.link.client.http.metered;
    const usage = metered ? this.d.credits.usage() : null;
    if (usage)
      this.unplanned.note(this.now(), usage.thisMonth - usage.streamedKb, this.d.risk.schedule.plannedCreditsPerDay());
    return {
      monthly: metered ? monthlyBudgetOf(s) : null,
      spentThisMonth: usage?.thisMonth ?? 0,
      fixedPerDay: (rate === null ? MARGIN_STREAM_PRIOR_PER_DAY : (rate * 86_400) / 1024) + this.unplanned.perDay(),
      streamsToday: metered ? this.d.credits.poolStreamsToday() : 0,
      records: this.recordsRead(s),
      events: this.d.risk.refresh.eventReads(),
      pools: POOLS_READ,
      liquidations: liquidationsRead(this.d.risk.liquidationMap.readCredits()),
    };
  }

  /** The margin records' read as the settings set it (the budget may stretch it to a day). */
  private recordsRead(s: Settings): BudgetState['records'] {
    return {
      id: 'margin records',
      intervalMs: s.recordsRefreshSec * 1000,
      credits: this.d.risk.refresh.recordsCredits(),
      maxMs: 86_400_000,
    };
  }

  /**
   * What the data service's budget would allow the Demo network's reads: the plan's month from
   * its start, the margin stream and the events as at speed 1 (the Demo network bills nothing,
   * so nothing is spent and nothing unplanned is measured).
   */
  private serviceBudget(s: Settings, speed: number): BudgetState {
    const rate = this.d.volumes.rate('margin');
    return {
      monthly: monthlyBudgetOf(s),
      spentThisMonth: 0,
      fixedPerDay: rate === null ? MARGIN_STREAM_PRIOR_PER_DAY : (rate * 86_400) / 1024 / speed,
      streamsToday: 0,
      records: this.recordsRead(s),
      events: demoEvents(this.d.risk.refresh.eventReads(), speed),
      pools: POOLS_READ,
      liquidations: liquidationsRead(this.d.risk.liquidationMap.readCredits()),
    };
  }

  /** Whether this month's credits are spent (a reason to count the monitor blind). */
  spent(): boolean {
    const budget = planOf(this.settings)?.monthlyCredits ?? null;
    return this.d.link.client.http.metered && budget !== null && this.d.credits.usage().thisMonth >= budget;
  }

  /**
   * Credits a day at the current settings, and where they go, with `streams` open as they are
   * now, from the plan in force: the very plan the status bar shows and the timer reads, so the
   * two never tell different stories. With `preview` (settings not saved), from the plan those
   * settings would get now. On the Demo network (free, not paced) the lines are the reads made,
   * the measured streams and events as at speed 1, and `demo.service` what the data service's
   * budget would make of them.
   */
  forecast(streams: readonly StreamStatus[], preview?: ForecastPreview): CreditForecast {
    const s: Settings = preview ? { ...this.settings, ...preview } : this.settings;
    const schedule = this.d.risk.schedule;
    const speed = this.d.link.demoSpeed();
    const plan = planOf(s);
    const pools = streams
      .filter((x) => x.id.startsWith('pool:') && x.state === 'open')
      .map((p) => ({
        pool: p.id.slice(5),
        rate: this.d.volumes.rate(p.id),
        paced: this.d.volumes.pacedRate(p.id),
        guard: p.guard === true,
      }));
    const inputs = {
      plan: { name: s.plan, plan },
      budget: monthlyBudgetOf(s),
      marginStreamRate: this.d.volumes.rate('margin'),
      priceCredits: PRICE_READ_CREDITS,
      owners: this.d.watch.list().length,
      recordsCredits: this.d.risk.refresh.recordsCredits(),
      liquidationsCredits: this.d.risk.liquidationMap.readCredits(),
      demoSpeed: speed,
      guardStream: guardStreamOf(s),
    };
    if (speed === null) {
      const budget = this.budgetState(s);
      const planned = preview ? schedule.planFor(budget) : schedule.inForce();
      const made = forecast({
        ...inputs,
        reads: planned.reads,
        events: planned.events,
        poolStreams: pools,
        guardRoomPerDay: this.guardRoom(budget, planned.reads),
      });
      return { ...made, preview: preview !== undefined, demo: null };
    }
    // The Demo network: as the data service would read and bill the same wallets at speed 1.
    const budget = this.serviceBudget(s, speed);
    const paced = schedule.planFor(budget, speed);
    const made = forecast({
      ...inputs,
      reads: paced.reads,
      events: paced.events,
      poolStreams: this.onService(pools, streamSlots(s), budget, paced.reads),
      guardRoomPerDay: this.guardRoom(budget, paced.reads),
    });
    return { ...made, preview: preview !== undefined, demo: { speed, here: schedule.inForce().reads } };
  }

  /** Credits a day the guard's streams may take beside these reads (null: no budget bounds them). */
  private guardRoom(budget: BudgetState, reads: ReadPlan): number | null {
    return streamRoomPerDay(budget, pricedReads(reads), CADENCE_RULES.guard, this.now());
  }

  /**
   * Which of the Demo network's open pool streams the data service's plan would hold open: its
   * streams beside the margin stream, a page's first, and the guard's only as many as the budget
   * affords an hour of beside the reads (risk/danger-pricing.ts `streamsAffordable`).
   */
  private onService(
    pools: ReadonlyArray<{ pool: string; rate: number | null; guard: boolean }>,
    slots: number,
    budget: BudgetState,
    reads: ReadPlan,
  ): CostInputs['poolStreams'] {
    let free = slots - 1;
    let affordable = streamsAffordable(budget, pricedReads(reads), CADENCE_RULES.guard, this.now());
    return [...pools]
      .sort((a, b) => Number(a.guard) - Number(b.guard))
      .map((p) => {
        if (free <= 0) return { ...p, barred: 'the plan has no stream left for it' };
        if (p.guard && affordable <= 0) return { ...p, barred: "the plan's budget would not leave an hour of it" };
        free--;
        if (p.guard) affordable--;
        return p;
      });
  }
}

/** The price reads a plan makes, as the budget counts them. */
function pricedReads(reads: ReadPlan): PacedRead[] {
  return reads.prices.flatMap((p) =>
    p.everyMs === null ? [] : [{ id: p.symbol, intervalMs: p.everyMs, credits: PRICE_READ_CREDITS }],
  );
}
