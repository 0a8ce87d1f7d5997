import type { UnitUsd } from './asset-values';
import type { MarginPool } from './margin-pools';
import type { Manager } from './margin';

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
  private base = new Float64Array(0);
  private quote = new Float64Array(0);
  private shares = new Float64Array(0);
  private liquidation = new Float64Array(0);
  /** Per borrower: slots of its base, quote and debt prices, and of its debt's pool. */
  private baseSlot = new Uint8Array(0);
  private quoteSlot = new Uint8Array(0);
  private debtSlot = new Uint8Array(0);
  private poolSlot = new Uint8Array(0);
  /** r0 / liquidation, shrunk by the margin: below 1/G the borrower is checked. */
  private slack = new Float64Array(0);
  private groups: Group[] = [];
  /** Borrowers checked every step (a debt too small for the margin to cover its rounding). */
  private always = new Int32Array(0);
  private cells: UnitUsd[] = [];
  private pools: MarginPool[] = [];
  private unit = new Float64Array(0);
  private unit0 = new Float64Array(0);
  private borrowIndex = new Float64Array(0);
  private borrowIndex0 = new Float64Array(0);
  /** Borrowers of the layout that changed since (their numbers there are old), by layout index. */
  private outdated = new Uint8Array(0);
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
    if (i !== undefined) this.outdated[i] = 1;
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
    const { unit0, borrowIndex0, slack, outdated, list } = this;
    for (const g of this.groups) {
      const held = Math.min(unit[g.base]! / unit0[g.base]!, unit[g.quote]! / unit0[g.quote]!);
      const owed = (unit[g.debt]! / unit0[g.debt]!) * (borrowIndex[g.pool]! / borrowIndex0[g.pool]!);
      const limit = owed / held;
      const members = g.members;
      for (let j = 0; j < members.length && !(slack[members[j]!]! >= limit); j++) {
        const i = members[j]!;
        if (outdated[i]) continue;
        const r = this.ratioOf(i);
        if (r < this.liquidation[i]!) due.push([list[i]!, r]);
      }
    }
    for (let j = 0; j < this.always.length; j++) {
      const i = this.always[j]!;
      const r = this.ratioOf(i);
      if (!outdated[i] && r < this.liquidation[i]!) due.push([list[i]!, r]);
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
    const unit = this.unit;
    const debt = Math.round(this.shares[i]! * this.borrowIndex[this.poolSlot[i]!]!) * unit[this.debtSlot[i]!]!;
    if (!(debt > 0)) return Number.NaN;
    return (this.base[i]! * unit[this.baseSlot[i]!]! + this.quote[i]! * unit[this.quoteSlot[i]!]!) / debt;
  }

  private rebuild(borrowers: Manager[]): void {
    const list = borrowers.filter((m) => !m.closed && m.debt);
    const n = list.length;
    this.list = list;
    this.indexOf.clear();
    list.forEach((m, i) => this.indexOf.set(m, i));
    this.changedSince.clear();
    this.outdated = new Uint8Array(n);
    this.steps = 0;
    this.base = new Float64Array(n);
    this.quote = new Float64Array(n);
    this.shares = new Float64Array(n);
    this.liquidation = new Float64Array(n);
    this.baseSlot = new Uint8Array(n);
    this.quoteSlot = new Uint8Array(n);
    this.debtSlot = new Uint8Array(n);
    this.poolSlot = new Uint8Array(n);
    this.slack = new Float64Array(n);
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
      this.base[i] = m.base;
      this.quote[i] = m.quote;
      this.shares[i] = d.shares;
      this.liquidation[i] = m.risk.liquidation;
      this.baseSlot[i] = slotOf(cellSlots, m.units.base);
      this.quoteSlot[i] = slotOf(cellSlots, m.units.quote);
      this.debtSlot[i] = slotOf(cellSlots, d.side === 'base' ? m.units.base : m.units.quote);
      this.poolSlot[i] = slotOf(poolSlots, d.pool);
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
      const owed = this.shares[i]! * this.borrowIndex[this.poolSlot[i]!]!;
      const r0 = this.ratioOf(i);
      if (!(owed >= MIN_BOUNDED_DEBT) || !(r0 > 0) || !(this.unit[this.baseSlot[i]!]! > 0) || !(this.unit[this.quoteSlot[i]!]! > 0)) {
        always.push(i);
        continue;
      }
      // The debt is rounded to whole units at both moments: its ratio moves by up to 1/owed + O(1/owed^2).
      this.slack[i] = (r0 * (1 - 4 * EPSILON - 2 / owed)) / this.liquidation[i]!;
      const key = `${this.baseSlot[i]},${this.quoteSlot[i]},${this.debtSlot[i]},${this.poolSlot[i]}`;
      let members = byKey.get(key);
      if (!members) byKey.set(key, (members = []));
      members.push(i);
    }
    this.groups = [...byKey.values()].map((members) => {
      const i = members[0]!;
      members.sort((a, b) => this.slack[a]! - this.slack[b]!);
      return { base: this.baseSlot[i]!, quote: this.quoteSlot[i]!, debt: this.debtSlot[i]!, pool: this.poolSlot[i]!, members: Int32Array.from(members) };
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
