import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorHarness } from '../../../support/monitor-harness';
import type { MarginEventRow, StoredMarginEvent } from '../../../../src/shared/contract';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * A first start on the real service reads only new events (`last-id=$`): a deposit or withdrawal
 * names its manager, not its pool, and the managers created before the start are in no stored
 * event. Live events looks their pools up (an active loan or a liquidation of the manager names
 * it) rather than showing "the asset is not known yet".
 */
describe('Live events of managers created before the first start', () => {
  let t: TestSim;
  let m: MonitorHarness;
  const dir = tempDir();
  const lookups: string[] = [];
  const pushes: StoredMarginEvent[][] = [];

  beforeAll(async () => {
    t = await startTestSim({ speed: 600 });
    const counting: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/marginManagerId=/.test(url)) lookups.push(url);
      return fetch(input, init);
    };
    m = monitorOn(t, dir.dir, { marginFirstStart: '$', fetch: counting }).start();
    m.subscribe('margin', (events) => pushes.push(events));
  });
  afterAll(async () => {
    await m?.close();
    await t?.close();
    dir.remove();
  });

  const flows = <E extends MarginEventRow>(rows: readonly E[]): E[] =>
    rows.filter((e) => e.valid && (e.type.endsWith('_deposit') || e.type.endsWith('_withdraw')));

  it('puts units on deposits and withdrawals of managers the store has never seen', async () => {
    const createdNow = (): Set<string | null> =>
      new Set(
        m.store.margin
          .list({ limit: 5000 })
          .filter((e) => e.type.endsWith('manager_created'))
          .map((e) => e.margin_manager_id),
      );
    // At speed 600 managers created since the start soon bring flows of their own: wait for a flow
    // of one created before it, however slow the machine (it failed once under two busy loops).
    await until(
      () => {
        const stored = flows(m.store.margin.list({ limit: 1000 }));
        const created = createdNow();
        return stored.length >= 5 && stored.some((e) => !created.has(e.margin_manager_id));
      },
      60_000,
      'deposits and withdrawals, one of a manager created before the start',
    );
    const created = createdNow();
    const { data } = await m.invoke('marginEvents', { limit: 1000 });
    const unseen = flows(data).filter((e) => !created.has(e.margin_manager_id));
    expect(unseen.length).toBeGreaterThan(0);
    const placed = unseen.filter((e) => e.amounts !== undefined);
    expect(placed.length).toBeGreaterThan(0);
    // A row left without units is one the service itself cannot place: no loan, never liquidated.
    for (const e of unseen.filter((x) => x.amounts === undefined).slice(0, 5)) {
      const loans = await t.get('/dex-margin/active-loans', { marginManagerId: e.margin_manager_id! });
      const liquidations = await t.get('/dex-margin/liquidations', { marginManagerId: e.margin_manager_id! });
      expect(loans.body.items.length + liquidations.body.items.length).toBe(0);
    }
    // Each placed row's amounts are in its pool's assets, the pool the service names for the manager.
    const pools = new Map<string, { base_asset_symbol: string; quote_asset_symbol: string }>(
      (await t.get('/dex/get_pools')).body.map((p: { pool_id: string }) => [p.pool_id, p]),
    );
    for (const e of placed.slice(0, 5)) {
      const loan = await t.get('/dex-margin/active-loans', { marginManagerId: e.margin_manager_id! });
      const liq = await t.get('/dex-margin/liquidations', { marginManagerId: e.margin_manager_id! });
      const named = (loan.body.items[0] ?? liq.body.items[0]).margin_manager.dex_pool_id as string;
      const pool = pools.get(named)!;
      for (const a of e.amounts!) expect([pool.base_asset_symbol, pool.quote_asset_symbol]).toContain(a.symbol);
    }

    // Looked up once each, two requests at most, within the hourly cap.
    const asked = lookups.map((u) => new URL(u).searchParams.get('marginManagerId'));
    expect(asked.length).toBeLessThanOrEqual(60);
    expect(asked.length).toBeLessThanOrEqual(2 * new Set(asked).size);
    const before = lookups.length;
    await m.invoke('marginEvents', { limit: 200 });
    const again = lookups.slice(before).map((u) => new URL(u).searchParams.get('marginManagerId'));
    expect(again.filter((id) => placed.some((e) => e.margin_manager_id === id))).toEqual([]);
  }, 90_000);

  it('pushes a live event again, with its units, once its manager is placed', async () => {
    await until(
      () => {
        const seen = new Map<string, StoredMarginEvent>();
        for (const batch of pushes)
          for (const e of batch) {
            const first = seen.get(e.id);
            if (first && first.amounts === undefined && e.amounts !== undefined) return true;
            if (!first) seen.set(e.id, e);
          }
        return false;
      },
      60_000,
      'an event pushed again with units',
    );
  }, 70_000);
});
