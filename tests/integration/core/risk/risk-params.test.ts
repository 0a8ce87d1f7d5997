import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { RegisteredDexPoolListSchema } from '../../../../src/shared/api';
import { thresholdsOnPool } from '../../../../src/shared/portfolio';
import { NAMING_PROFILES } from '../../../../src/main/core/client/naming';
import { riskParamsOf } from '../../../../src/main/core/risk/risk-params';
import { riskOf } from '../../../../src/sim/chain/margin';
import { monitorOn, tempDir } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

const closers: Array<() => unknown> = [];

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function portfolioOn(t: TestSim) {
  const dir = tempDir();
  closers.push(() => dir.remove());
  // Every owner with a loan: positions on every margin pool.
  const owners = t.sim.world
    .owners()
    .filter((o) => o.loans > 0)
    .map((o) => o.owner);
  const m = monitorOn(t, dir.dir, { watch: owners }).start();
  closers.push(() => m.close());
  const p = await m.invoke('portfolio', {});
  return p.data.wallets.flatMap((w) => w.positions);
}

describe('risk parameters per pool', () => {
  it('the Demo network publishes both endpoints, with other parameters on WAL_USDC and XBTC_USDC', async () => {
    const t = await startTestSim();
    closers.push(() => t.close());
    const registered = await t.get('/dex-margin/registered-dex-pools');
    expect(registered.status).toBe(200);
    const list = v.parse(RegisteredDexPoolListSchema, registered.body);
    const byName = new Map(list.map((p) => [(p as { pool_name?: string }).pool_name, p]));
    expect(byName.get('SUI_USDC')?.liquidation_risk_ratio).toBe(1.125);
    expect(byName.get('WAL_USDC')?.liquidation_risk_ratio).toBe(1.2);
    expect(byName.get('WAL_USDC')).toMatchObject({ min_borrow_risk_ratio: 1.35, min_withdraw_risk_ratio: 2.2 });
    expect(byName.get('XBTC_USDC')?.liquidation_risk_ratio).toBe(1.1);
    const pools = await t.get('/dex-margin/pools');
    expect(pools.status).toBe(200);
    expect(pools.body.length).toBeGreaterThanOrEqual(4);
    // Filter by a margin pool id: the exchange pools that borrow from it.
    const sui = (
      await t.get('/dex-margin/registered-dex-pools', { marginPoolId: byName.get('SUI_USDC')!.base_margin_pool_id! })
    ).body as Array<{ pool_name: string }>;
    expect(sui.map((p) => p.pool_name).sort()).toEqual(['SUI_USDC']);
  });

  it("positions carry their pool's liquidation ratio; the liquidation price and thresholds follow it", async () => {
    const t = await startTestSim();
    closers.push(() => t.close());
    const positions = (await portfolioOn(t)).filter((p) => p.debts.length > 0);
    const specs = new Map(t.sim.world.markets.map((x) => [x.pool.pool_name, x.spec]));
    const pools = new Set(positions.map((p) => p.pool_name));
    expect(pools.has('WAL_USDC') || pools.has('XBTC_USDC')).toBe(true);
    for (const p of positions) {
      const expected = riskOf(specs.get(p.pool_name!)!);
      expect(p.risk_params.source).toBe('service');
      expect(p.liquidation_ratio).toBe(expected.liquidation);
      expect(p.risk_params.target_liquidation).toBe(expected.targetLiquidation);
      // The ratios a borrow and a withdrawal are checked against (the danger band): WAL_USDC's 1.35 and 2.2.
      expect(p.risk_params.min_borrow).toBe(expected.minBorrow);
      expect(p.risk_params.min_withdraw).toBe(expected.minWithdraw);
      // The service's own ratio is above its pool's liquidation ratio for every open loan.
      if (p.risk_ratio !== null) expect(p.risk_ratio).toBeGreaterThanOrEqual(expected.liquidation);
    }
    expect(thresholdsOnPool({ warning: 1.5, critical: 1.25 }, 1.2)).toEqual({ warning: 1.575, critical: 1.325 });
  });

  it('a service without the endpoints: the documented defaults, said as such', async () => {
    const t = await startTestSim({ riskParams: false });
    closers.push(() => t.close());
    expect((await t.get('/dex-margin/registered-dex-pools')).status).toBe(404);
    const positions = (await portfolioOn(t)).filter((p) => p.debts.length > 0);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) {
      expect(p.risk_params.source).toBe('default');
      expect(p.liquidation_ratio).toBe(1.125);
      expect(p.risk_params).toMatchObject({ min_borrow: 1.25, min_withdraw: 2 });
    }
  });
});

describe('risk parameters as the real service may send them', () => {
  it('reads 9-decimal fixed point and plain ratios alike, under the real naming', () => {
    expect(NAMING_PROFILES.deepbook.path('/dex-margin/registered-dex-pools')).toBe(
      '/deepbook-margin/registered-deepbook-pools',
    );
    expect(NAMING_PROFILES.deepbook.path('/dex-margin/pools')).toBe('/deepbook-margin/pools');
    const raw = [
      {
        pool_id: '0xa',
        min_withdraw_risk_ratio: 2_000_000_000,
        min_borrow_risk_ratio: 1_250_000_000,
        liquidation_risk_ratio: 1_150_000_000,
        target_liquidation_risk_ratio: 1_250_000_000,
        user_liquidation_reward: 10_000_000,
        pool_liquidation_reward: 40_000_000,
        enabled: true,
      },
      {
        pool_id: '0xb',
        min_withdraw_risk_ratio: '2',
        min_borrow_risk_ratio: 1.3,
        liquidation_risk_ratio: 1.2,
        target_liquidation_risk_ratio: 1.3,
      },
      {
        pool_id: '0xc',
        min_withdraw_risk_ratio: 2,
        min_borrow_risk_ratio: 1.25,
        liquidation_risk_ratio: 0,
        target_liquidation_risk_ratio: 1.25,
      },
    ];
    const book = riskParamsOf(v.parse(RegisteredDexPoolListSchema, raw));
    expect(book.get('0xa')).toMatchObject({
      liquidation: 1.15,
      min_withdraw: 2,
      user_reward: 0.01,
      pool_reward: 0.04,
      source: 'service',
    });
    expect(book.get('0xb')).toMatchObject({ liquidation: 1.2, min_withdraw: 2, user_reward: 0.01, enabled: true });
    // A ratio that cannot be a liquidation threshold: that pool keeps the defaults.
    expect(book.has('0xc')).toBe(false);
  });
});
