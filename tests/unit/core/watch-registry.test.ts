import { describe, expect, it } from 'vitest';
import type { PortfolioSummary, PositionSummary, WatchEntry } from '../../../src/shared/contract';
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
      {
        watchList: () => [],
        watchedSince: () => undefined,
        watchGroup: () => undefined,
        addWatch: () => {},
        updateWatch: () => false,
        removeWatch: () => {},
      },
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

describe('the watch registry learns the managers the store knows', () => {
  const stored: Record<string, string[]> = { '0xa': ['m1', 'm2'], '0xb': ['m3'], '0xc': ['m4'] };
  const registry = (watched: string[]): WatchRegistry => {
    const list: WatchEntry[] = watched.map((owner) => ({ owner, label: null, group: 'mine' as const, added_at: 0 }));
    return new WatchRegistry(
      {
        watchList: () => list,
        watchedSince: (o) => (list.some((w) => w.owner === o) ? 0 : undefined),
        watchGroup: (o) => list.find((w) => w.owner === o)?.group,
        addWatch: (owner, label) => void list.push({ owner, label, group: 'mine', added_at: 0 }),
        updateWatch: () => false,
        removeWatch: () => {},
      },
      { managersOfOwner: (owner) => stored[owner] ?? [] },
    );
  };

  it('learns every watched owner by default, and an added owner at once', () => {
    const w = registry(['0xa', '0xb']);
    w.learnStored();
    expect([...w.managers]).toEqual([
      ['m1', '0xa'],
      ['m2', '0xa'],
      ['m3', '0xb'],
    ]);
    w.add('0xc', null);
    expect(w.managers.get('m4')).toBe('0xc');
  });

  it('keeps the owner it already knows for a manager (the stream or the risk loop told it first)', () => {
    const w = registry(['0xa']);
    w.noteManagers([{ id: 'm1', owner: '0xnew' }]);
    w.learnStored(['0xa']);
    expect(w.managers.get('m1')).toBe('0xnew');
    expect(w.managers.get('m2')).toBe('0xa');
  });
});
