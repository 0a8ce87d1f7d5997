import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UnitUsd } from '../../../../src/sim/chain/asset-values';
import { LiquidationScan, ratioNow } from '../../../../src/sim/chain/liquidation-scan';
import type { Manager } from '../../../../src/sim/chain/margin-manager';
import type { MarginPool } from '../../../../src/sim/chain/margin-pools';
import { Rng } from '../../../../src/sim/rng';

/**
 * The bounded scan against the plain one it replaced: every step, every open borrower's ratio
 * from its own numbers, liquidated below its pool's ratio, in creation order. Prices walk with
 * jumps of up to 40 %, borrow indexes grow, managers open, borrow, repay, add and take collateral,
 * some with debts of a few units (where rounding matters), all between rebuilds of the layout.
 */
function run(seed: number, steps: number): { expected: string[]; got: string[] } {
  const rng = new Rng(seed);
  const cells: UnitUsd[] = Array.from({ length: 4 }, () => ({ usd: rng.range(1e-9, 1e-5) }));
  const pools = Array.from(
    { length: 3 },
    (_, i) =>
      ({
        id: `p${i}`,
        symbol: `S${i}`,
        supplyShares: 0,
        supplyIndex: 1,
        borrowShares: 0,
        borrowIndex: 1,
      }) as MarginPool,
  );
  const managers: Manager[] = [];
  const scan = new LiquidationScan();
  const open = (): void => {
    const b = rng.int(0, 3);
    const q = (b + 1 + rng.int(0, 2)) % 4;
    const side = rng.chance(0.5) ? 'base' : 'quote';
    const debtCell = side === 'base' ? cells[b]! : cells[q]!;
    const tiny = rng.chance(0.1);
    const collateralUsd = rng.range(100, 10_000);
    const ratio = rng.range(1.13, 2.5);
    const debtUnits = tiny ? rng.int(1, 150) : collateralUsd / ratio / debtCell.usd;
    const m = {
      seq: managers.length,
      id: `m${managers.length}`,
      closed: false,
      base: Math.round((collateralUsd * rng.range(0, 1)) / cells[b]!.usd),
      quote: 0,
      risk: { liquidation: rng.pick([1.1, 1.125, 1.2]) },
      units: { base: cells[b]!, quote: cells[q]! },
      debt: {
        side,
        pool: rng.pick(pools),
        shares: debtUnits,
        original: 0,
        originalShares: 0,
        stamp: { ms: 0, digest: '' },
      },
    } as unknown as Manager;
    m.quote = Math.max(0, Math.round((collateralUsd - m.base * cells[b]!.usd) / cells[q]!.usd));
    managers.push(m);
    scan.changed(m);
  };
  for (let i = 0; i < 40; i++) open();
  const expected: string[] = [];
  const got: string[] = [];
  for (let step = 0; step < steps; step++) {
    for (const c of cells) c.usd *= Math.exp(rng.normal() * 0.004 + (rng.chance(0.01) ? rng.range(-0.4, 0.4) : 0));
    for (const p of pools) p.borrowIndex *= 1 + rng.range(0, 1e-5);
    if (rng.chance(0.05)) open();
    if (rng.chance(0.1)) {
      const m = rng.pick(managers);
      if (!m.closed) {
        if (rng.chance(0.5)) m.quote += rng.int(0, 1e9);
        else if (m.debt) m.debt.shares *= rng.range(0.5, 1.5);
        else m.closed = true;
        scan.changed(m);
      }
    }
    // The plain scan: every borrower from its own numbers (one borrower's liquidation never moves another's ratio).
    const borrowers = managers.filter((m) => !m.closed && m.debt);
    for (const m of borrowers) {
      const r = ratioNow(m);
      if (r !== null && r < m.risk.liquidation) expected.push(`${step}:${m.id}:${r}`);
    }
    scan.scan(
      () => borrowers,
      (m, r) => {
        got.push(`${step}:${m.id}:${r}`);
        // A liquidation: back above the ratio, or closed.
        if (rng.chance(0.5)) m.debt = null;
        else m.base *= 2;
        scan.changed(m);
      },
    );
  }
  return { expected, got };
}

describe('the Demo network: the bounded liquidation scan', () => {
  it('liquidates exactly whom a check of every borrower every step would, with the same ratio, in the same order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const { expected, got } = run(seed, 1_500);
        expect(got).toEqual(expected);
        return true;
      }),
      { numRuns: 12 },
    );
  });

  it('has something to find: the runs above liquidate', () => {
    expect(run(7, 1_500).got.length).toBeGreaterThan(20);
  });
});
