import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionSummary } from '../../src/shared/contract';
import {
  allowedPerDay,
  paceFactor,
  pacedIntervalMs,
  readsPerDay,
  type PacedRead,
} from '../../src/main/core/credits/budget-pacer';
import { forecast, MARGIN_STREAM_PRIOR_PER_DAY, recordsReadCredits } from '../../src/main/core/credits/cost-model';
import { CADENCE_RULES, distanceToNextThreshold, readIntervalMs } from '../../src/main/core/risk/cadence';
import { EVENT_READ_MAX_GAP_MS, EVENT_SOON_MS, EventReads } from '../../src/main/core/risk/event-reads';
import { planReads } from '../../src/main/core/risk/price-schedule';
import { VolatilityBook, PRIOR_DAILY_VOL, SIGMA_FLOOR } from '../../src/main/core/risk/volatility';
import { PLANS } from '../../src/shared/credit-prices';

const DAY_MS = 86_400_000;
const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);

/** Long 1,000 SUI at $2 with 1,200 USDC owed: own ratio 2000 / 1200 = 1.667; the service says 1.6. */
/** 1,000 SUI at $2 against USDC debt: ratio 1.6 by default (2,000 / 1,250). */
function suiLong(patch: Partial<PositionSummary> = {}, ratio = 1.6): PositionSummary {
  const debt = 2000 / ratio;
  return {
    risk_ratio: ratio,
    price: { symbol: 'SUI', usd: 2, source: 'oracle', at: 0 },
    quote_price: { symbol: 'USDC', usd: 1, source: 'stablecoin', at: 0 },
    collateral_usd: 2000,
    debt_usd: debt,
    base_symbol: 'SUI',
    quote_symbol: 'USDC',
    base_amount: 1000,
    quote_amount: 0,
    debt_base: 0,
    debt_quote: debt,
    debts: [{ margin_pool_id: 'm', symbol: 'USDC', amount: debt, usd: debt }],
    liquidation_ratio: 1.125,
    liquidation_price: (1.125 * debt) / 1000,
    risk_params: { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 },
    ...patch,
  } as unknown as PositionSummary;
}

describe('the read cadence (docs/credits.md "How often")', () => {
  const rule = CADENCE_RULES.guard;

  it('reads a price as often as a quarter of the distance could be covered at 3 sigma, between its bounds', () => {
    // 5 % to the next threshold at 6 %/day: (0.25 * 0.05 / (3 * σ))^2 s.
    const want = ((0.25 * 0.05) / (3 * sigma)) ** 2 * 1000;
    expect(readIntervalMs(CADENCE_RULES.volatility, 0.05, 30, sigma)).toBeCloseTo(want, 0);
    expect(readIntervalMs(rule, 0.5, 60, sigma)).toBe(rule.maxMs);
    expect(readIntervalMs(rule, 0.0001, 60, sigma)).toBe(rule.minMs);
    expect(readIntervalMs(rule, 0, 60, sigma)).toBe(rule.minMs);
    // Within 10 % of liquidation: at least every 45 s, however far the next threshold.
    expect(readIntervalMs(rule, 0.5, -9.9, sigma)).toBe(45_000);
    expect(readIntervalMs(CADENCE_RULES.fixed, 0.001, -1, sigma)).toBe(60_000);
  });

  it('closer to a threshold or to liquidation never reads less often; more volatile never less often', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e-2, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e-2, noNaN: true }),
        fc.constantFrom(...Object.values(CADENCE_RULES)),
        (d1, d2, l1, l2, s1, s2, r) => {
          const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
          const [nearLiq, farLiq] = Math.abs(l1) <= Math.abs(l2) ? [l1, l2] : [l2, l1];
          const [calm, wild] = s1 <= s2 ? [s1, s2] : [s2, s1];
          expect(readIntervalMs(r, near, nearLiq, calm)).toBeLessThanOrEqual(readIntervalMs(r, far, farLiq, calm));
          expect(readIntervalMs(r, near, nearLiq, wild)).toBeLessThanOrEqual(readIntervalMs(r, near, nearLiq, calm));
          const ms = readIntervalMs(r, near, nearLiq, calm);
          expect(ms).toBeGreaterThanOrEqual(r.minMs);
          expect(ms).toBeLessThanOrEqual(r.maxMs);
        },
      ),
    );
  });

  it('measures the move to the next threshold below the ratio, carried as the valuation carries it', () => {
    const t = { warning: 1.5, critical: 1.25, near_pct: null };
    // The ratio moves with the SUI price (no quote held): 1.5 is reached at 2 * 1.5 / 1.6 = 1.875, -6.25 %.
    expect(distanceToNextThreshold(suiLong(), t)).toBeCloseTo(0.0625, 6);
    // Below warning, the next is critical: -13.8 % from 1.45.
    expect(distanceToNextThreshold(suiLong({}, 1.45), t)).toBeCloseTo(1 - 1.25 / 1.45, 6);
    // Within 3 % of the liquidation price counts as critical. From 1.2 the liquidation price is
    // 6.25 % below (1.125 / 1.2); its 3 % edge comes after a 3.4 % fall, before critical (4.2 %).
    const near = distanceToNextThreshold(suiLong({}, 1.2), { warning: 1.5, critical: 1.15, near_pct: 3 });
    expect(near).toBeCloseTo(1 - 1.125 / 1.2 / 0.97, 6);
    // At or below liquidation: as often as allowed.
    expect(distanceToNextThreshold(suiLong({}, 1.1), t)).toBe(0);
  });
});

describe('volatility', () => {
  it('starts from the prior, learns from candles and from the prices read', () => {
    const v = new VolatilityBook();
    expect(v.sigma('SUI')).toBeCloseTo(sigma, 12);
    // Closes alternating +-1 % every 5 minutes: σ = 0.00995 / sqrt(300).
    const candles = Array.from({ length: 25 }, (_, i) => ({ close: i % 2 ? 1.01 : 1 })) as never;
    v.seed('SUI', candles, 300);
    expect(v.sigma('SUI')).toBeCloseTo(Math.log(1.01) / Math.sqrt(300), 8);
    // Reads: a steady price drives it down to its floor; reads closer than 5 s are skipped.
    for (let i = 0; i < 100; i++) v.note('SUI', 2, i * 60_000);
    expect(v.sigma('SUI')).toBe(SIGMA_FLOOR);
    v.note('SUI', 4, 99 * 60_000 + 1000);
    expect(v.sigma('SUI')).toBe(SIGMA_FLOOR);
    v.note('SUI', 2.02, 100 * 60_000);
    expect(v.sigma('SUI')).toBeGreaterThan(1e-4);
  });
});

describe('budget pacing (docs/credits.md "Budget")', () => {
  const b = CADENCE_RULES.guard;
  const reads = (n: number): PacedRead[] =>
    Array.from({ length: n }, (_, i) => ({ id: `a${i}`, intervalMs: b.minMs * (1 + i * 3), credits: 20 }));

  it('stretches the least urgent most, and finds the smallest factor that fits', () => {
    const rs = [
      { id: 'near', intervalMs: b.minMs, credits: 20 },
      { id: 'far', intervalMs: b.maxMs, credits: 20 },
    ];
    const f = paceFactor(rs, 50, 10_000, b);
    expect(f).toBeGreaterThan(1);
    expect(50 + readsPerDay(rs, f, b)).toBeLessThanOrEqual(10_000 + 1e-6);
    expect(50 + readsPerDay(rs, f * 0.99, b)).toBeGreaterThan(10_000);
    expect(pacedIntervalMs(b.maxMs, f, b) / b.maxMs).toBeCloseTo(f, 6);
    expect(pacedIntervalMs(b.minMs, f, b) / b.minMs).toBeCloseTo(f ** 0.25, 6);
    expect(paceFactor(rs, 50, 1e9, b)).toBe(1);
    expect(paceFactor(rs, 10_000, 10_000, b)).toBe(Infinity);
  });

  it('a read with a longest interval is never stretched past it', () => {
    const rs = [{ id: 'records', intervalMs: 3 * 3_600_000, credits: 100, maxMs: DAY_MS }];
    expect(pacedIntervalMs(rs[0]!.intervalMs, 1e6, b, DAY_MS)).toBe(DAY_MS);
  });

  it('never spends more than a 31st of the budget a day, nor more than is left', () => {
    expect(allowedPerDay(250_000, 0, new Date(2026, 10, 25, 12))).toBeCloseTo(250_000 / 31, 6);
    expect(allowedPerDay(250_000, 249_000, new Date(2026, 10, 29, 0))).toBeCloseTo(1_000 / 2, 6);
    expect(allowedPerDay(250_000, 300_000, new Date(2026, 10, 2))).toBe(0);
  });

  it('over a simulated month, pacing never exceeds the budget (margin stream included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 20_000, max: 5_000_000 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.integer({ min: 0, max: 27 }),
        (n, budget, stream, startDay) => {
          fc.pre(stream * 31 < budget);
          let spent = 0;
          // Each hour of the month from the start day: plan, then spend that hour's share.
          for (let h = startDay * 24; h < 30 * 24; h++) {
            const now = new Date(2026, 10, 1, h);
            const allowed = allowedPerDay(budget, spent, now);
            const f = paceFactor(reads(n), stream, allowed, b);
            spent += (stream + readsPerDay(reads(n), f, b)) / 24;
          }
          expect(spent).toBeLessThanOrEqual(budget * 1.000001);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the cost model', () => {
  it('forecasts a day from the scheduled reads, the measured stream and the records, against the plan', () => {
    const f = forecast({
      plan: { name: 'free', plan: PLANS.free },
      budget: PLANS.free.monthlyCredits,
      marginStreamRate: null,
      prices: [
        { id: 'SUI', intervalMs: 15 * 60_000, credits: 20 },
        { id: 'WAL', intervalMs: 30 * 60_000, credits: 20 },
      ],
      owners: 5,
      recordsCredits: recordsReadCredits(5),
      recordsEveryMs: 3 * 3_600_000,
      events: [{ id: '0xowner', intervalMs: 6 * 3_600_000, credits: 100 }],
      poolStreams: [{ pool: 'SUI_USDC', rate: 2048 }],
    });
    const expected = MARGIN_STREAM_PRIOR_PER_DAY + 96 * 20 + 48 * 20 + 8 * recordsReadCredits(5) + 4 * 100;
    expect(f.perDay).toBe(expected);
    expect(f.shareOfPlanDay).toBeCloseTo(expected / (250_000 / 30), 6);
    expect(f.lines.map((l) => l.what)).toEqual([
      'Margin stream (always open: the liquidation alarm)',
      'SUI price',
      'WAL price',
      'Margin records (loans, deposits, supplies)',
      "Records read again for watched managers' events",
    ]);
    // 2 KB/s is 7,200 credits an hour, while the page is open; not in the day's figure.
    expect(f.poolStreams).toEqual([{ pool: 'SUI_USDC', perHour: 7200 }]);
    // A measured stream: 1 KB/s is 86,400 credits a day.
    expect(
      forecast({
        plan: { name: 'custom', plan: null },
        budget: null,
        marginStreamRate: 1024,
        prices: [],
        owners: 0,
        recordsCredits: 0,
        recordsEveryMs: null,
        events: [],
        poolStreams: [],
      }).perDay,
    ).toBe(86_400);
  });
});

describe("reads for watched managers' events", () => {
  it('measures each owner’s events, and waits for the budget’s gap after the owner’s last read', () => {
    let now = 0;
    const e = new EventReads(() => now);
    now = 2 * 3_600_000;
    for (let i = 0; i < 8; i++) e.noteEvent('0xa');
    e.noteEvent('0xb');
    // 8 events in 2 hours: one every 15 min; one read costs what creditsOf says.
    // However short the budget, an owner's event is read within EVENT_READ_MAX_GAP_MS.
    expect(e.reads(() => 60)).toEqual([
      { id: '0xa', intervalMs: 15 * 60_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS },
      { id: '0xb', intervalMs: 2 * 3_600_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS },
    ]);
    // Unpaced: 300 ms after the event; paced: no sooner than the gap after the last read.
    expect(e.dueAt('0xa', 0)).toBe(now + EVENT_SOON_MS);
    e.noteRead('0xa', now);
    expect(e.dueAt('0xa', 600_000)).toBe(now + 600_000);
  });

  it('the budget paces event reads with the prices: a busy wallet gets a gap, none when the budget allows', () => {
    const rule = CADENCE_RULES.guard;
    const budget = (monthly: number) => ({
      monthly,
      spentThisMonth: 0,
      fixedPerDay: 50,
      records: { id: 'records', intervalMs: 3 * 3_600_000, credits: 100, maxMs: DAY_MS },
      events: [{ id: '0xa', intervalMs: 5 * 60_000, credits: 60 }],
    });
    const at = { readable: () => true, quoteUsd: () => 1, sigma: () => sigma, now: new Date(2026, 10, 2).getTime() };
    const rich = planReads([], rule, budget(50_000_000), at);
    expect(rich.pace).toBe(1);
    expect(rich.eventGaps.size).toBe(0);
    // 288 reads a day at 60 credits is 17,280: over the Free plan's day, so they are spaced out.
    const free = planReads([], rule, budget(250_000), at);
    expect(free.pace).toBeGreaterThan(1);
    const gap = free.eventGaps.get('0xa')!;
    expect(gap).toBeGreaterThan(0);
    // An event read every 5 min waiting `gap` after each read: one every 5 min + gap.
    const perDay = 50 + (DAY_MS / free.recordsEveryMs!) * 100 + (DAY_MS / (5 * 60_000 + gap)) * 60;
    expect(perDay).toBeLessThanOrEqual(250_000 / 31 + 1e-6);
    // A budget almost spent: the gap stops at its cap (an event is still read within 3 hours), never a timer of years.
    const spent = planReads(
      [],
      rule,
      {
        ...budget(250_000),
        spentThisMonth: 249_990,
        events: [{ id: '0xa', intervalMs: 5 * 60_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS }],
      },
      at,
    );
    expect(spent.eventGaps.get('0xa')).toBe(EVENT_READ_MAX_GAP_MS - 5 * 60_000);
  });
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
    expect(plan.assets).toEqual([{ asset: 'SUI', wantMs: 45_000, everyMs: 45_000, why: 'near liquidation (+2.9 %)' }]);
  });
});
