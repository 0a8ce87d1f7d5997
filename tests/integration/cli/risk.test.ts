import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/core/client/service-client';
import { AssetBookCache } from '../../../src/main/core/risk/asset-book';
import { OracleBook } from '../../../src/main/core/risk/oracle-book';
import { readPortfolio } from '../../../src/main/core/risk/portfolio';
import { PriceBook } from '../../../src/main/core/risk/prices';
import { PORTFOLIO_CACHE_KEY } from '../../../src/main/core/risk/risk-refresh';
import { thresholdsFrom } from '../../../src/main/core/risk/thresholds';
import { DEFAULT_SETTINGS } from '../../../src/main/core/settings';
import { Store } from '../../../src/main/core/store/store';
import { tempDir } from '../../support/monitor';
import { startTestSim, TEST_KEY, type TestSim } from '../../support/sim';

const BIN = fileURLToPath(new URL('../../../bin/tidewatch.js', import.meta.url));

async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, out, err };
}

/** `tidewatch risk --shock` against the Demo network, checked against a computation of its own from the service's answers. */
describe('tidewatch risk --shock (command line)', () => {
  let t: TestSim;
  const dir = tempDir();
  beforeAll(async () => {
    t = await startTestSim({ seed: 20_261_125, historyDays: 1, speed: 0.01 });
    writeFileSync(join(dir.dir, 'key'), TEST_KEY);
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });
  /** A wallet with 8 loans or more. */
  const watched = (): string => t.sim.world.describe().owners.find((o) => o.loans >= 8)!.owner;
  /** `tidewatch risk` watching it, with `args` beside. */
  const riskOf = (args: string[]) => {
    const owner = watched();
    return cli([
      'risk',
      '--base-url',
      t.sim.url,
      '--api-key-file',
      join(dir.dir, 'key'),
      '--watch',
      owner,
      ...args,
      '--data-dir',
      dir.dir,
    ]);
  };

  it("shocks every watched position as the service's own ratios say it would move", async () => {
    const owner = watched();
    const r = await riskOf(['--shock', 'SUI=-15%', '--shock', 'ALL=+2%', '--json']);
    expect(r.code, r.err).toBe(0);
    const answer = JSON.parse(r.out) as {
      totals: { positions: number; liquidated: number };
      positions: Array<{ manager_id: string; ratio: number; shocked: { ratio: number; liquidated: boolean } }>;
    };
    // Our own computation: the service's ratio R = (b P + q) / (db P + dq) at the oracle's price P
    // (quote in USDC); solve P from R, move it by the shock, recompute.
    const pools = new Map((await t.get('/dex/get_pools')).body.map((p: { pool_id: string }) => [p.pool_id, p]));
    const assetOf = new Map(
      (await t.get('/dex-margin/pools')).body.map((m: { margin_pool_id: string; asset_type: string }) => [
        m.margin_pool_id,
        m.asset_type,
      ]),
    );
    const liquidationOf = new Map(
      (await t.get('/dex-margin/registered-dex-pools')).body.map(
        (p: { pool_id: string; liquidation_risk_ratio: number }) => [p.pool_id, p.liquidation_risk_ratio],
      ),
    );
    let checked = 0;
    for (const m of await t.allPages(`/dex-margin/margin-managers/${owner}`)) {
      const loan = m.active_loans?.[0];
      const pool = pools.get(m.dex_pool_id) as {
        base_asset_id: string;
        base_asset_symbol: string;
        quote_asset_symbol: string;
        base_asset_decimals: number;
        quote_asset_decimals: number;
      };
      if (!loan || pool.quote_asset_symbol !== 'USDC') continue;
      const b = m.deposit.base_asset_amount / 10 ** pool.base_asset_decimals;
      const q = m.deposit.quote_asset_amount / 10 ** pool.quote_asset_decimals;
      const inBase = assetOf.get(loan.margin_pool_id) === pool.base_asset_id;
      const debt = loan.remaining_amount / 10 ** (inBase ? pool.base_asset_decimals : pool.quote_asset_decimals);
      const R = loan.risk_ratio as number;
      const P = inBase ? q / (R * debt - b) : (R * debt - q) / b;
      const move = (1 + (pool.base_asset_symbol === 'SUI' ? -0.15 : 0)) * 1.02;
      const shocked = inBase ? (b * P * move + q) / (debt * P * move) : (b * P * move + q) / debt;
      const got = answer.positions.find((p) => p.manager_id === m.margin_manager_id)!;
      expect(Math.abs(got.ratio / R - 1), m.margin_manager_id).toBeLessThan(2e-3);
      expect(Math.abs(got.shocked.ratio / shocked - 1), m.margin_manager_id).toBeLessThan(2e-3);
      const L = liquidationOf.get(m.dex_pool_id) as number;
      if (Math.abs(shocked / L - 1) > 2e-3) expect(got.shocked.liquidated, m.margin_manager_id).toBe(shocked < L);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(answer.totals.positions).toBe(answer.positions.length);
  });

  it('refuses an asset it does not know, or a stablecoin, naming the ones it knows (exit 2, nothing shocked)', async () => {
    const run = (shock: string) => riskOf(['--shock', shock]);
    const [typo, stable] = [await run('FOO=-10%'), await run('usdc=-10%')];
    // The last line: a warning about the key file's mode may come first.
    const said = (err: string) => err.trim().split('\n').at(-1);
    expect(typo.code, typo.err).toBe(2);
    expect(typo.out).toBe('');
    expect(said(typo.err)).toBe(
      'tidewatch: Unknown asset FOO in --shock. Known assets: DEEP, NS, SUI, WAL, XBTC (or ALL for every one of them); ' +
        'stablecoins (USDC) never move. Check the spelling and run again.',
    );
    expect(stable.code, stable.err).toBe(2);
    expect(stable.out).toBe('');
    expect(said(stable.err)).toBe(
      'tidewatch: USDC is a stablecoin: Tidewatch counts it at $1, so a shock never moves it. ' +
        'Shock DEEP, NS, SUI, WAL, XBTC (or ALL for every one of them) instead.',
    );
  }, 60_000);

  it('without --watch shows the Portfolio snapshot the store keeps, its very figures; with none kept it says what to do', async () => {
    const r = await cli(['risk', '--shock', 'SUI=-10%', '--data-dir', dir.dir]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no Portfolio is kept .* Watch a wallet/);
    // The app's snapshot as the risk loop keeps it: the command shows its figures, not figures of its own.
    const owner = watched();
    const client = new ServiceClient({ baseUrl: t.sim.url, apiKey: TEST_KEY });
    const assets = new AssetBookCache(
      () => client,
      () => true,
    );
    const prices = new PriceBook(
      () => client,
      () => [...(assets.peek()?.poolsById.values() ?? [])],
    );
    const deps = {
      prices,
      oracle: new OracleBook(),
      thresholds: thresholdsFrom(DEFAULT_SETTINGS, {}),
      history: () => undefined,
    };
    const kept = (
      await readPortfolio(
        client,
        assets.load(),
        deps,
        [{ owner, label: null, group: 'mine' as const, added_at: 0 }],
        undefined,
      )
    ).portfolio;
    const store = Store.open(dir.dir);
    store.cache.save(PORTFOLIO_CACHE_KEY, kept, kept.computed_at);
    store.close();
    const shown = await cli(['risk', '--shock', 'SUI=-10%', '--data-dir', dir.dir, '--json']);
    expect(shown.code, shown.err).toBe(0);
    const answer = JSON.parse(shown.out) as { source: string; computed_at: number; positions: object[] };
    expect(answer).toMatchObject({ source: 'portfolio-snapshot', computed_at: kept.computed_at });
    const loans = kept.wallets.flatMap((w) => w.positions).filter((p) => p.debts.length > 0);
    expect(answer.positions).toEqual(
      loans.map((p) =>
        expect.objectContaining({
          manager_id: p.manager_id,
          ratio: p.risk_ratio,
          assets_usd: p.collateral_usd,
          debt_usd: p.debt_usd,
          liquidation_price: p.liquidation_price,
          distance_pct: p.distance_pct,
          valued_at: kept.computed_at,
        }),
      ),
    );
    const bad = await cli(['risk', '--shock', 'SUI=lots']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--shock takes ASSET=MOVE like SUI=-15%');
  });
});
