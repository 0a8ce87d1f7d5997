import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PositionSummary } from '../../../../src/shared/contract';
import { borrowApr } from '../../../../src/shared/risk-model';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import type { MonitorHarness } from '../../../support/monitor-harness';
import { startTestSim, type TestSim } from '../../../support/sim';

const DAY = 86_400_000;
/** Where the USDC pool starts (70 % used, calm below its 80 % kink) and where the test drives it: 90 %. */
const CALM = 0.7;
const DRIVEN = 0.9;

/**
 * Pool health and rate alerts on the Demo network (docs/alerts.md "Borrow rates"): suppliers
 * leave the USDC margin pool (the sim's control), so it is 90 % used, past its kink; the next
 * read of the pools alerts the rate once, and values the positions again at the new rate, so a
 * position that interest now liquidates within the 7 days set is alerted with its day and repair.
 */
describe('a margin pool driven past its kink', () => {
  let t: TestSim;
  let m: MonitorHarness;
  const dir = tempDir();
  beforeAll(async () => {
    t = await startTestSim({ historyDays: 1 });
    const owners = t.sim.world
      .owners()
      .filter((o) => o.loans > 0)
      .map((o) => o.owner);
    // The pool's use moves with the market (70-85 % is its usual range): it starts calm here.
    t.sim.world.driveUtilization('USDC', CALM);
    m = monitorOn(t, dir.dir, { watch: owners }).start();
    // The first valuation starts the pool reads.
    await until(() => m.store.pools.latest().length > 0, 30_000, 'the first read of the margin pools');
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await t?.close();
    dir.remove();
  });

  const usdc = () => m.store.pools.latest().find((p) => p.symbol === 'USDC')!;
  const borrowersOf = async (poolId: string): Promise<PositionSummary[]> =>
    (await m.invoke('portfolio', {})).data.wallets
      .flatMap((w) => w.positions)
      .filter((p) => p.debts.some((d) => d.margin_pool_id === poolId));
  /** The service's ratio of a manager now (its loan's `risk_ratio`). */
  const servedRatio = async (p: PositionSummary): Promise<number> => {
    const managers = await t.allPages(`/dex-margin/margin-managers/${p.owner}`);
    const one = managers.find((x) => x.margin_manager_id === p.manager_id);
    return Math.min(...(one.active_loans as Array<{ risk_ratio: number }>).map((l) => l.risk_ratio));
  };

  it('alerts the rate once at the crossing, and the interest that now liquidates a position, with its day and repair', async () => {
    const before = usdc();
    // Read calm: below its kink, on its curve, nothing alerted.
    expect(before.utilization).toBeLessThan(before.curve.optimal_utilization - 0.02);
    expect(before.borrow_apr).toBeCloseTo(borrowApr(before.curve, before.utilization), 12);
    expect(m.store.risk.alerts().filter((a) => a.rule === 'rate')).toHaveLength(0);
    const borrowers = await borrowersOf(before.margin_pool_id);
    expect(borrowers.length).toBeGreaterThan(0);
    // The USDC borrower nearest its liquidation, not yet liquidatable: interest is to bring it within a week.
    const near = borrowers
      .filter((p) => p.risk_ratio !== null && p.risk_ratio > p.liquidation_ratio * 1.01)
      .sort((a, b) => a.risk_ratio! / a.liquidation_ratio - b.risk_ratio! / b.liquidation_ratio)[0]!;

    // Suppliers leave: 90 % used. Then interest runs (prices held, nobody trading) until the
    // position is within 0.8 % of its liquidation ratio: at the driven rate (64 % a year and up)
    // interest takes that in under five days.
    t.sim.world.driveUtilization('USDC', DRIVEN);
    let days = 0;
    while ((await servedRatio(near)) > near.liquidation_ratio * 1.008 && days < 400) {
      t.sim.world.accrueFor(DAY, 60);
      days++;
    }
    const ratio = await servedRatio(near);
    expect(ratio).toBeGreaterThan(near.liquidation_ratio);
    expect(ratio).toBeLessThanOrEqual(near.liquidation_ratio * 1.008);
    // The records read again (its ratio now), then the pools.
    await m.refreshRisk();
    const pools = await m.risk.poolHealth.read();
    const after = pools.find((p) => p.margin_pool_id === before.margin_pool_id)!;
    expect(after.utilization).toBeGreaterThanOrEqual(DRIVEN);
    expect(after.borrow_apr).toBeCloseTo(borrowApr(after.curve, after.utilization), 12);
    expect(after.borrow_apr).toBeGreaterThan(0.6);

    // One rate alert: the rate now and before, the pool's use past its kink, what the position pays more.
    await until(() => m.store.risk.alerts().some((a) => a.rule === 'interest' && a.manager_id === near.manager_id));
    const rate = m.store.risk.alerts().filter((a) => a.rule === 'rate');
    expect(rate).toHaveLength(1);
    const pct = (x: number): string => `${(x * 100).toFixed(2)}\u202F%`;
    expect(rate[0]!.title).toBe(`USDC borrow rate ${pct(after.borrow_apr)} (was ${pct(before.borrow_apr)})`);
    expect(rate[0]!.message).toContain(
      `the pool is ${Math.round(after.utilization * 100)}\u202F% used, past its 80\u202F% kink`,
    );
    expect(rate[0]!.message).toMatch(/your (Long|Short) [\d,.]+ \w+ on \w+_\w+ pays about \$[\d,.]+ a day more/);

    // The interest alert: the day, in the reader's zone (UTC here), and the repair first.
    const interest = m.store.risk.alerts().find((a) => a.rule === 'interest' && a.manager_id === near.manager_id)!;
    expect(interest.title).toMatch(
      /^Interest alone liquidates (Long|Short) [\d,.]+ \w+ on \w+_\w+ by [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d\d [AP]M UTC \((in \d+ (days|hours)|within 2 hours)\)$/,
    );
    expect(interest.message).toMatch(
      /^(Deposit|Repay) [\d,.]+ \w+( or (deposit|repay) [\d,.]+ \w+( from (its balance|your wallet))?)* \u2192 \d\.\d{3}\. /,
    );
    const position = (await borrowersOf(before.margin_pool_id)).find((p) => p.manager_id === near.manager_id)!;
    expect(position.interest.apr).toBeCloseTo(after.borrow_apr, 12);
    expect(position.interest.liquidation_in_ms).toBeLessThanOrEqual(7 * DAY);

    // Read again, still past the kink: no second rate alert for the same crossing.
    await m.risk.poolHealth.read();
    expect(m.store.risk.alerts().filter((a) => a.rule === 'rate')).toHaveLength(1);
    // The history keeps every read, oldest first.
    const view = await m.invoke('poolHealth', {});
    const history = view.data.history[before.margin_pool_id]!;
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history[0]!.utilization).toBeCloseTo(before.utilization, 12);
    expect(history.at(-1)!.utilization).toBeGreaterThanOrEqual(DRIVEN);
  }, 120_000);
});
