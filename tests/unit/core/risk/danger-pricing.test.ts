import { describe, expect, it, vi } from 'vitest';
import type { Pool, Trade } from '../../../../src/shared/api';
import { DangerPricing, LIVE_REVALUE_MS } from '../../../../src/main/core/risk/danger-pricing';
import type { GuardedPosition } from '../../../../src/main/core/risk/price-schedule';
import { PriceBook } from '../../../../src/main/core/risk/prices';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import type { PositionLevel } from '../../../../src/shared/risk-model';

const SUI = '0x2::sui::SUI';
const USDC = '0x5::usdc::USDC';
const WAL = '0x3::wal::WAL';
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

const guarded = (level: PositionLevel, baseAsset = SUI): GuardedPosition =>
  ({
    position: { level } as GuardedPosition['position'],
    thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
    baseAsset,
    quoteAsset: USDC,
  }) as GuardedPosition;

/** A trade at `usd` (SUI_USDC: 9 and 6 decimals, so raw = usd x 1e6). */
const trade = (usd: number, ms: number): Trade =>
  ({ price: Math.round(usd * 1e6), checkpoint_timestamp_ms: ms }) as unknown as Trade;

function setup(allowed = true) {
  let now = 1_000_000;
  const timers: Array<{ at: number; fn: () => void; unref?: () => void }> = [];
  const prices = new PriceBook(
    () => ({}) as ServiceClient,
    () => POOLS,
  );
  const revalue = vi.fn();
  const danger = new DangerPricing({
    prices,
    allowed: () => allowed,
    revalue,
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
  return { danger, prices, revalue, advance };
}

describe('live prices while a position is in danger', () => {
  it('wants the pool that prices a critical or liquidatable position, and tells only changes', () => {
    const { danger } = setup();
    const told: string[][] = [];
    danger.onWanted((p) => told.push([...p].sort()));
    danger.update([guarded('warning'), guarded('ok', WAL)]);
    expect(told).toEqual([]);
    danger.update([guarded('critical'), guarded('warning', WAL)]);
    danger.update([guarded('critical'), guarded('warning', WAL)]);
    danger.update([guarded('critical'), guarded('liquidatable', WAL)]);
    danger.update([guarded('warning'), guarded('ok', WAL)]);
    expect(told).toEqual([['SUI_USDC'], ['SUI_USDC', 'WAL_USDC'], []]);
  });

  it('wants nothing when the plan does not allow a stream', () => {
    const { danger } = setup(false);
    danger.update([guarded('liquidatable')]);
    expect([...danger.pools()]).toEqual([]);
  });

  it("prices the asset at each wanted pool's newest trade and values again at most once a second", () => {
    const { danger, prices, revalue, advance } = setup();
    danger.update([guarded('critical')]);
    // A pool not wanted moves nothing.
    danger.onTrades('WAL_USDC', [trade(0.5, 10)]);
    expect(prices.peek(WAL)).toBeNull();
    danger.onTrades('SUI_USDC', [trade(3.1, 10), trade(3.05, 20)]);
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
