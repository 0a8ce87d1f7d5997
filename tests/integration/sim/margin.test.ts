import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActiveLoanPageSchema,
  ActiveSupplyPageSchema,
  LiquidationPageSchema,
  MarginManagerPageSchema,
  SupplierCapPageSchema,
  SupplierCapSchema,
  SupplyReferralPageSchema,
  SupplyReferralSchema,
} from '../../../src/shared/api';
import { startTestSim, type TestSim } from '../../support/sim';

let t: TestSim;

beforeAll(async () => {
  t = await startTestSim();
});
afterAll(() => t.close());

const allPages = (path: string, params: Record<string, string | number | string[]> = {}): Promise<any[]> =>
  t.allPages(path, params);

describe('supply referrals (9, 10) and supplier caps (11, 12)', () => {
  it('lists referrals, filters by owner and margin pool, and fetches one by id', async () => {
    const first = await t.get('/dex-margin/supply-referrals');
    v.parse(SupplyReferralPageSchema, first.body);
    const all = await allPages('/dex-margin/supply-referrals');
    expect(all.length).toBeGreaterThan(5);
    const one = all[0];
    const byOwner = await allPages('/dex-margin/supply-referrals', { owner: one.owner });
    expect(byOwner.length).toBeGreaterThan(0);
    expect(byOwner.every((r) => r.owner === one.owner)).toBe(true);
    const byPool = await allPages('/dex-margin/supply-referrals', { marginPoolId: one.margin_pool_id });
    expect(byPool.every((r) => r.margin_pool_id === one.margin_pool_id)).toBe(true);
    const single = await t.get(`/dex-margin/supply-referrals/${one.supply_referral_id}`);
    expect(single.body).toEqual(one);
    v.parse(SupplyReferralSchema, single.body);
    expect((await t.get(`/dex-margin/supply-referrals/0x${'1'.repeat(64)}`)).status).toBe(404);
  });

  it('lists supplier caps, filters by owner, and fetches one by id', async () => {
    v.parse(SupplierCapPageSchema, (await t.get('/dex-margin/supplier-caps')).body);
    const all = await allPages('/dex-margin/supplier-caps');
    expect(all.length).toBeGreaterThan(10);
    const byOwner = await allPages('/dex-margin/supplier-caps', { owner: all[0].owner });
    expect(byOwner.every((c) => c.owner === all[0].owner)).toBe(true);
    const single = await t.get(`/dex-margin/supplier-caps/${all[0].supplier_cap_id}`);
    v.parse(SupplierCapSchema, single.body);
    expect(single.body).toEqual(all[0]);
    const missing = await t.get(`/dex-margin/supplier-caps/0x${'2'.repeat(64)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('supplier cap');
  });
});

describe('margin managers (13, 14)', () => {
  it('lists managers with loans and deposits, filtered by owner, balance manager and pool', async () => {
    const page = await t.get('/dex-margin/margin-managers');
    v.parse(MarginManagerPageSchema, page.body);
    const all = await allPages('/dex-margin/margin-managers');
    expect(all.length).toBeGreaterThan(50);
    const withLoan = all.find((m) => m.active_loans.length > 0);
    expect(withLoan.deposit.margin_manager_id).toBe(withLoan.margin_manager_id);
    expect(withLoan.active_loans[0].risk_ratio).toBeGreaterThan(1);
    const mine = await allPages(`/dex-margin/margin-managers/${withLoan.owner}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((m) => m.owner === withLoan.owner)).toBe(true);
    const byBm = await allPages('/dex-margin/margin-managers', { balanceManagerId: withLoan.balance_manager_id });
    expect(byBm.map((m) => m.margin_manager_id)).toEqual([withLoan.margin_manager_id]);
    const byPool = await allPages(`/dex-margin/margin-managers/${withLoan.owner}`, { dexPoolId: withLoan.dex_pool_id });
    expect(byPool.every((m) => m.dex_pool_id === withLoan.dex_pool_id && m.owner === withLoan.owner)).toBe(true);
  });
});

describe('liquidations (15, 16)', () => {
  it('holds history with liquidations, filterable by owner, manager, pool, balance manager and checkpoints', async () => {
    const page = await t.get('/dex-margin/liquidations');
    v.parse(LiquidationPageSchema, page.body);
    const all = await allPages('/dex-margin/liquidations');
    expect(all.length).toBeGreaterThan(20);
    const oldest = Math.min(...all.map((l) => l.onchain_timestamp));
    expect(Date.now() - oldest).toBeGreaterThan(2 * 86_400_000);
    // Each below its own pool's liquidation ratio (1.125 by default; WAL_USDC 1.2, XBTC_USDC 1.1).
    const registered = (await t.get('/dex-margin/registered-dex-pools')).body as Array<{
      pool_id: string;
      liquidation_risk_ratio: number;
    }>;
    const liquidationOf = new Map(registered.map((p) => [p.pool_id, p.liquidation_risk_ratio]));
    for (const l of all.slice(0, 20)) {
      expect(l.risk_ratio).toBeLessThan(liquidationOf.get(l.margin_manager.dex_pool_id)!);
      expect(l.risk_ratio).toBeGreaterThan(0);
      expect(l.margin_manager.margin_manager_id).toBe(l.margin_manager_id);
    }
    const l = all[0];
    const owner = l.margin_manager.owner;
    const byOwner = await allPages(`/dex-margin/liquidations/${owner}`);
    expect(byOwner.length).toBeGreaterThan(0);
    expect(byOwner.every((x) => x.margin_manager.owner === owner)).toBe(true);
    const byManager = await allPages('/dex-margin/liquidations', { marginManagerId: l.margin_manager_id });
    expect(byManager.every((x) => x.margin_manager_id === l.margin_manager_id)).toBe(true);
    const byPool = await allPages('/dex-margin/liquidations', { marginPoolId: l.margin_pool_id });
    expect(byPool.every((x) => x.margin_pool_id === l.margin_pool_id)).toBe(true);
    const byBm = await allPages('/dex-margin/liquidations', { balanceManagerId: l.margin_manager.balance_manager_id });
    expect(byBm.every((x) => x.margin_manager.balance_manager_id === l.margin_manager.balance_manager_id)).toBe(true);
    const mid = all[Math.floor(all.length / 2)].checkpoint;
    const range = await allPages('/dex-margin/liquidations', { fromCheckpoint: mid, toCheckpoint: l.checkpoint });
    expect(range.length).toBeGreaterThan(0);
    expect(range.every((x) => x.checkpoint >= mid && x.checkpoint <= l.checkpoint)).toBe(true);
    const bad = await t.get('/dex-margin/liquidations', { fromCheckpoint: 10, toCheckpoint: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('fromCheckpoint');
    expect((await t.get('/dex-margin/liquidations', { fromCheckpoint: 'abc' })).status).toBe(400);
  });
});

describe('active supplies (17, 18) and loans (19, 20)', () => {
  it('lists supplies, one of them beyond 2^53, filtered by owner, pool, cap and asset type', async () => {
    v.parse(ActiveSupplyPageSchema, (await t.get('/dex-margin/active-supplies')).body);
    const all = await allPages('/dex-margin/active-supplies');
    expect(all.length).toBeGreaterThan(20);
    expect(all.some((s) => s.supply_amount > 2 ** 53)).toBe(true);
    const s = all[0];
    const byOwner = await allPages(`/dex-margin/active-supplies/${s.supplier_cap.owner}`);
    expect(byOwner.every((x) => x.supplier_cap.owner === s.supplier_cap.owner)).toBe(true);
    for (const [param, field, value] of [
      ['marginPoolId', 'margin_pool_id', s.margin_pool_id],
      ['supplierCapId', 'supplier_cap_id', s.supplier_cap_id],
      ['assetType', 'asset_type', s.asset_type],
    ]) {
      const hits = await allPages('/dex-margin/active-supplies', { [param]: value });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((x) => x[field] === value)).toBe(true);
    }
    // Interest accrues: what is there now is at least what was supplied.
    expect(all.every((x) => x.remaining_amount >= x.supply_amount - 1)).toBe(true);
  });

  it('lists loans with live risk ratios, filtered by owner, manager, pool and balance manager', async () => {
    v.parse(ActiveLoanPageSchema, (await t.get('/dex-margin/active-loans')).body);
    const all = await allPages('/dex-margin/active-loans');
    expect(all.length).toBeGreaterThan(20);
    for (const l of all) {
      expect(l.risk_ratio).toBeGreaterThanOrEqual(1.1);
      expect(l.margin_manager.margin_manager_id).toBe(l.margin_manager_id);
    }
    const l = all[0];
    const byOwner = await allPages(`/dex-margin/active-loans/${l.margin_manager.owner}`);
    expect(byOwner.every((x) => x.margin_manager.owner === l.margin_manager.owner)).toBe(true);
    const byManager = await allPages('/dex-margin/active-loans', { marginManagerId: l.margin_manager_id });
    expect(byManager.map((x) => x.margin_manager_id)).toEqual([l.margin_manager_id]);
    const byPool = await allPages('/dex-margin/active-loans', { marginPoolId: l.margin_pool_id });
    expect(byPool.every((x) => x.margin_pool_id === l.margin_pool_id)).toBe(true);
    const byBm = await allPages('/dex-margin/active-loans', { balanceManagerId: l.margin_manager.balance_manager_id });
    expect(byBm.map((x) => x.margin_manager_id)).toEqual([l.margin_manager_id]);
  });

  it('every margin list demands a key and bounds perPage', async () => {
    for (const path of [
      '/dex-margin/supply-referrals',
      '/dex-margin/supplier-caps',
      '/dex-margin/margin-managers',
      '/dex-margin/liquidations',
      '/dex-margin/active-supplies',
      '/dex-margin/active-loans',
    ]) {
      expect((await t.get(path, {}, null)).status).toBe(401);
      expect((await t.get(path, { perPage: 51 })).status).toBe(400);
    }
  });
});
