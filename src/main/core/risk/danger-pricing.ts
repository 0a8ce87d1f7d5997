import type { Trade } from '../../../shared/api';
import { allowedPerDay, readsPerDay, type PaceBounds, type PacedRead } from '../budget/budget-pacer';
import type { CoreBus } from '../events';
import { CADENCE_RULES } from './cadence';
import type { BudgetState, GuardedPosition } from './price-schedule';
import type { PriceBook } from './prices';

/**
 * What a pool stream costs an hour, as reserved before one opens for the guard: the Demo network's
 * SUI_USDC stream at speed 1, at 1 credit per KB (docs/credits.md, "In danger: the pool's stream",
 * has the measurement).
 */
export const STREAM_CREDITS_PER_HOUR = 40_000;

/**
 * Credits a day the pool streams may take: the day's allowance less the margin stream and the
 * reads as planned (the prices, the records, the events' reads, the margin pools' read and the
 * liquidation map's, where they are read). Null where nothing is charged or no budget is set.
 */
export function streamRoomPerDay(
  budget: BudgetState | null,
  reads: readonly PacedRead[],
  bounds: PaceBounds,
  now: number,
): number | null {
  if (budget === null || budget.monthly === null) return null;
  const room = allowedPerDay(budget.monthly, budget.spentThisMonth, new Date(now));
  const others = [budget.records, ...budget.events, budget.pools, budget.liquidations].filter((r) => r !== undefined);
  const planned = budget.fixedPerDay + readsPerDay([...reads, ...others], 1, bounds);
  return Math.max(0, room - planned);
}

/**
 * How many pool streams the guard may hold open now (docs/credits.md "In danger: the pool's
 * stream"). The day's allowance less the margin stream, the reads as planned and what pool streams
 * already took today is what the streams may spend; one stream while that leaves an hour of it,
 * more only where it leaves an hour of each for every hour left of the day. Counted from what the
 * streams took, not what they were expected to: a stream open all day costs 960,000 credits, more
 * than a Scale plan's day, and many wallets always have a position in danger somewhere, so the
 * streams share what the day leaves and close once less than an hour of one is left. Unbounded
 * where nothing is charged or no budget is set.
 */
export function streamsAffordable(
  budget: BudgetState | null,
  reads: readonly PacedRead[],
  bounds: PaceBounds,
  now: number,
): number {
  const room = streamRoomPerDay(budget, reads, bounds, now);
  if (room === null) return Number.POSITIVE_INFINITY;
  const left = room - (budget?.streamsToday ?? 0);
  if (left < STREAM_CREDITS_PER_HOUR) return 0;
  const at = new Date(now);
  const dayEnd = new Date(at.getFullYear(), at.getMonth(), at.getDate() + 1).getTime();
  const hoursLeft = Math.max(1, (dayEnd - now) / 3_600_000);
  return Math.max(1, Math.floor(left / (STREAM_CREDITS_PER_HOUR * hoursLeft)));
}

export interface DangerPricingDeps {
  prices: PriceBook;
  /** How many pool streams it may hold open now: none offline, else what the budget affords (`streamsAffordable`). */
  affordable: () => number;
  /** New prices came from a stream: value the positions again. */
  revalue: () => void;
  /** The watched positions with debt now (their moving assets are what a market liquidation may move). */
  positions?: () => readonly GuardedPosition[];
  /** Read these assets' prices now and value again (the price schedule's readNow). */
  readNow?: (assets: string[]) => void;
  /** Publishes the pools wanted live (`guardPoolsWanted`); hears the pool streams' trades (`poolStreamRead`). */
  events: Pick<CoreBus, 'on' | 'emit'>;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void };
  clearTimer?: (t: unknown) => void;
}

/**
 * In danger: critical or liquidatable, or within twice the near-liquidation band of its
 * liquidation price (6 % by default), where the next 45 s read may already find it liquidated.
 */
export function inDanger(g: Pick<GuardedPosition, 'position' | 'thresholds'>): boolean {
  const { level, distance_pct } = g.position;
  if (level === 'critical' || level === 'liquidatable') return true;
  const near = g.thresholds.near_pct;
  return near !== null && distance_pct !== null && Math.abs(distance_pct) <= 2 * near;
}

/** Lower is more urgent: liquidatable, then critical, then by distance from the liquidation price. */
function dangerRank(g: Pick<GuardedPosition, 'position'>): number {
  const { level, distance_pct } = g.position;
  if (level === 'liquidatable') return -2e6;
  const distance = typeof distance_pct === 'number' && Number.isFinite(distance_pct) ? Math.abs(distance_pct) : 1e5;
  return level === 'critical' ? distance - 1e6 : distance;
}

/**
 * The least time between two reads of one asset for other traders' liquidations: a cascade is
 * one read, and a busy market (at the Demo network's speed 20, liquidations come every few
 * seconds) reads an asset at most 4 times a minute, each read moving its scheduled one later.
 */
export const MARKET_READ_GAP_MS = 15_000;

/**
 * Other traders' liquidations read an asset only for a position this close to its liquidation
 * price (percent): twice the schedule's near band (cadence.ts). A jump that liquidates others
 * takes a position from its ratio toward liquidation faster than its price distance says when
 * part of its collateral is in the quote: the guard soak's missed SUI positions were 9.4 % from
 * their liquidation ratio (1.24 against 1.125) and further than that in price.
 */
export const MARKET_READ_NEAR_PCT = 2 * CADENCE_RULES.guard.nearPct;

/** The least time between two valuations a stream's trades ask for (trades come many a second). */
export const LIVE_REVALUE_MS = 1_000;

/**
 * Live prices while a position is in danger (docs/credits.md "In danger: the pool's stream"): the
 * pool that prices the moving asset of a watched position in danger (`inDanger`) is wanted
 * on its trade stream, where the plan allows one, so the position is valued at each trade (at most
 * once a second) instead of at the schedule's 45 s. The streams room opens the streams it is told
 * (`guardPoolsWanted`) in a free slot and publishes their trades (`poolStreamRead`: `onTrades`).
 */
export class DangerPricing {
  private wanted = new Set<string>();
  /** The newest trade time taken per pool: a replay or backfill is older and moves nothing. */
  private readonly newest = new Map<string, number>();
  private lastRevalue = -Infinity;
  /** When each asset was last read for a market liquidation. */
  private readonly marketRead = new Map<string, number>();
  private timer: unknown;
  private readonly now: () => number;

  constructor(private readonly d: DangerPricingDeps) {
    this.now = d.now ?? Date.now;
    d.events.on('poolStreamRead', ({ pool, trades }) => this.onTrades(pool, trades));
  }

  /** The pools wanted live now. */
  pools(): ReadonlySet<string> {
    return this.wanted;
  }

  /**
   * After each valuation: the pools of the positions in danger, the most endangered first
   * (liquidatable, critical, then nearest their liquidation price), as many as the budget affords.
   */
  update(positions: readonly GuardedPosition[]): void {
    const affordable = this.d.affordable();
    const urgency = new Map<string, number>();
    if (affordable > 0)
      for (const g of positions) {
        if (!inDanger(g)) continue;
        const pool = this.d.prices.pricingPool(g.baseAsset);
        if (!pool) continue;
        const u = dangerRank(g);
        if (u < (urgency.get(pool.pool_name) ?? Infinity)) urgency.set(pool.pool_name, u);
      }
    const next = new Set(
      [...urgency]
        .sort((a, b) => a[1] - b[1])
        .slice(0, affordable)
        .map(([pool]) => pool),
    );
    if (next.size === this.wanted.size && [...next].every((p) => this.wanted.has(p))) return;
    this.wanted = next;
    for (const p of [...this.newest.keys()]) if (!next.has(p)) this.newest.delete(p);
    this.d.events.emit('guardPoolsWanted', { pools: next });
  }

  /** Trades a pool stream received: a wanted pool's newest trade prices its asset. */
  onTrades(pool: string, trades: readonly Trade[]): void {
    if (!this.wanted.has(pool) || trades.length === 0) return;
    const last = trades.reduce((a, b) => (b.checkpoint_timestamp_ms >= a.checkpoint_timestamp_ms ? b : a));
    if (last.checkpoint_timestamp_ms < (this.newest.get(pool) ?? -Infinity)) return;
    this.newest.set(pool, last.checkpoint_timestamp_ms);
    if (!this.d.prices.noteTrade(pool, last.price, this.now())) return;
    this.revalueSoon();
  }

  /**
   * Other traders were liquidated on these pools (undefined: pool not known): the market moved
   * there, perhaps toward a watched position. The moving asset of each watched position on such a
   * pool within MARKET_READ_NEAR_PCT of its liquidation price is read at once (20 credits; not
   * while the budget has stopped price reads), at most once every MARKET_READ_GAP_MS per asset,
   * so a cascade costs one read and a jump that the 45 s schedule would find late is seen in
   * seconds.
   */
  onMarketLiquidations(pools: ReadonlyArray<string | undefined>): void {
    const names = new Set(pools.filter((p): p is string => p !== undefined));
    if (names.size === 0 || !this.d.readNow || !this.d.positions) return;
    const now = this.now();
    const due = new Set<string>();
    for (const g of this.d.positions()) {
      if (!g.position.pool_name || !names.has(g.position.pool_name)) continue;
      const near = g.position.distance_pct;
      if (near === null || Math.abs(near) > MARKET_READ_NEAR_PCT) continue;
      if (now - (this.marketRead.get(g.baseAsset) ?? -Infinity) < MARKET_READ_GAP_MS) continue;
      this.marketRead.set(g.baseAsset, now);
      due.add(g.baseAsset);
    }
    if (due.size > 0) this.d.readNow([...due]);
  }

  close(): void {
    if (this.timer !== undefined) (this.d.clearTimer ?? clearTimeout)(this.timer as NodeJS.Timeout);
    this.timer = undefined;
  }

  /** One valuation at once, then at most one a second: later trades wait for the next. */
  private revalueSoon(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastRevalue + LIVE_REVALUE_MS - this.now());
    const fire = (): void => {
      this.timer = undefined;
      this.lastRevalue = this.now();
      this.d.revalue();
    };
    if (wait === 0) return fire();
    const t = (this.d.setTimer ?? setTimeout)(fire, wait);
    t.unref?.();
    this.timer = t;
  }
}
