import { describe, expect, it, vi } from 'vitest';
import type { Pool, Trade } from '../../../../src/shared/api';
import {
  DangerPricing,
  LIVE_REVALUE_MS,
  MARKET_READ_GAP_MS,
  MARKET_READ_NEAR_PCT,
  STREAM_CREDITS_PER_HOUR,
  streamRoomPerDay,
  streamsAffordable,
} from '../../../../src/main/core/risk/danger-pricing';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import type { BudgetState, GuardedPosition } from '../../../../src/main/core/risk/price-schedule';
import { PriceBook } from '../../../../src/main/core/risk/prices';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import type { PositionLevel } from '../../../../src/shared/risk-model';

const SUI = '0x2::sui::SUI';
const USDC = '0x5::usdc::USDC';
const WAL = '0x3::wal::WAL';
const DEEP = '0x4::deep::DEEP';
const pool = (name: string, base: string, baseSymbol: string): Pool =>
  ({
    pool_id: name,
    pool_name: name,
    base_asset_id: base,
    base_asset_symbol: baseSymbol,
    base_asset_decimals: 9,
    quote_asset_id: USDC,
    quote_asset_symbol: 'USDC',
    quote_asset_decimals: 6,
    tick_size: 1000,
    lot_size: 1000,
    min_size: 1000,
  }) as unknown as Pool;
const POOLS = [pool('SUI_USDC', SUI, 'SUI'), pool('WAL_USDC', WAL, 'WAL')];

const guarded = (level: PositionLevel, baseAsset = SUI, distance_pct: number | null = -8): GuardedPosition =>
  ({
    position: { level, distance_pct } as GuardedPosition['position'],
    thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
    baseAsset,
    quoteAsset: USDC,
  }) as GuardedPosition;

/** A trade at `usd` (SUI_USDC: 9 and 6 decimals, so raw = usd x 1e6). */
const trade = (usd: number, ms: number): Trade =>
  ({ price: Math.round(usd * 1e6), checkpoint_timestamp_ms: ms }) as unknown as Trade;

function setup(affordable = Number.POSITIVE_INFINITY, positions: GuardedPosition[] = []) {
  let now = 1_000_000;
  const timers: Array<{ at: number; fn: () => void; unref?: () => void }> = [];
  const prices = new PriceBook(
    () => ({}) as ServiceClient,
    () => POOLS,
  );
  const revalue = vi.fn();
  const readNow = vi.fn();
  const events = new EventBus<CoreEvents>();
  const danger = new DangerPricing({
    prices,
    affordable: () => affordable,
    revalue,
    positions: () => positions,
    readNow,
    events,
    now: () => now,
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn, unref: () => {} };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => timers.splice(timers.indexOf(t as never), 1),
  });
  const advance = (ms: number): void => {
    now += ms;
    for (const t of [...timers].filter((x) => x.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  return { danger, events, prices, revalue, readNow, advance };
}

describe('live prices while a position is in danger', () => {
  it('wants the pool that prices a critical or liquidatable position, and tells only changes', () => {
    const { danger, events } = setup();
    const told: string[][] = [];
    events.on('guardPoolsWanted', ({ pools }) => told.push([...pools].sort()));
    danger.update([guarded('warning'), guarded('ok', WAL)]);
    expect(told).toEqual([]);
    danger.update([guarded('critical'), guarded('warning', WAL)]);
    danger.update([guarded('critical'), guarded('warning', WAL)]);
    // A warning within twice the 3 % band of its liquidation price (−5.9 %) is in danger too.
    danger.update([guarded('critical'), guarded('warning', WAL, -5.9)]);
    danger.update([guarded('critical'), guarded('warning', WAL)]);
    danger.update([guarded('critical'), guarded('liquidatable', WAL)]);
    danger.update([guarded('warning'), guarded('ok', WAL)]);
    expect(told).toEqual([['SUI_USDC'], ['SUI_USDC', 'WAL_USDC'], ['SUI_USDC'], ['SUI_USDC', 'WAL_USDC'], []]);
  });

  it('wants nothing when the plan does not allow a stream', () => {
    const { danger } = setup(0);
    danger.update([guarded('liquidatable')]);
    expect([...danger.pools()]).toEqual([]);
  });

  it('wants only as many pools as the budget affords, the most endangered first', () => {
    const { danger } = setup(1);
    // A critical position outranks a warning nearer its liquidation price; a liquidatable one outranks both.
    danger.update([guarded('warning', WAL, -1), guarded('critical', SUI, -2.5)]);
    expect([...danger.pools()]).toEqual(['SUI_USDC']);
    danger.update([guarded('critical', SUI, -2.5), guarded('liquidatable', WAL, 0.4)]);
    expect([...danger.pools()]).toEqual(['WAL_USDC']);
    // Two warnings: the nearer one's pool.
    danger.update([guarded('warning', SUI, -5), guarded('warning', WAL, 2)]);
    expect([...danger.pools()]).toEqual(['WAL_USDC']);
  });

  it("prices the asset at each wanted pool's newest trade and values again at most once a second", () => {
    const { danger, events, prices, revalue, advance } = setup();
    danger.update([guarded('critical')]);
    // A pool not wanted moves nothing.
    danger.onTrades('WAL_USDC', [trade(0.5, 10)]);
    expect(prices.peek(WAL)).toBeNull();
    // As a pool stream publishes what it read.
    events.emit('poolStreamRead', { pool: 'SUI_USDC', trades: [trade(3.1, 10), trade(3.05, 20)], depth: null });
    expect(prices.peek(SUI)?.usd).toBeCloseTo(3.05, 9);
    expect(revalue).toHaveBeenCalledTimes(1);
    // Trades within the second wait for one valuation at its end.
    advance(200);
    danger.onTrades('SUI_USDC', [trade(3.0, 30)]);
    danger.onTrades('SUI_USDC', [trade(2.99, 40)]);
    expect(revalue).toHaveBeenCalledTimes(1);
    advance(LIVE_REVALUE_MS - 200);
    expect(revalue).toHaveBeenCalledTimes(2);
    expect(prices.peek(SUI)?.usd).toBeCloseTo(2.99, 9);
    // A replayed (older) trade does not move the price back.
    danger.onTrades('SUI_USDC', [trade(3.5, 15)]);
    expect(prices.peek(SUI)?.usd).toBeCloseTo(2.99, 9);
    advance(5_000);
    expect(revalue).toHaveBeenCalledTimes(2);
  });
});

describe("other traders' liquidations", () => {
  it("read the moving asset of each watched position on their pools at once, once in a cascade's 15 s", () => {
    const onPool = (pool: string, baseAsset: string, distance = -9): GuardedPosition =>
      ({
        ...guarded('ok', baseAsset),
        position: { level: 'ok', distance_pct: distance, pool_name: pool },
      }) as GuardedPosition;
    const { danger, readNow, advance } = setup(Number.POSITIVE_INFINITY, [
      onPool('SUI_USDC', SUI),
      onPool('WAL_USDC', WAL),
      // Far from liquidation: one jump cannot reach it, a liquidation there reads nothing.
      onPool('DEEP_USDC', DEEP, -(MARKET_READ_NEAR_PCT + 0.1)),
    ]);
    danger.onMarketLiquidations(['SUI_USDC', undefined, 'DEEP_USDC']);
    expect(readNow).toHaveBeenCalledTimes(1);
    expect(readNow).toHaveBeenLastCalledWith([SUI]);
    advance(2_000);
    danger.onMarketLiquidations(['SUI_USDC', 'SUI_USDC']);
    expect(readNow).toHaveBeenCalledTimes(1);
    danger.onMarketLiquidations(['WAL_USDC']);
    expect(readNow).toHaveBeenLastCalledWith([WAL]);
    advance(MARKET_READ_GAP_MS);
    danger.onMarketLiquidations(['SUI_USDC']);
    expect(readNow).toHaveBeenCalledTimes(3);
    // No watched position on the pool near its liquidation: nothing is read.
    danger.onMarketLiquidations(['DEEP_USDC', 'NS_USDC']);
    expect(readNow).toHaveBeenCalledTimes(3);
  });
});

describe("a pool stream for the guard fits the month's budget", () => {
  const now = Date.UTC(2026, 10, 15, 12);
  const budget = (monthly: number | null, spent = 0, streamsToday = 0) => ({
    monthly,
    spentThisMonth: spent,
    fixedPerDay: 50,
    streamsToday,
    records: { id: 'margin records', intervalMs: 3 * 3_600_000, credits: 20 },
    events: [],
  });
  // Four assets every 45 s: 1,920 reads a day each at 20 credits, 153,600 a day.
  const reads = ['SUI', 'WAL', 'DEEP', 'NS'].map((id) => ({ id, intervalMs: 45_000, credits: 20 }));

  it('always where nothing is charged or no budget is set', () => {
    expect(streamsAffordable(null, reads, CADENCE_RULES.guard, now)).toBe(Number.POSITIVE_INFINITY);
    expect(streamsAffordable(budget(null), reads, CADENCE_RULES.guard, now)).toBe(Number.POSITIVE_INFINITY);
  });

  it("one while an hour of it fits beside the day's planned reads", () => {
    // Builder (5,000,000 a month, 161,290 a day at most): one asset every 45 s leaves room, four do not.
    expect(streamsAffordable(budget(5_000_000), reads.slice(0, 1), CADENCE_RULES.guard, now)).toBe(1);
    expect(streamsAffordable(budget(5_000_000), reads, CADENCE_RULES.guard, now)).toBe(0);
    // Free (250,000 a month, 8,065 a day): never an hour of a stream (40,000 credits).
    expect(streamsAffordable(budget(250_000), [], CADENCE_RULES.guard, now)).toBe(0);
    // Most of the month spent: no room left.
    expect(streamsAffordable(budget(5_000_000, 4_990_000), [], CADENCE_RULES.guard, now)).toBe(0);
    expect(STREAM_CREDITS_PER_HOUR).toBe(40_000);
  });

  it('counts what pool streams took today, and holds more than one only where the rest of the day affords them', () => {
    // Scale (20,000,000 a month, 645,161 a day at most) with four assets every 45 s (153,600):
    // 491,511 left, 12 hours of a stream.
    const scale = (streamsToday: number, at = now) =>
      streamsAffordable(budget(20_000_000, 0, streamsToday), reads, CADENCE_RULES.guard, at);
    const local = (h: number) => new Date(2026, 10, 15, h).getTime();
    // Early in the day one stream, not nine that would spend the day's room in an hour.
    expect(scale(0, local(1))).toBe(1);
    // Three hours before midnight, the 12 hours left pay for four streams to its end.
    expect(scale(0, local(21))).toBe(4);
    // What the streams took counts: 360,000 leaves three hours of one, 460,000 less than an hour.
    expect(scale(360_000, local(1))).toBe(1);
    expect(scale(460_000, local(1))).toBe(0);
  });

  it("leaves the margin pools' read and the liquidation map's to them, where they are read", () => {
    const room = (b: BudgetState) => streamRoomPerDay(b, reads, CADENCE_RULES.guard, now)!;
    // The pools every 15 min at 10 credits (960 a day), the map hourly at 100 (2,400 a day).
    const pools = { id: 'margin pools', intervalMs: 15 * 60_000, credits: 10 };
    const liquidations = { id: 'liquidation map', intervalMs: 3_600_000, credits: 100 };
    const without = room(budget(20_000_000));
    expect(without - room({ ...budget(20_000_000), pools })).toBeCloseTo(960, 6);
    expect(without - room({ ...budget(20_000_000), pools, liquidations })).toBeCloseTo(3_360, 6);
  });
});
