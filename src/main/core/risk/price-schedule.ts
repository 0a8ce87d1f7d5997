import type { PositionSummary, ReadPlan } from '../../../shared/contract';
import { CORE_LOCALE, distanceText, percentText } from '../../../shared/format';
import type { RiskThresholds } from '../../../shared/risk-model';
import { allowedPerDay, paceFactor, pacedIntervalMs, readsPerDay, type PacedRead } from '../budget/budget-pacer';
import { everyText } from '../budget/cost-model';
import { priceOf } from '../../../shared/credit-prices';
import { describeForLog } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import { distanceToNextThreshold, readIntervalMs, type CadenceRule } from './cadence';
import { UNSCHEDULED_MAX_AGE_MS, type PriceBook } from './prices';
import type { VolatilityBook } from './volatility';
import { POOL_HEALTH_INTERVAL_MS } from './pool-health';
import { LIQUIDATION_MAP_INTERVAL_MS } from './liquidation-map';

/** A watched position with debt, as the schedule sees it. */
export interface GuardedPosition {
  position: PositionSummary;
  thresholds: RiskThresholds;
  baseAsset: string;
  quoteAsset: string;
}

/** What the budget allows, or null when reads are not charged (the Demo network in this process). */
export interface BudgetState {
  /** The month's budget in credits, or null: none (reads follow the guard alone). */
  monthly: number | null;
  spentThisMonth: number;
  /** Credits a day that are never cut (the margin stream). */
  fixedPerDay: number;
  /** Credits the pool streams (a page's or the guard's) took today: the guard's share what the day leaves. */
  streamsToday: number;
  /** The margin records' own read (its interval and cost), paced with the prices. */
  records: PacedRead;
  /** Each owner's record reads for its managers' events (measured interval, cost), paced too. */
  events: PacedRead[];
  /** The margin pools' read (pool health: risk/pool-health.ts), paced with the rest; absent: not read. */
  pools?: PacedRead;
  /** The protocol's loans for the liquidation map (risk/liquidation-map.ts), paced with the rest; absent: not read. */
  liquidations?: PacedRead;
}

export interface PriceScheduleDeps {
  prices: PriceBook;
  volatility: VolatilityBook;
  client: () => ServiceClient;
  rule: () => CadenceRule;
  positions: () => readonly GuardedPosition[];
  budget: () => BudgetState | null;
  /** New prices were read: value the positions again (and plan again). */
  onPrices: () => void;
  /** The plan was made again (the records' timer follows its interval). */
  onPlan?: () => void;
  canRun: () => boolean;
  log: (line: string) => void;
  now?: () => number;
}

interface AssetPlan {
  asset: string;
  symbol: string;
  /** What the guard asks for, before the budget. */
  wantMs: number;
  /** After the budget's pacing. */
  everyMs: number;
  why: string;
  lastReadAt: number;
}

/** Price of the read that prices an asset (`trades?limit=1`). */
export const PRICE_READ_CREDITS = priceOf('/dex/*/trades').credits;
/**
 * However far its positions are from their thresholds, and however tight the budget, a price is
 * read at least once a day (20 credits a day per asset) while the month's budget lasts: paced
 * without a bound, a far asset was planned "every 11,720.7 h" on the Free plan, a price never
 * read again in the month.
 */
export const PRICE_MAX_PACED_MS = 86_400_000;
/** The plan is made again at least this often, reads due or not. */
const REPLAN_MS = 5 * 60_000;
/** Candles read once per asset and run to seed its volatility (volatility.ts). */
const SEED_TIMEFRAME = '5m';
const SEED_PERIOD_SEC = 300;
const SEED_CANDLES = 24;

/**
 * The guard's price reads (docs/credits.md "How often"): each asset of a watched position is read
 * as often as its nearest position needs (cadence.ts), paced to the month's budget
 * (budget-pacer.ts), one request per asset. After each round of reads the positions are valued
 * again and the plan made again, so a position moving towards a threshold is read more often.
 */
export class PriceSchedule {
  private plans = new Map<string, AssetPlan>();
  /** The plan in force: what the timer reads, what the status bar and the forecast show. */
  private current: PlannedReads = EMPTY_PLAN;
  private plannedPerDay = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly seeded = new Set<string>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly d: PriceScheduleDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Make the plan again from the positions valued now, and set the timer. */
  replan(): void {
    if (this.closed) return;
    const prices = this.d.prices;
    const budget = this.d.budget();
    const plan = this.planWith(budget);
    this.plannedPerDay = plannedCreditsPerDay(plan, budget, this.d.rule());
    this.current = plan;
    const next = new Map<string, AssetPlan>();
    for (const w of plan.assets) {
      const old = this.plans.get(w.asset);
      // A read outside the schedule (a watched manager's event, a record read) counts as its read.
      const known = prices.peek(w.asset);
      const readAt = Math.max(old?.lastReadAt ?? 0, known?.source === 'exchange' ? known.at : 0);
      next.set(w.asset, { ...w, symbol: prices.symbolOf(w.asset), lastReadAt: readAt });
    }
    this.plans = next;
    for (const asset of next.keys()) if (!this.seeded.has(asset)) void this.seed(asset);
    this.arm();
    this.d.onPlan?.();
  }

  /**
   * The plan the positions valued now would get under `budget` (the schedule's own, or the one a
   * service would impose where reads are free: the cost model's forecast on the Demo network), with
   * volatility as at speed 1 given the Demo network's `speed` (VolatilityBook.sigma).
   */
  planWith(budget: BudgetState | null, speed = 1): PlannedReads {
    const prices = this.d.prices;
    return planReads(this.d.positions(), this.d.rule(), budget, {
      readable: (a) => prices.readable(a),
      quoteUsd: (a) => prices.peek(a)?.usd ?? null,
      sigma: (a) => this.d.volatility.sigma(a, speed),
      now: this.now(),
    });
  }

  /** The request credits a day the plan in force expects: prices, records and event reads, paced. */
  plannedCreditsPerDay(): number {
    return this.plannedPerDay;
  }

  /** The least time between two event reads of the owner's records (0: not paced). */
  eventGapMs(owner: string): number {
    return this.current.eventGaps.get(owner) ?? 0;
  }

  /**
   * Whether a read of the asset's price now would be the schedule's own: its paced interval has
   * passed since its last read (a read then counts as the schedule's, `replan`: nothing extra is
   * spent). An asset the schedule does not read (no watched debt in it yet) is read when its price
   * is unknown or older than UNSCHEDULED_MAX_AGE_MS, as any unscheduled price is.
   */
  priceDue(asset: string, now = this.now()): boolean {
    const p = this.plans.get(asset);
    if (p) return now >= p.lastReadAt + p.everyMs;
    const known = this.d.prices.peek(asset);
    return known === null || now - known.at >= UNSCHEDULED_MAX_AGE_MS;
  }

  /** The owners' event reads as they will be paced (the cost model). */
  eventReads(): PacedRead[] {
    return this.current.events;
  }

  /** How often the margin pools are read now, paced like the prices (null: not planned, or not read). */
  poolsIntervalMs(): number | null {
    return this.current.poolsEveryMs;
  }

  /** How often the protocol's loans are read for the liquidation map, paced like the prices (null: not planned, or not read). */
  liquidationsIntervalMs(): number | null {
    return this.current.liquidationsEveryMs;
  }

  /** How often the margin records are read now: the setting, paced like the prices (null: as set). */
  recordsIntervalMs(): number | null {
    return this.current.recordsEveryMs;
  }

  /**
   * The plan in force as the status bar and the forecast show it: one object, so what they say
   * is what the timer reads.
   */
  inForce(): { reads: ReadPlan; events: PacedRead[] } {
    return { reads: this.plan(), events: this.current.events };
  }

  /**
   * The plan these positions would get now under `budget`, in the same shape: a plan picked in
   * Settings before it is saved, or what a service's budget would make of the Demo network's reads
   * (`speed`: its speed, the volatility taken back to speed 1).
   */
  planFor(budget: BudgetState | null, speed = 1): { reads: ReadPlan; events: PacedRead[] } {
    const plan = this.planWith(budget, speed);
    const readAt = (asset: string): number | null => this.plans.get(asset)?.lastReadAt || null;
    return { reads: readPlanOf(plan, (a) => this.d.prices.symbolOf(a), readAt), events: plan.events };
  }

  /** Read these assets' prices now (other traders' liquidations moved their market), then value again. */
  async readNow(assets: Iterable<string>): Promise<void> {
    const due = [...new Set(assets)].filter((a) => this.d.prices.readable(a));
    // The budget stopped price reads (the margin stream alone is left): so are these.
    if (due.length === 0 || this.closed || this.current.pace === Infinity || !this.d.canRun()) return;
    await this.readAll(due);
  }

  /** What the status bar says of the reads: the plan in force. */
  plan(): ReadPlan {
    return readPlanOf(
      this.current,
      (a) => this.plans.get(a)?.symbol ?? this.d.prices.symbolOf(a),
      (a) => this.plans.get(a)?.lastReadAt || null,
    );
  }

  /** The asset reads as PacedReads (what the cost model forecasts): after pacing. */
  reads(): PacedRead[] {
    return [...this.plans.values()].map((p) => ({ id: p.symbol, intervalMs: p.everyMs, credits: PRICE_READ_CREDITS }));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let soonest = Infinity;
    for (const p of this.plans.values()) soonest = Math.min(soonest, p.lastReadAt + p.everyMs);
    if (soonest === Infinity || this.closed) return;
    // Woken at least every REPLAN_MS: what is spent and the stream's measured cost move the budget's pace.
    const wait = Math.max(0, Math.min(soonest - this.now(), REPLAN_MS));
    this.timer = setTimeout(() => void this.due(), wait);
    this.timer.unref?.();
  }

  private async due(): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    if (!this.d.canRun()) {
      // No service now (offline, no key): look again after the shortest interval.
      const shortest = Math.min(...[...this.plans.values()].map((p) => p.everyMs));
      this.timer = setTimeout(() => void this.due(), Number.isFinite(shortest) ? shortest : 60_000);
      this.timer.unref?.();
      return;
    }
    const now = this.now();
    // Reads due within a second are taken together: one round, one valuation.
    const due = [...this.plans.values()].filter((p) => p.lastReadAt + p.everyMs <= now + 1000).map((p) => p.asset);
    if (due.length === 0) return this.replan();
    await this.readAll(due);
  }

  private async readAll(assets: string[]): Promise<void> {
    const now = this.now();
    await Promise.all(assets.map((a) => this.d.prices.read(a, now)));
    for (const a of assets) {
      const p = this.plans.get(a);
      if (p) p.lastReadAt = now;
    }
    if (this.closed) return;
    this.d.onPrices();
    this.replan();
  }

  /** One candle read per asset and run, so the first intervals follow its real volatility. */
  private async seed(asset: string): Promise<void> {
    this.seeded.add(asset);
    const pool = this.d.prices.pricingPool(asset);
    if (!pool || !this.d.canRun()) return;
    try {
      const candles = await this.d.client().candles(pool.pool_name, SEED_TIMEFRAME, { limit: SEED_CANDLES });
      this.d.volatility.seed(asset, candles, SEED_PERIOD_SEC);
    } catch (err) {
      this.seeded.delete(asset);
      this.d.log(`volatility of ${pool.base_asset_symbol}: ${describeForLog(err)}`);
    }
  }
}

export interface PlannedReads {
  assets: Array<{ asset: string; wantMs: number; everyMs: number; why: string }>;
  /** The budget's pace factor (1: none; Infinity: reads stopped). */
  pace: number;
  /** The margin records' interval as set, and after pacing (null: no budget state, as set). */
  recordsWantMs: number | null;
  recordsEveryMs: number | null;
  /** The margin pools' read after pacing (null: not planned). */
  poolsEveryMs: number | null;
  /** The liquidation map's read after pacing (null: not planned). */
  liquidationsEveryMs: number | null;
  /** Per owner, the least time between two event reads (only when paced). */
  eventGaps: Map<string, number>;
  /** The event reads with their intervals after pacing. */
  events: PacedRead[];
}

/**
 * The plan itself, without timers (the schedule, and `doctor`'s forecast): each readable asset of
 * a watched position at the interval its nearest position needs (cadence.ts), then paced to the
 * budget (budget-pacer.ts) together with the margin records' read.
 */
export function planReads(
  positions: readonly GuardedPosition[],
  rule: CadenceRule,
  budget: BudgetState | null,
  at: {
    readable: (asset: string) => boolean;
    quoteUsd: (asset: string) => number | null;
    sigma: (asset: string) => number;
    now: number;
  },
): PlannedReads {
  const want = new Map<string, { ms: number; near: number; why: string }>();
  for (const g of positions) {
    const distance = distanceToNextThreshold(g.position, g.thresholds);
    for (const asset of [g.baseAsset, g.quoteAsset]) {
      if (!at.readable(asset)) continue;
      const ms = readIntervalMs(rule, distance, g.position.distance_pct, at.sigma(asset));
      const near = Math.abs(g.position.distance_pct ?? Infinity);
      const known = want.get(asset);
      // The shortest interval; among equal ones (the 45 s floor) the reason of the position nearest its liquidation.
      if (!known || ms < known.ms || (ms === known.ms && near < known.near))
        want.set(asset, { ms, near, why: reasonOf(g.position, distance, rule) });
    }
  }
  const reads: PacedRead[] = [...want].map(([asset, w]) => ({
    id: asset,
    intervalMs: w.ms,
    credits: PRICE_READ_CREDITS,
    maxMs: PRICE_MAX_PACED_MS,
  }));
  let pace = 1;
  if (budget !== null && budget.monthly !== null) {
    const allowed = allowedPerDay(budget.monthly, budget.spentThisMonth, new Date(at.now));
    pace = paceFactor(
      [
        ...reads,
        budget.records,
        ...budget.events,
        ...(budget.pools ? [budget.pools] : []),
        ...(budget.liquidations ? [budget.liquidations] : []),
      ],
      budget.fixedPerDay,
      allowed,
      rule,
    );
  }
  const events = (budget?.events ?? []).map((e) => ({
    ...e,
    intervalMs: pacedIntervalMs(e.intervalMs, pace, rule, e.maxMs),
  }));
  return {
    assets: [...want].map(([asset, w]) => ({
      asset,
      wantMs: w.ms,
      // The budget spent (even the margin stream takes it all): not read at all.
      everyMs: pace === Infinity ? Infinity : pacedIntervalMs(w.ms, pace, rule, PRICE_MAX_PACED_MS),
      why: w.why,
    })),
    pace,
    recordsWantMs: budget ? budget.records.intervalMs : null,
    recordsEveryMs: budget ? pacedIntervalMs(budget.records.intervalMs, pace, rule, budget.records.maxMs) : null,
    poolsEveryMs: budget?.pools ? pacedIntervalMs(budget.pools.intervalMs, pace, rule, budget.pools.maxMs) : null,
    liquidationsEveryMs: budget?.liquidations
      ? pacedIntervalMs(budget.liquidations.intervalMs, pace, rule, budget.liquidations.maxMs)
      : null,
    // The gap after each read is the paced interval itself, so however the events bunch, an
    // owner is read at most once per paced interval (nothing at f = 1). The mean-rate gap (paced
    // less measured) assumed evenly spread events: bunched ones overspent Builder's day by 0.2 %
    // in the 983ec87 guard soak (167,015 of 166,667 credits).
    eventGaps: new Map(pace > 1 ? events.map((e) => [e.id, e.intervalMs]) : []),
    events,
  };
}

const EMPTY_PLAN: PlannedReads = {
  assets: [],
  pace: 1,
  recordsWantMs: null,
  recordsEveryMs: null,
  poolsEveryMs: null,
  liquidationsEveryMs: null,
  eventGaps: new Map(),
  events: [],
};

/** A read the budget stretched by more than a tenth is "slowed for the budget". */
const slowedFrom = (wantMs: number, everyMs: number): boolean => everyMs > wantMs * 1.1;

/**
 * A plan as the status bar, the forecast and `doctor` show it (one object for all three): each
 * price's interval (null: not read), most often first, and why; the margin records' interval; and
 * what the budget did, in a sentence.
 */
export function readPlanOf(
  plan: PlannedReads,
  symbolOf: (asset: string) => string,
  readAt: (asset: string) => number | null = () => null,
): ReadPlan {
  const assets = [...plan.assets].sort((a, b) => a.everyMs - b.everyMs);
  const urgent = [...plan.assets].sort((a, b) => a.wantMs - b.wantMs)[0];
  let budgetNote: string | null = null;
  if (plan.pace === Infinity) {
    budgetNote =
      "Prices are no longer read: what is left of this month's credit budget goes to the margin stream, which still alerts liquidations; warnings before a liquidation are off until the budget allows reads again (a larger budget or plan in Settings).";
  } else if (urgent && slowedFrom(urgent.wantMs, urgent.everyMs)) {
    budgetNote = `Reads slowed to stay within this month's credits: the most urgent price every ${everyText(urgent.everyMs)} instead of ${everyText(urgent.wantMs)}.`;
  }
  const records = plan.recordsEveryMs;
  return {
    prices: assets.map((a) => ({
      symbol: symbolOf(a.asset),
      everyMs: a.everyMs === Infinity ? null : a.everyMs,
      slowed: slowedFrom(a.wantMs, a.everyMs),
      why: a.why,
      readAt: readAt(a.asset),
    })),
    recordsEveryMs: records === Infinity ? null : records,
    recordsSlowed: records !== null && plan.recordsWantMs !== null && slowedFrom(plan.recordsWantMs, records),
    ...(plan.poolsEveryMs === null
      ? {}
      : {
          poolsEveryMs: plan.poolsEveryMs === Infinity ? null : plan.poolsEveryMs,
          poolsSlowed: slowedFrom(POOL_HEALTH_INTERVAL_MS, plan.poolsEveryMs),
        }),
    ...(plan.liquidationsEveryMs === null
      ? {}
      : {
          liquidationsEveryMs: plan.liquidationsEveryMs === Infinity ? null : plan.liquidationsEveryMs,
          liquidationsSlowed: slowedFrom(LIQUIDATION_MAP_INTERVAL_MS, plan.liquidationsEveryMs),
        }),
    pace: plan.pace === Infinity ? null : plan.pace,
    budgetNote,
  };
}

/** What a plan's reads spend a day, after pacing (the budget's records read at its paced interval). */
export function plannedCreditsPerDay(plan: PlannedReads, budget: BudgetState | null, rule: CadenceRule): number {
  const reads: PacedRead[] = [
    ...plan.assets.map((a) => ({ id: a.asset, intervalMs: a.everyMs, credits: PRICE_READ_CREDITS })),
    ...plan.events,
  ];
  if (budget && plan.recordsEveryMs !== null)
    reads.push({ ...budget.records, intervalMs: plan.recordsEveryMs, maxMs: undefined });
  if (budget?.pools && plan.poolsEveryMs !== null)
    reads.push({ ...budget.pools, intervalMs: plan.poolsEveryMs, maxMs: undefined });
  if (budget?.liquidations && plan.liquidationsEveryMs !== null)
    reads.push({ ...budget.liquidations, intervalMs: plan.liquidationsEveryMs, maxMs: undefined });
  return readsPerDay(reads, 1, rule);
}

/** Why an asset is read as often as it is, in a trader's words. */
function reasonOf(p: PositionSummary, distance: number | null, rule: CadenceRule): string {
  const liq = p.distance_pct;
  if (rule.fixedMs !== undefined) return 'a fixed interval';
  if (distance === 0) return 'a position at its liquidation ratio';
  if (liq !== null && Math.abs(liq) <= rule.nearPct) return `near liquidation (${distanceText(liq, CORE_LOCALE)})`;
  if (distance !== null && distance < 0.05) return `${percentText(distance * 100, 1, CORE_LOCALE)} from a threshold`;
  return 'far from liquidation';
}
