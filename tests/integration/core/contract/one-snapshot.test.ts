import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorHarness } from '../../../support/monitor-harness';
import type { PortfolioSummary, PositionSummary } from '../../../../src/shared/contract';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { busiestOwners, startTestSim, type TestSim } from '../../../support/sim';

/**
 * One snapshot for every view (docs/valuation.md): on a busy Demo network (speed 300, the eight
 * owners with the most managers watched), a watched manager's page answers the very figures the
 * Portfolio lists, valued at the same time. Before, the page priced afresh: 2 of 50 pairs agreed.
 */
const SEED = 20_251_122;
const OWNERS = 8;
const FIGURES = ['risk_ratio', 'distance_pct', 'collateral_usd', 'debt_usd', 'liquidation_price', 'level'] as const;

let t: TestSim;
let m: MonitorHarness;
let watched: string[];
const dir = tempDir();
/** Every snapshot the risk loop pushed, by its time. */
const pushed = new Map<number, PortfolioSummary>();

const positionsOf = (p: PortfolioSummary): PositionSummary[] => p.wallets.flatMap((w) => w.positions);
const figures = (p: PositionSummary): Record<string, unknown> =>
  Object.fromEntries(FIGURES.map((k) => [k, p[k]])) as Record<string, unknown>;

beforeAll(async () => {
  t = await startTestSim({ speed: 300, seed: SEED });
  watched = busiestOwners(t.sim.world, OWNERS);
  m = monitorOn(t, dir.dir, { watch: watched });
  m.subscribe('risk', (push) => {
    if (push.portfolio) pushed.set(push.portfolio.computed_at, push.portfolio);
  });
  m.start();
});
afterAll(async () => {
  await m?.close();
  await t?.close();
  dir.remove();
});

describe('one valuation snapshot for the Portfolio and the manager page', () => {
  it('answers a first manager page from the risk loop’s first reading, as the Portfolio lists it', async () => {
    // Asked before any snapshot exists: the handler waits for the risk loop's reading, not a read of its own.
    const open = t.sim.world.margin.managers.find((x) => watched.includes(x.owner) && !x.closed && x.debt)!;
    const page = await m.invoke('manager', { managerId: open.id });
    expect(page.data.watched).toBe(true);
    const snap = pushed.get(page.fetchedAt);
    expect(snap, 'the answer is a snapshot the risk loop pushed').toBeDefined();
    const listed = positionsOf(snap!).find((p) => p.manager_id === open.id);
    expect(page.data.position).toEqual(listed);
    expect(page.data.position!.valued_at).toBe(page.fetchedAt);
    expect(page.data.created_at).toMatch(/^\d{4}-/);
  }, 40_000);

  it('answers 50 pairs of Portfolio and manager page with the same figures at the same time', async () => {
    let agreed = 0;
    const times = new Set<number>();
    // Five rounds of ten pairs, each round on a snapshot newer than the round before.
    for (let round = 0; round < 5; round++) {
      const seen = m.risk.refresh.portfolio()?.at ?? 0;
      await until(() => (m.risk.refresh.portfolio()?.at ?? 0) > seen, 12_000, 'a new snapshot');
      for (let i = 0; i < 10; i++) {
        const list = (await m.invoke('portfolio', {})).data;
        // The five positions nearest liquidation, in turn.
        const near = positionsOf(list)
          .filter((p) => p.debts.length > 0 && p.distance_pct !== null)
          .sort((a, b) => Math.abs(a.distance_pct!) - Math.abs(b.distance_pct!))
          .slice(0, 5);
        const id = near[i % near.length]!.manager_id;
        const [portfolio, page] = await Promise.all([
          m.invoke('portfolio', {}),
          m.invoke('manager', { managerId: id }),
        ]);
        const row = positionsOf(portfolio.data).find((p) => p.manager_id === id)!;
        const shown = page.data.position!;
        expect(page.fetchedAt).toBe(portfolio.fetchedAt);
        expect(shown.valued_at).toBe(portfolio.data.computed_at);
        expect(figures(shown)).toEqual(figures(row));
        expect(shown).toEqual(row);
        agreed++;
        times.add(portfolio.fetchedAt);
      }
    }
    expect(agreed).toBe(50);
    expect(times.size).toBeGreaterThanOrEqual(5);
  }, 80_000);

  it('values an unwatched manager on demand at its own time, and a watched one without a row from the snapshot', async () => {
    const other = t.sim.world.margin.managers.find((x) => !watched.includes(x.owner) && !x.closed && x.debt)!;
    const asked = Date.now();
    const page = await m.invoke('manager', { managerId: other.id });
    expect(page.data.watched).toBe(false);
    const p = page.data.position!;
    expect(p.collateral_usd! / p.debt_usd!).toBeCloseTo(p.risk_ratio!, 5);
    // Valued during the call, and by no snapshot (a snapshot may share its millisecond on a busy
    // loop, but never lists a manager whose owner is not watched).
    expect(p.valued_at).toBeGreaterThanOrEqual(asked);
    expect(p.valued_at).toBeLessThanOrEqual(Date.now());
    const same = pushed.get(p.valued_at);
    expect(same === undefined || !positionsOf(same).some((x) => x.manager_id === other.id)).toBe(true);
    // A watched manager the Portfolio does not list (no debt, no assets) is still the snapshot's.
    await until(() => m.risk.refresh.portfolio() !== undefined, 20_000, 'a first snapshot');
    const kept = m.risk.refresh.portfolio()!;
    const unlisted = [...kept.managers.values()].find(
      (v) => !positionsOf(kept.portfolio).some((x) => x.manager_id === v.position.manager_id),
    );
    if (unlisted) {
      const idle = await m.invoke('manager', { managerId: unlisted.position.manager_id });
      expect(idle.data.position!.valued_at).toBe(idle.fetchedAt);
      expect(pushed.has(idle.fetchedAt) || kept.at === idle.fetchedAt).toBe(true);
    }
  }, 30_000);
});
