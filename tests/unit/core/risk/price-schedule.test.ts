import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { POOLS_READ } from '../../../../src/main/core/credits/credit-plan';
import {
  plannedCreditsPerDay,
  planReads,
  PriceSchedule,
  readPlanOf,
  type BudgetState,
} from '../../../../src/main/core/risk/price-schedule';
import { PLANS } from '../../../../src/shared/credit-prices';
import { PriceBook } from '../../../../src/main/core/risk/prices';
import { PRIOR_DAILY_VOL, VolatilityBook } from '../../../../src/main/core/risk/volatility';
import type { Pool } from '../../../../src/shared/api';
import { suiLong } from '../../../support/positions';

const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('the read plan', () => {
  it('reads an asset as its nearest position needs, and says why with that position', () => {
    const pos = (id: string, distancePct: number) => ({
      position: suiLong({ manager_id: id, distance_pct: distancePct }),
      thresholds: { warning: 1.5, critical: 1.25, near_pct: null },
      baseAsset: 'SUI',
      quoteAsset: 'USDC',
    });
    const at = { readable: (a: string) => a === 'SUI', quoteUsd: () => 1, sigma: () => sigma, now: 0 };
    // Both within 10 % of liquidation: both ask for the 45 s floor; the reason is the nearer one's.
    const plan = planReads([pos('a', -8.5), pos('b', 2.9)], CADENCE_RULES.guard, null, at);
    expect(plan.assets).toEqual([
      { asset: 'SUI', wantMs: 45_000, everyMs: 45_000, why: 'near liquidation (+2.9\u202F%)' },
    ]);
  });
});

describe("the margin pools' read (pool health) in the plan", () => {
  const pos = {
    position: suiLong({ manager_id: 'a', distance_pct: -8.5 }),
    thresholds: { warning: 1.5, critical: 1.25, near_pct: null },
    baseAsset: 'SUI',
    quoteAsset: 'USDC',
  };
  const at = {
    readable: (a: string) => a === 'SUI',
    quoteUsd: () => 1,
    sigma: () => sigma,
    now: Date.UTC(2026, 10, 2),
  };
  const budget = (monthly: number): BudgetState => ({
    monthly,
    spentThisMonth: 0,
    fixedPerDay: 50,
    streamsToday: 0,
    records: { id: 'margin records', intervalMs: 3 * 3_600_000, credits: 20, maxMs: 86_400_000 },
    events: [],
    pools: POOLS_READ,
  });

  it('is read every 15 min where the budget allows, and is the first read stretched, to 6 h, where it does not', () => {
    // Builder: a SUI price every 45 s (38,400 a day) and the pools every 15 min (960) fit its 161,290 a day.
    const builder = planReads([pos], CADENCE_RULES.guard, budget(PLANS.builder.monthlyCredits), at);
    expect(builder.pace).toBe(1);
    expect(builder.poolsEveryMs).toBe(15 * 60_000);
    expect(readPlanOf(builder, (a) => a)).toMatchObject({ poolsEveryMs: 15 * 60_000, poolsSlowed: false });
    // Free (8,064 a day): the 45 s price is stretched, the pools' read far more, to its 6 h: 40 credits a day.
    const free = planReads([pos], CADENCE_RULES.guard, budget(PLANS.free.monthlyCredits), at);
    expect(free.pace).toBeGreaterThan(1);
    expect(free.poolsEveryMs).toBe(6 * 3_600_000);
    expect(free.assets[0]!.everyMs / 45_000).toBeLessThan(free.poolsEveryMs! / (15 * 60_000));
    expect(readPlanOf(free, (a) => a)).toMatchObject({ poolsEveryMs: 6 * 3_600_000, poolsSlowed: true });
    // And counted in what the plan spends: 4 reads a day at 10 credits.
    const withPools = plannedCreditsPerDay(free, budget(PLANS.free.monthlyCredits), CADENCE_RULES.guard);
    const without = plannedCreditsPerDay(
      { ...free, poolsEveryMs: null },
      budget(PLANS.free.monthlyCredits),
      CADENCE_RULES.guard,
    );
    expect(withPools - without).toBeCloseTo(40, 6);
    // No budget state yet: not planned, the status says nothing of it.
    expect(readPlanOf(planReads([pos], CADENCE_RULES.guard, null, at), (a) => a).poolsEveryMs).toBeUndefined();
  });
});

describe("reads outside the schedule (other traders' liquidations)", () => {
  const SUI = '0x2::sui::SUI';
  const POOL = {
    pool_id: 'SUI_USDC',
    pool_name: 'SUI_USDC',
    base_asset_id: SUI,
    base_asset_symbol: 'SUI',
    base_asset_decimals: 9,
    quote_asset_id: '0x5::usdc::USDC',
    quote_asset_symbol: 'USDC',
    quote_asset_decimals: 6,
  } as unknown as Pool;

  function schedule(budget: BudgetState | null, clock = { now: Date.UTC(2026, 10, 15, 12) }) {
    let trades = 0;
    const client = {
      trades: async () => {
        trades++;
        return [{ price: 3_000_000, checkpoint_timestamp_ms: 0 }];
      },
      candles: async () => [],
    } as unknown as ServiceClient;
    const prices = new PriceBook(
      () => client,
      () => [POOL],
    );
    const s = new PriceSchedule({
      prices,
      volatility: new VolatilityBook(),
      client: () => client,
      rule: () => CADENCE_RULES.guard,
      positions: () => [
        {
          position: suiLong({ distance_pct: -8 }),
          thresholds: { warning: 1.5, critical: 1.25, near_pct: 3 },
          baseAsset: SUI,
          quoteAsset: '0x5::usdc::USDC',
        },
      ],
      budget: () => budget,
      onPrices: () => {},
      canRun: () => true,
      log: () => {},
      now: () => clock.now,
    });
    cleanups.push(() => s.close());
    return { s, trades: () => trades };
  }

  const paced = (monthly: number, spent: number): BudgetState => ({
    monthly,
    spentThisMonth: spent,
    fixedPerDay: 50,
    streamsToday: 0,
    records: { id: 'margin records', intervalMs: 3 * 3_600_000, credits: 20, maxMs: 86_400_000 },
    events: [],
  });

  it('are taken while the budget allows reads, and not once it has stopped them', async () => {
    const free = schedule(null);
    free.s.replan();
    await free.s.readNow([SUI]);
    expect(free.trades()).toBeGreaterThan(0);

    // The month's budget is spent: the margin stream alone is left, and so these reads stop too.
    const spent = schedule(paced(250_000, 250_000));
    spent.s.replan();
    expect(spent.s.plan().pace).toBeNull();
    const before = spent.trades();
    await spent.s.readNow([SUI]);
    expect(spent.trades()).toBe(before);
  });

  it("an owner's event reads a price only when the schedule's own read of it is due", async () => {
    const clock = { now: Date.UTC(2026, 10, 15, 12) };
    const { s, trades } = schedule(null, clock);
    s.replan();
    // Never read: due.
    expect(s.priceDue(SUI, clock.now)).toBe(true);
    await s.readNow([SUI]);
    expect(trades()).toBe(1);
    const every = s.plan().prices[0]!.everyMs!;
    expect(every).toBeGreaterThanOrEqual(CADENCE_RULES.guard.minMs);
    // Read just now: not due until its interval has passed, whatever events come meanwhile.
    clock.now += every - 1;
    expect(s.priceDue(SUI, clock.now)).toBe(false);
    clock.now += 1;
    expect(s.priceDue(SUI, clock.now)).toBe(true);
    // An asset the schedule does not read: due while its price is unknown.
    expect(s.priceDue('0x9::wal::WAL', clock.now)).toBe(true);
  });
});
