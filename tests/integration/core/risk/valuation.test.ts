import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../src/main/core/client/service-client';
import { AssetBookCache } from '../../../../src/main/core/risk/asset-book';
import { OracleBook } from '../../../../src/main/core/risk/oracle-book';
import { readPortfolio, type ValuationDeps } from '../../../../src/main/core/risk/portfolio';
import { PriceBook } from '../../../../src/main/core/risk/prices';
import { thresholdsFrom } from '../../../../src/main/core/risk/thresholds';
import { DEFAULT_SETTINGS } from '../../../../src/main/core/settings';
import type { PositionSummary } from '../../../../src/shared/contract';
import { accrue, valueAt } from '../../../../src/shared/risk-model';
import { marginAmount } from '../../../../src/shared/units';
import { startTestSim, TEST_KEY, type TestSim } from '../../../support/sim';

const HOUR = 3_600_000;

/** One valuation against the Demo network: the protocol's (oracle) prices, learnt from the service's ratios. */
describe("one valuation, the protocol's", () => {
  let t: TestSim;
  let client: ServiceClient;
  let deps: ValuationDeps;
  let assets: AssetBookCache;
  let owners: string[];
  beforeAll(async () => {
    t = await startTestSim({ seed: 20_261_125, historyDays: 1 });
    client = new ServiceClient({ baseUrl: t.sim.url, apiKey: TEST_KEY, concurrency: 8, requestsPerSecond: 1_000 });
    assets = new AssetBookCache(
      () => client,
      () => true,
    );
    const prices = new PriceBook(
      () => client,
      () => [...(assets.peek()?.poolsById.values() ?? [])],
    );
    deps = {
      prices,
      oracle: new OracleBook(),
      thresholds: thresholdsFrom(DEFAULT_SETTINGS, {}),
      history: () => undefined,
    };
    owners = t.sim.world
      .describe()
      .owners.filter((o) => o.loans > 0)
      .slice(0, 4)
      .map((o) => o.owner);
  });
  afterAll(() => t.close());

  const read = async (): Promise<PositionSummary[]> => {
    const r = await readPortfolio(
      client,
      assets.load(),
      deps,
      owners.map((owner) => ({ owner, label: null, group: 'mine' as const, added_at: 0 })),
      undefined,
    );
    return r.portfolio.wallets.flatMap((w) => w.positions).filter((p) => p.debts.length > 0);
  };

  it("every figure of a position agrees: assets / debt = ratio, the service's ratio, the liquidation price", async () => {
    const positions = await read();
    expect(positions.length).toBeGreaterThanOrEqual(5);
    for (const p of positions) {
      const at = `${p.pool_name} ${p.manager_id}`;
      expect(p.collateral_usd! / p.debt_usd!, at).toBeCloseTo(p.risk_ratio!, 5);
      // At the read, the valuation's ratio is the service's (its rounding, and pools priced together).
      expect(Math.abs(p.risk_ratio! / p.service_ratio! - 1), at).toBeLessThan(1e-3);
      expect(p.price!.source, at).toBe('oracle');
      // The distance is the move that brings the ratio to the pool's liquidation ratio, the price
      // rounded toward the price now at the digits shown (valuation.md "Advice that is safe to follow").
      const h = { base: p.base_amount, quote: p.quote_amount, debtBase: p.debt_base, debtQuote: p.debt_quote };
      const atLiq = valueAt(h, { base: p.liquidation_price!, quote: p.quote_price!.usd }).ratio!;
      expect(atLiq, at).toBeGreaterThanOrEqual(p.liquidation_ratio * (1 - 1e-9));
      expect(atLiq / p.liquidation_ratio - 1, at).toBeLessThan(1e-3);
      // Toward zero at one decimal: never farther than the move to the shown price.
      const move = (p.liquidation_price! / p.price!.usd - 1) * 100;
      expect(Math.abs(p.distance_pct!), at).toBeLessThanOrEqual(Math.abs(move) + 1e-9);
      expect(Math.abs(move - p.distance_pct!), at).toBeLessThan(0.1);
      expect(p.side, at).toBe(p.debt_quote > 0 ? 'long' : 'short');
      expect(p.interest.apr_source, at).toBe('curve');
      expect(p.interest.apr!, at).toBeGreaterThan(0.01);
    }
  });

  it("projects each debt on its pool's curve: 72 hours on, within 0.5 % of what the Demo network serves", async () => {
    const positions = await read();
    const predicted = new Map(
      positions.map((p) => [p.manager_id, accrue(p.debts[0]!.amount, p.interest.apr!, 72 * HOUR)]),
    );
    t.sim.world.accrueFor(72 * HOUR);
    const book = await assets.load();
    let checked = 0;
    for (const owner of owners) {
      for (const m of await t.allPages(`/dex-margin/margin-managers/${owner}`)) {
        const want = predicted.get(m.margin_manager_id);
        const loan = m.active_loans?.[0];
        if (want === undefined || !loan) continue;
        const decimals = book.decimalsOf.get(book.marginPoolAsset.get(loan.margin_pool_id)!)!;
        const served = marginAmount(loan.remaining_amount, decimals);
        expect(Math.abs(want / served - 1), m.margin_manager_id).toBeLessThan(0.005);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
