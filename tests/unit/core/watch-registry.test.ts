import { describe, expect, it } from 'vitest';
import type { PortfolioSummary, PositionSummary } from '../../../src/shared/contract';
import { WatchRegistry } from '../../../src/main/core/watch-registry';

const position = (id: string, ratio: number, debt: boolean, valuedAt: number): PositionSummary =>
  ({
    manager_id: id,
    owner: '0xo',
    risk_ratio: ratio,
    debt_usd: debt ? 100 : 0,
    collateral_usd: 100 * ratio,
    distance_pct: -10,
    debts: debt ? [{ margin_pool_id: 'p', symbol: 'USDC', amount: 100, usd: 100 }] : [],
    level: ratio < 1.2 ? 'warning' : 'ok',
    valued_at: valuedAt,
  }) as unknown as PositionSummary;

const snapshot = (at: number, positions: PositionSummary[]): PortfolioSummary => ({
  wallets: [
    {
      owner: '0xo',
      label: null,
      positions,
      supplies: [],
      totals: { collateral_usd: 0, debt_usd: 0, equity_usd: 0, supplied_usd: 0, unpriced: 0 },
    },
  ],
  prices: [],
  computed_at: at,
});

describe('the watch registry keeps the tray on one snapshot', () => {
  it('holds each watched loan of the latest snapshot only, with its level and the snapshot time', () => {
    const w = new WatchRegistry(
      { watchList: () => [], watchedSince: () => undefined, addWatch: () => {}, removeWatch: () => {} },
      { managersOfOwner: () => [] },
    );
    w.noteManagers([
      { id: 'a', owner: '0xo' },
      { id: 'b', owner: '0xo' },
    ]);
    w.noteSnapshot(snapshot(1_000, [position('a', 1.1, true, 1_000), position('b', 1.5, true, 1_000)]));
    expect([...w.latest.values()].map((r) => [r.manager_id, r.risk_ratio, r.level, r.ts_ms])).toEqual([
      ['a', 1.1, 'warning', 1_000],
      ['b', 1.5, 'ok', 1_000],
    ]);
    // 'a' repaid its debt: the next snapshot lists it without debt, and the tray forgets its old ratio.
    w.noteSnapshot(snapshot(2_000, [position('a', 3, false, 2_000), position('b', 1.4, true, 2_000)]));
    expect([...w.latest.keys()]).toEqual(['b']);
    expect(w.latest.get('b')!.risk_ratio).toBe(1.4);
    expect(w.valuedAt).toBe(2_000);
  });
});
