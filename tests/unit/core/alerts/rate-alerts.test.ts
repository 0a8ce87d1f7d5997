import { rateAsset } from '../../../../src/renderer/src/features/alerts/threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertEngine } from '../../../../src/main/core/alerts/alert-engine';
import { extraPerDay, RATE_HYSTERESIS, RateTracker } from '../../../../src/main/core/alerts/rate-alerts';
import { interestRepairOf } from '../../../../src/main/core/risk/positions';
import { repairWords } from '../../../../src/main/core/alerts/position-text';
import { DEFAULT_RISK_PARAMS } from '../../../../src/main/core/risk/risk-params';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { Store } from '../../../../src/main/core/store/store';
import { NO_CHANNELS } from '../../../../src/main/core/store/risk-alert-repo';
import type { PoolHealth, PositionSummary } from '../../../../src/shared/contract';
import {
  borrowApr,
  DAY_MS,
  pastKink,
  ratioAfter,
  supplyApr,
  timeToLiquidationByInterest,
  valueAt,
} from '../../../../src/shared/risk-model';
import { modelPosition } from '../../../renderer/support/position';

/** The real protocol's USDC curve, as its docs give it: 12 % at the 80 % kink, then 5 points a point. */
const USDC_CURVE = { base_rate: 0, base_slope: 0.15, optimal_utilization: 0.8, excess_slope: 5 };
const MIN = 60_000;

const read = (utilization: number, ts_ms: number, id = 'mp-USDC'): PoolHealth => ({
  margin_pool_id: id,
  symbol: 'USDC',
  utilization,
  borrow_apr: borrowApr(USDC_CURVE, utilization),
  supply_apr: supplyApr(USDC_CURVE, utilization, 0.1),
  curve: USDC_CURVE,
  kink_apr: borrowApr(USDC_CURVE, 0.8),
  ts_ms,
});

/** Long 1,000 SUI at $3.00 with a USDC debt, at ratio `ratio` (the pool liquidates at 1.125). */
function long(ratio: number, apr: number): PositionSummary {
  const debt = 3_000 / ratio;
  return modelPosition({
    id: '0xm1',
    pool: ['SUI', 'USDC'],
    h: { base: 1_000, quote: 0, debtBase: 0, debtQuote: debt },
    base: { symbol: 'SUI', usd: 3, source: 'oracle', at: 0 },
    quote: { symbol: 'USDC', usd: 1, source: 'oracle', at: 0 },
    params: DEFAULT_RISK_PARAMS,
    thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
    now: 0,
    pnl: {
      net_deposited_usd: null,
      pnl_usd: null,
      break_even_price: null,
      break_even_moved_at: null,
      estimated: false,
      note: null,
    },
    interest: { apr, apr_source: 'curve', accrued: null, accrued_usd: null, symbol: 'USDC', liquidation_in_ms: null },
  });
}

describe('the interest curve', () => {
  it("gives the real USDC pool's 12 % -> 37 % -> 62 % at 80 / 85 / 90 % use, and the suppliers' share", () => {
    expect(borrowApr(USDC_CURVE, 0.8)).toBeCloseTo(0.12, 12);
    expect(borrowApr(USDC_CURVE, 0.85)).toBeCloseTo(0.37, 12);
    expect(borrowApr(USDC_CURVE, 0.9)).toBeCloseTo(0.62, 12);
    expect(pastKink(USDC_CURVE, 0.8)).toBe(false);
    expect(pastKink(USDC_CURVE, 0.8001)).toBe(true);
    // Suppliers earn the borrowers' interest on the borrowed share, less the protocol's 10 %.
    expect(supplyApr(USDC_CURVE, 0.9, 0.1)).toBeCloseTo(0.62 * 0.9 * 0.9, 12);
    expect(supplyApr(USDC_CURVE, 0, 0.1)).toBe(0);
  });
});

describe('the rate rule', () => {
  it('alerts once per crossing of the kink, and again only after the pool came back by the hysteresis', () => {
    const t = new RateTracker();
    let now = 0;
    const next = (u: number) => t.observe(read(u, (now += 15 * MIN)), null);
    expect(next(0.7)).toBeNull();
    expect(next(0.78)).toBeNull();
    const first = next(0.86)!;
    expect(first).toMatchObject({ cause: 'kink', line: null });
    expect(first.wasApr).toBeCloseTo(borrowApr(USDC_CURVE, 0.78), 12);
    // Hovering around the kink: no new crossing until it is 2 points under it.
    expect(next(0.79)).toBeNull();
    expect(next(0.81)).toBeNull();
    expect(next(0.8 - RATE_HYSTERESIS + 0.001)).toBeNull();
    expect(t.isHigh('mp-USDC')).toBe(true);
    expect(next(0.8 - RATE_HYSTERESIS)).toBeNull();
    expect(t.isHigh('mp-USDC')).toBe(false);
    const second = next(0.9)!;
    expect(second.cause).toBe('kink');
    expect(second.wasApr).toBeCloseTo(borrowApr(USDC_CURVE, 0.78), 12);
  });

  it("alerts when the rate passes the user's line below the kink, cleared 2 points under the line", () => {
    const t = new RateTracker();
    const steep = { ...USDC_CURVE, base_rate: 0.2 };
    const at = (u: number, ts: number): PoolHealth => ({
      ...read(u, ts),
      curve: steep,
      borrow_apr: borrowApr(steep, u),
    });
    expect(t.observe(at(0.5, 1), 0.3)).toBeNull(); // 27.5 %
    expect(t.observe(at(0.7, 2), 0.3)).toMatchObject({ cause: 'line', line: 0.3 }); // 30.5 %
    expect(t.observe(at(0.6, 3), 0.3)).toBeNull(); // 29 %: held
    expect(t.isHigh('mp-USDC')).toBe(true);
    expect(t.observe(at(0.5, 4), 0.3)).toBeNull(); // 27.5 %: cleared
    expect(t.observe(at(0.9, 5), 0.3)).toMatchObject({ cause: 'both' });
  });

  it('a first read already past the kink is a crossing with nothing to compare; a restart keeps what was seen', () => {
    const t = new RateTracker();
    expect(t.observe(read(0.88, 1), null)).toMatchObject({ wasApr: null, cause: 'kink' });
    const again = new RateTracker();
    again.restore(JSON.parse(JSON.stringify(t.state())));
    expect(again.observe(read(0.9, 2), null)).toBeNull();
  });
});

describe('the rate alert', () => {
  let store: Store;
  let now: number;
  beforeEach(() => {
    store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    now = Date.UTC(2026, 10, 23, 14, 0);
  });
  afterEach(() => store.close());

  it("says the rate, what it was, the pool's use against its kink, and what each borrower pays more a day", () => {
    const pushed: unknown[] = [];
    const bus = new EventBus<CoreEvents>();
    bus.on('alertsRaised', ({ alerts }) => pushed.push(...alerts));
    const engine = new AlertEngine(store.risk, bus, 900_000);
    const p = long(1.3, 0.372);
    const other = { ...long(1.5, 0.372), manager_id: '0xm2', debts: [{ ...p.debts[0]!, margin_pool_id: 'mp-SUI' }] };
    const borrowers = (id: string): PositionSummary[] => [p, other].filter((x) => x.debts[0]!.margin_pool_id === id);
    expect(engine.onPoolRates([read(0.8, now)], borrowers, 0.3, now)).toEqual([]);
    now += 15 * MIN;
    const [alert] = engine.onPoolRates([read(0.85, now)], borrowers, 0.3, now);
    const more = extraPerDay(p, 'mp-USDC', 0.12, 0.37)!;
    // $2,307.69 of debt at 25 points more a year: $1.58 a day.
    expect(more).toBeCloseTo(((3_000 / 1.3) * 0.25) / 365, 9);
    expect(alert).toMatchObject({
      rule: 'rate',
      level: 'warning',
      manager_id: null,
      owner: '0xowner',
      title: 'USDC borrow rate 37.00\u202F% (was 12.00\u202F%)',
    });
    expect(alert!.message).toBe(
      'USDC borrow rate 37.00\u202F% (was 12.00\u202F%): the pool is 85\u202F% used, past its 80\u202F% kink and your 30\u202F% line; ' +
        'your Long 1,000.0000 SUI on SUI_USDC pays about $1.58 a day more. Past the kink each point of use adds 5\u202F% a year. ' +
        'Check what you owe in USDC: repaying it, or adding collateral, keeps the interest from eating your margin.',
    );
    // The Alerts page threads each pool's rate by the asset its title starts with.
    expect(rateAsset(alert!)).toBe('USDC');
    expect(pushed).toHaveLength(1);
    // Still past it: nothing more. No borrower on a pool that crosses: nothing said.
    now += 15 * MIN;
    expect(engine.onPoolRates([read(0.9, now), read(0.95, now, 'mp-DEEP')], borrowers, 0.3, now)).toEqual([]);
    expect(store.risk.alerts().filter((a) => a.rule === 'rate')).toHaveLength(1);
  });

  it('keeps its crossings across a restart', () => {
    const bus = new EventBus<CoreEvents>();
    let kept: unknown;
    const levels = { load: () => kept as never, save: (s: unknown) => (kept = s) };
    const one = new AlertEngine(store.risk, bus, 900_000, undefined, undefined, levels);
    expect(one.onPoolRates([read(0.86, now)], () => [long(1.3, 0.4)], null, now)).toHaveLength(1);
    const two = new AlertEngine(store.risk, bus, 900_000, undefined, undefined, levels);
    expect(two.onPoolRates([read(0.87, now + 15 * MIN)], () => [long(1.3, 0.4)], null, now + 15 * MIN)).toEqual([]);
  });
});

describe("the interest alert's repair", () => {
  it('lifts the ratio out of the warning band and far enough that interest does not bring it back within the days set', () => {
    const apr = 1.14; // the real curve at 100 % use
    const p = long(1.14, apr);
    const h = { base: p.base_amount, quote: p.quote_amount, debtBase: p.debt_base, debtQuote: p.debt_quote };
    const prices = { base: 3, quote: 1 };
    const rates = { base: null, quote: apr };
    // Interest alone liquidates it in about 4 days.
    const ms = timeToLiquidationByInterest(h, prices, rates, 1.125)!;
    expect(ms / DAY_MS).toBeGreaterThan(3.5);
    expect(ms / DAY_MS).toBeLessThan(5);
    for (const days of [7, 30]) {
      const repair = interestRepairOf(p, days)!;
      const after = { ...h, debtQuote: h.debtQuote - repair.repay!.amount };
      // After the repayment shown, the warning is cleared and stays so for the days set.
      expect(valueAt(after, prices).ratio!).toBeGreaterThanOrEqual(1.224);
      expect(ratioAfter(after, prices, rates, days * DAY_MS)!).toBeGreaterThanOrEqual(1.2);
      const deposit = repair.deposits.find((d) => d.symbol === 'USDC')!;
      expect(ratioAfter({ ...h, quote: deposit.amount }, prices, rates, days * DAY_MS)!).toBeGreaterThanOrEqual(1.2);
    }
    // 30 days at 114 % asks more than 7 days does.
    expect(interestRepairOf(p, 30)!.target).toBeGreaterThan(interestRepairOf(p, 7)!.target);
    // In the danger band (below the pool's minimum borrow ratio, 1.250) at a calm rate: out of the
    // band, the threshold alert's and the repair panel's target, not only where the warning clears.
    const band = interestRepairOf(long(1.14, 0.12), 7)!;
    expect(band.target).toBe(DEFAULT_RISK_PARAMS.min_borrow);
    expect(repairWords({ ...long(1.14, 0.12), repair: band })).toMatch(/\u2192 1\.250$/);
    // Far above its thresholds at a calm rate: nothing to do.
    expect(interestRepairOf(long(1.6, 0.12), 7)).toBeNull();
  });
});
