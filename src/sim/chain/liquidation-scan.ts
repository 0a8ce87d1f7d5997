import type { UnitUsd } from './asset-values';
import type { MarginPool } from './margin-pools';
import type { Manager } from './margin-manager';

/** Margin for floating point (see `rebuild` for the rounding of a debt to whole units). */
const EPSILON = 1e-9;
/** Debts of fewer units are checked every step (their rounding alone moves the ratio by 2 % or more). */
const MIN_BOUNDED_DEBT = 100;
/** The layout is rebuilt after this many steps, or once this many borrowers changed since. */
const REBUILD_STEPS = 512;
const REBUILD_CHANGED = 24;

interface Group {
  base: number;
  quote: number;
  debt: number;
  pool: number;
  /** Members, lowest slack first. */
  members: Int32Array;
}

/**
 * The liquidation check that every step of the margin protocol runs over every borrower (~250 at
 * each of 28,080 steps of the Demo history, the largest part of building it), exact but without
 * looking at borrowers that cannot have crossed.
 *
 * At a rebuild (every few hundred steps) each borrower's ratio r0 is computed at that
 * moment's prices and borrow index. Borrowers holding the same assets with debt in the same pool
 * form a group; whatever the borrower's amounts, its ratio since then is at least
 * r0 x min(base price ratio, quote price ratio) / (debt price ratio x borrow index ratio), the
 * group's factor G. So a step checks, per group, only the borrowers with r0 / liquidation < 1/G
 * (a prefix of the group sorted by that slack) and computes their ratio exactly as `riskRatio`
 * does, same operations on the same doubles. Liquidations run in the borrowers' order, as a full
 * scan would (each draws from the protocol's generator), so the chain is the same to the byte.
 * A manager that changed since the rebuild (`changed`) is checked every step from its own numbers.
 */
export class LiquidationScan {
  private list: Manager[] = [];
  private at = layout(0);
  private groups: Group[] = [];
  /** Borrowers checked every step (a debt too small for the margin to cover its rounding). */
  private always = new Int32Array(0);
  private cells: UnitUsd[] = [];
  private pools: MarginPool[] = [];
  private unit = new Float64Array(0);
  private unit0 = new Float64Array(0);
  private borrowIndex = new Float64Array(0);
  private borrowIndex0 = new Float64Array(0);
  private readonly indexOf = new Map<Manager, number>();
  /** Managers changed since the rebuild: checked from their own numbers. */
  private readonly changedSince = new Set<Manager>();
  private steps = 0;
  private stale = true;
  private readonly due: Array<[Manager, number]> = [];

  /** A manager's amounts, debt or state changed (a new one included). */
  changed(m: Manager): void {
    this.changedSince.add(m);
    const i = this.indexOf.get(m);
    if (i !== undefined) this.at.outdated[i] = 1;
    if (this.changedSince.size > REBUILD_CHANGED) this.stale = true;
  }

  /** Call `liquidate` for each borrower whose ratio is below its pool's liquidation ratio, in the borrowers' order. */
  scan(borrowers: () => Manager[], liquidate: (m: Manager, ratio: number) => void): void {
    const { unit, borrowIndex, cells, pools } = this;
    if (this.stale || ++this.steps >= REBUILD_STEPS) this.rebuild(borrowers());
    else {
      for (let k = 0; k < cells.length; k++) unit[k] = cells[k]!.usd;
      for (let k = 0; k < pools.length; k++) borrowIndex[k] = pools[k]!.borrowIndex;
    }
    const due = this.due;
    due.length = 0;
    const { unit0, borrowIndex0, list } = this;
    const { slack, outdated, liquidation } = this.at;
    for (const g of this.groups) {
      const held = Math.min(unit[g.base]! / unit0[g.base]!, unit[g.quote]! / unit0[g.quote]!);
      const owed = (unit[g.debt]! / unit0[g.debt]!) * (borrowIndex[g.pool]! / borrowIndex0[g.pool]!);
      const limit = owed / held;
      const members = g.members;
      for (let j = 0; j < members.length && !(slack[members[j]!]! >= limit); j++) {
        const i = members[j]!;
        if (outdated[i]) continue;
        const r = this.ratioOf(i);
        if (r < liquidation[i]!) due.push([list[i]!, r]);
      }
    }
    for (let j = 0; j < this.always.length; j++) {
      const i = this.always[j]!;
      const r = this.ratioOf(i);
      if (!outdated[i] && r < liquidation[i]!) due.push([list[i]!, r]);
    }
    for (const m of this.changedSince) {
      const r = m.closed ? null : ratioNow(m);
      if (r !== null && r < m.risk.liquidation) due.push([m, r]);
    }
    if (due.length === 0) return;
    // In the borrowers' (creation) order; a liquidation changes only its own borrower.
    due.sort((a, b) => a[0].seq - b[0].seq);
    for (const [m, r] of due) liquidate(m, r);
  }

  /** Ratio exactly as the manager's own numbers give it, or NaN without debt. */
  private ratioOf(i: number): number {
    const { unit, at } = this;
    const debt = Math.round(at.shares[i]! * this.borrowIndex[at.poolSlot[i]!]!) * unit[at.debtSlot[i]!]!;
    if (!(debt > 0)) return Number.NaN;
    return (at.base[i]! * unit[at.baseSlot[i]!]! + at.quote[i]! * unit[at.quoteSlot[i]!]!) / debt;
  }

  private rebuild(borrowers: Manager[]): void {
    const list = borrowers.filter((m) => !m.closed && m.debt);
    const n = list.length;
    this.list = list;
    this.indexOf.clear();
    list.forEach((m, i) => this.indexOf.set(m, i));
    this.changedSince.clear();
    this.steps = 0;
    const at = (this.at = layout(n));
    const cellSlots = new Map<UnitUsd, number>();
    const poolSlots = new Map<MarginPool, number>();
    const slotOf = <T>(slots: Map<T, number>, x: T): number => {
      let s = slots.get(x);
      if (s === undefined) slots.set(x, (s = slots.size));
      return s;
    };
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      const d = m.debt!;
      at.base[i] = m.base;
      at.quote[i] = m.quote;
      at.shares[i] = d.shares;
      at.liquidation[i] = m.risk.liquidation;
      at.baseSlot[i] = slotOf(cellSlots, m.units.base);
      at.quoteSlot[i] = slotOf(cellSlots, m.units.quote);
      at.debtSlot[i] = slotOf(cellSlots, d.side === 'base' ? m.units.base : m.units.quote);
      at.poolSlot[i] = slotOf(poolSlots, d.pool);
    }
    if (cellSlots.size > 255 || poolSlots.size > 255) throw new Error('more than 255 assets or pools');
    this.cells = [...cellSlots.keys()];
    this.pools = [...poolSlots.keys()];
    this.unit = Float64Array.from(this.cells, (c) => c.usd);
    this.unit0 = this.unit.slice();
    this.borrowIndex = Float64Array.from(this.pools, (p) => p.borrowIndex);
    this.borrowIndex0 = this.borrowIndex.slice();
    const byKey = new Map<string, number[]>();
    const always: number[] = [];
    for (let i = 0; i < n; i++) {
      const owed = at.shares[i]! * this.borrowIndex[at.poolSlot[i]!]!;
      const r0 = this.ratioOf(i);
      if (
        !(owed >= MIN_BOUNDED_DEBT) ||
        !(r0 > 0) ||
        !(this.unit[at.baseSlot[i]!]! > 0) ||
        !(this.unit[at.quoteSlot[i]!]! > 0)
      ) {
        always.push(i);
        continue;
      }
      // The debt is rounded to whole units at both moments: its ratio moves by up to 1/owed + O(1/owed^2).
      at.slack[i] = (r0 * (1 - 4 * EPSILON - 2 / owed)) / at.liquidation[i]!;
      const key = `${at.baseSlot[i]},${at.quoteSlot[i]},${at.debtSlot[i]},${at.poolSlot[i]}`;
      let members = byKey.get(key);
      if (!members) byKey.set(key, (members = []));
      members.push(i);
    }
    this.groups = [...byKey.values()].map((members) => {
      const i = members[0]!;
      members.sort((a, b) => at.slack[a]! - at.slack[b]!);
      return {
        base: at.baseSlot[i]!,
        quote: at.quoteSlot[i]!,
        debt: at.debtSlot[i]!,
        pool: at.poolSlot[i]!,
        members: Int32Array.from(members),
      };
    });
    this.always = Int32Array.from(always);
    this.stale = false;
  }
}

/** A manager's ratio from its own numbers (`riskRatio`'s arithmetic), or null without debt. */
export function ratioNow(m: Manager): number | null {
  const d = m.debt;
  if (!d) return null;
  const debt = Math.round(d.shares * d.pool.borrowIndex) * (d.side === 'base' ? m.units.base.usd : m.units.quote.usd);
  return debt > 0 ? (m.base * m.units.base.usd + m.quote * m.units.quote.usd) / debt : null;
}

/** The borrowers' numbers side by side, by place in the layout. */
function layout(n: number) {
  return {
    base: new Float64Array(n),
    quote: new Float64Array(n),
    shares: new Float64Array(n),
    liquidation: new Float64Array(n),
    /** Slots of each borrower's base, quote and debt prices, and of its debt's pool. */
    baseSlot: new Uint8Array(n),
    quoteSlot: new Uint8Array(n),
    debtSlot: new Uint8Array(n),
    poolSlot: new Uint8Array(n),
    /** r0 / liquidation, shrunk by the margin: below 1/G the borrower is checked. */
    slack: new Float64Array(n),
    /** Changed since the rebuild (its numbers here are old). */
    outdated: new Uint8Array(n),
  };
}
