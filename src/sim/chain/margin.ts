import type { ActiveSupply, Liquidation, SupplierCap, SupplyReferral } from '../../shared/api';
import { EVENT_TYPES } from '../../shared/api';
import { riskRatioToStream } from '../../shared/units';
import { objectId, type Rng } from '../rng';
import { AssetValues } from './asset-values';
import { crowdAt, leverageTarget, openRate, type Crowd } from './leverage';
import { LiquidationScan, ratioNow } from './liquidation-scan';
import { MarginPools, type MarginPool, type Stamp } from './margin-pools';
import type { Debt, Manager, MarginReads } from './margin-manager';
import { liquidationToWire } from './margin-wire';
import type { Market } from './market';
import type { PoolSpec, RiskSpec } from './assets';
import type { PriceOracle } from './prices';

/** Owners of margin managers on the Demo network unless asked for more (`sim --margin-owners`). */
export const DEFAULT_MARGIN_OWNERS = 36;

/** Protocol parameters at 5x leverage (docs/service.md, Facts about the margin protocol); a pool may set its own (assets.ts). */
export const RISK: RiskSpec = {
  minWithdraw: 2.0,
  minBorrow: 1.25,
  liquidation: 1.125,
  targetLiquidation: 1.25,
  liquidatorReward: 0.01,
  poolReward: 0.04,
};

/** A pool's risk parameters: its own where it sets them, the protocol's otherwise. */
export function riskOf(spec: PoolSpec): RiskSpec {
  return { ...RISK, ...spec.risk };
}

export interface MarginEmit {
  (type: string, ms: number, data: Record<string, unknown>, digest: string): void;
}

/**
 * The margin protocol of the Demo network: margin pools with share accounting and a kinked
 * interest curve, suppliers, and traders who open leveraged managers, add and withdraw
 * collateral, re-lever, and get liquidated when the price moves against them.
 */
export class MarginEngine implements MarginReads {
  readonly managers: Manager[] = [];
  readonly liquidations: Liquidation[] = [];
  readonly owners: string[];
  /** The supply side: margin pools, suppliers, caps, referrals. */
  readonly book: MarginPools;
  private readonly values: AssetValues;
  private readonly markets: Market[];
  /** Open managers, and those with debt, in creation order; made again only after a manager opens, closes, or gains or loses its debt. */
  private openCache: Manager[] | null = null;
  private borrowerCache: Manager[] | null = null;
  private readonly scan = new LiquidationScan();
  private drifted = new Uint8Array(0);
  /** The scan's two callbacks, made once (a step allocates nothing it does not keep). */
  private stepMs = 0;
  private readonly scanBorrowers = (): Manager[] => this.borrowerList();
  private readonly scanLiquidate = (m: Manager, ratio: number): void => this.liquidate(m, ratio, this.stepMs);
  /** How much more often managers open, move and close than with the default owners (1 then). */
  private readonly activity: number;
  /** Market time since the history began (the crowds' clock: leverage.ts). */
  private marketSec = 0;
  private crowd: Crowd | null = null;

  constructor(
    private readonly rng: Rng,
    readonly oracle: PriceOracle,
    markets: Market[],
    private readonly emit: MarginEmit,
    startMs: number,
    /** The world's seed: when and where traders crowd (leverage.ts). */
    private readonly seed = 0,
    /**
     * Owners of margin managers (a desk of many wallets: `sim --margin-owners`). Each acts as
     * often as one of the default 36 does: managers open, move and close `owners / 36` times as
     * often. The default draws exactly what it always drew, so every seed's chain is unchanged.
     */
    ownerCount = DEFAULT_MARGIN_OWNERS,
  ) {
    this.markets = markets.filter((m) => m.spec.marginEnabled);
    this.values = new AssetValues(oracle);
    this.book = new MarginPools(
      rng,
      this.values,
      this.markets.flatMap((m) => [m.spec.base, m.spec.quote]),
    );
    this.owners = Array.from({ length: ownerCount }, () => objectId(rng));
    this.activity = ownerCount / DEFAULT_MARGIN_OWNERS;
    this.book.seedSuppliers(startMs);
  }

  get pools(): Map<string, MarginPool> {
    return this.book.pools;
  }
  get caps(): SupplierCap[] {
    return this.book.caps;
  }
  get referrals(): SupplyReferral[] {
    return this.book.referrals;
  }

  private stamp(ms: number): Stamp {
    return this.book.stamp(ms);
  }

  private usd(symbol: string, raw: number): number {
    return this.values.usd(symbol, raw);
  }

  private raw(symbol: string, usd: number): number {
    return this.values.raw(symbol, usd);
  }

  debtRaw(d: Debt): number {
    return Math.round(d.shares * d.pool.borrowIndex);
  }

  private baseSym(m: Manager): string {
    return m.market.spec.base;
  }

  private quoteSym(m: Manager): string {
    return m.market.spec.quote;
  }

  private assetsUsd(m: Manager): number {
    return this.usd(this.baseSym(m), m.base) + this.usd(this.quoteSym(m), m.quote);
  }

  private debtUsd(m: Manager): number {
    return m.debt ? this.usd(m.debt.pool.symbol, this.debtRaw(m.debt)) : 0;
  }

  /** Assets / debt, or null without debt (the live price cells: the same numbers the liquidation check uses). */
  riskRatio(m: Manager): number | null {
    return ratioNow(m);
  }

  /** Advance by dtSec of market time, at wall time `ms`. */
  step(dtSec: number, ms: number, warmup: boolean): void {
    this.values.refresh();
    this.book.accrue(dtSec);
    this.crowd = crowdAt(this.seed, this.marketSec, this.markets.length);
    this.marketSec += dtSec;
    const a = this.activity;
    if (this.rng.chance(((dtSec * a) / (warmup ? 240 : 900)) * openRate(this.crowd))) this.open(ms);
    if (this.rng.chance((dtSec * a) / 1500)) this.addCollateral(ms);
    if (this.rng.chance((dtSec * a) / 1200)) this.withdraw(ms);
    if (this.rng.chance((dtSec * a) / 90)) this.relever(ms);
    if (this.rng.chance((dtSec * a) / 7200)) this.close(ms);
    if (this.rng.chance(dtSec / (6 * 3600))) {
      const pools = [...this.pools.values()];
      const cap = this.rng.pick(this.caps);
      this.book.addSupply(cap, this.rng.pick(pools), this.rng.logNormal(20_000, 1), this.stamp(ms));
    }
    this.stepMs = ms;
    this.scan.scan(this.scanBorrowers, this.scanLiquidate);
  }

  /** Call after any change of a manager's amounts or debt; `structure` when it opened, closed, or gained or lost its debt. */
  private changed(m: Manager, structure = false): void {
    if (structure) {
      this.openCache = null;
      this.borrowerCache = null;
    }
    this.scan.changed(m);
  }

  private openManagers(): Manager[] {
    return (this.openCache ??= this.managers.filter((m) => !m.closed));
  }

  /** Open managers with debt. */
  private borrowerList(): Manager[] {
    return (this.borrowerCache ??= this.openManagers().filter((m) => m.debt));
  }

  private open(ms: number): void {
    const picked = this.rng.pick(this.markets);
    const market = this.crowd ? this.markets[this.crowd.market]! : picked;
    const owner =
      this.owners[Math.min(this.owners.length - 1, Math.floor(this.owners.length * this.rng.next() ** 1.6))]!;
    const s = this.stamp(ms);
    const collateralUsd = this.rng.logNormal(2500, 1.1);
    const m: Manager = {
      seq: this.managers.length,
      id: objectId(this.rng),
      balanceManager: objectId(this.rng),
      owner,
      market,
      created: s,
      updated: s,
      base: 0,
      quote: this.raw(market.spec.quote, collateralUsd),
      debt: null,
      deposit: {
        ...s,
        baseOracle: this.oracle.price(market.spec.base),
        quoteOracle: this.oracle.price(market.spec.quote),
      },
      closed: false,
      risk: riskOf(market.spec),
      units: { base: this.values.unit(market.spec.base), quote: this.values.unit(market.spec.quote) },
    };
    this.managers.push(m);
    this.changed(m, true);
    this.emit(
      EVENT_TYPES.managerCreated,
      ms,
      {
        margin_manager_id: m.id,
        balance_manager_id: m.balanceManager,
        dex_pool_id: market.pool.pool_id,
        owner,
        timestamp: ms,
      },
      s.digest,
    );
    this.emit(
      EVENT_TYPES.deposit,
      ms,
      {
        margin_manager_id: m.id,
        base_asset_amount: 0,
        quote_asset_amount: m.quote,
        timestamp: ms,
      },
      s.digest,
    );
    const target = leverageTarget(this.rng.next(), m.risk.minBorrow + 0.01, m.risk.minBorrow + 0.35, this.crowd?.tier);
    this.borrowTo(m, target, this.rng.chance(0.62) ? 'long' : 'short', ms, s);
  }

  /**
   * Borrow so that the ratio becomes `target` and put the loan into the position: a long
   * borrows quote and buys base, a short borrows base and sells it for quote.
   */
  private borrowTo(m: Manager, target: number, direction: 'long' | 'short', ms: number, s: Stamp): void {
    const assets = this.assetsUsd(m);
    const debt = this.debtUsd(m);
    const addUsd = (assets - target * debt) / (target - 1);
    if (addUsd <= 1) return;
    const side = m.debt?.side ?? (direction === 'long' ? 'quote' : 'base');
    const debtSym = side === 'quote' ? this.quoteSym(m) : this.baseSym(m);
    const pool = this.pools.get(debtSym)!;
    const amount = this.raw(debtSym, addUsd);
    const shares = amount / pool.borrowIndex;
    pool.borrowShares += shares;
    this.book.keepLiquid(pool, ms);
    if (m.debt) {
      m.debt.shares += shares;
      m.debt.stamp = s;
    } else {
      m.debt = { side, pool, shares, original: amount, originalShares: shares, stamp: s };
      this.changed(m, true);
    }
    this.changed(m);
    // Long: the borrowed quote (and the quote collateral) buys base. Short: borrowed base is sold.
    if (side === 'quote') {
      m.base += this.raw(this.baseSym(m), addUsd + this.usd(this.quoteSym(m), m.quote));
      m.quote = 0;
    } else {
      m.quote += this.raw(this.quoteSym(m), addUsd);
    }
    m.updated = { ms, digest: s.digest };
  }

  private addCollateral(ms: number): void {
    const open = this.openManagers();
    if (open.length === 0) return;
    const m = this.rng.pick(open);
    const s = this.stamp(ms);
    const amount = this.raw(this.quoteSym(m), this.assetsUsd(m) * this.rng.range(0.1, 0.5));
    m.quote += amount;
    this.changed(m);
    m.updated = s;
    m.deposit = {
      ...s,
      baseOracle: this.oracle.price(this.baseSym(m)),
      quoteOracle: this.oracle.price(this.quoteSym(m)),
    };
    this.emit(
      EVENT_TYPES.deposit,
      ms,
      { margin_manager_id: m.id, base_asset_amount: 0, quote_asset_amount: amount, timestamp: ms },
      s.digest,
    );
  }

  private withdraw(ms: number): void {
    const open = this.openManagers();
    if (open.length === 0) return;
    const m = this.rng.pick(open);
    const ratio = this.riskRatio(m);
    const assets = this.assetsUsd(m);
    const room = ratio === null ? assets : assets - m.risk.minWithdraw * this.debtUsd(m);
    if (room <= 1) return;
    const frac = ratio === null ? 1 : this.rng.range(0.2, 0.9);
    const takeUsd = room * frac;
    const share = assets > 0 ? takeUsd / assets : 0;
    const base = Math.floor(m.base * share);
    const quote = Math.floor(m.quote * share);
    if (base === 0 && quote === 0) return;
    m.base -= base;
    m.quote -= quote;
    const s = this.stamp(ms);
    m.updated = s;
    m.deposit = {
      ...s,
      baseOracle: this.oracle.price(this.baseSym(m)),
      quoteOracle: this.oracle.price(this.quoteSym(m)),
    };
    if (!m.debt && m.base === 0 && m.quote === 0) m.closed = true;
    this.changed(m, m.closed);
    this.emit(
      EVENT_TYPES.withdraw,
      ms,
      { margin_manager_id: m.id, base_asset_amount: base, quote_asset_amount: quote, timestamp: ms },
      s.digest,
    );
  }

  /** Traders whose ratio drifted up borrow again, back towards the minimum borrow ratio. */
  private relever(ms: number): void {
    // A pick among those whose ratio drifted up, marked in one pass (this runs every 90 s of market time).
    const borrowers = this.borrowerList();
    if (this.drifted.length < borrowers.length) this.drifted = new Uint8Array(borrowers.length * 2);
    let count = 0;
    for (let i = 0; i < borrowers.length; i++) {
      const b = borrowers[i]!;
      const r = ratioNow(b);
      const up = r !== null && r > b.risk.minBorrow + 0.25;
      this.drifted[i] = up ? 1 : 0;
      if (up) count++;
    }
    if (count === 0) return;
    let k = Math.floor(this.rng.next() * count);
    let at = 0;
    while (!this.drifted[at] || k-- > 0) at++;
    const m = borrowers[at]!;
    this.borrowTo(
      m,
      leverageTarget(this.rng.next(), m.risk.minBorrow + 0.005, m.risk.minBorrow + 0.2),
      m.debt?.side === 'base' ? 'short' : 'long',
      ms,
      this.stamp(ms),
    );
  }

  /** Repay the whole debt from the position's assets (no stream event: the stream has none for repay). */
  private close(ms: number): void {
    const withDebt = this.borrowerList();
    if (withDebt.length === 0) return;
    const m = this.rng.pick(withDebt);
    const debt = m.debt!;
    const debtUsd = this.debtUsd(m);
    const assets = this.assetsUsd(m);
    const keep = Math.max(0, (assets - debtUsd) / assets);
    m.base = Math.floor(m.base * keep);
    m.quote = Math.floor(m.quote * keep);
    debt.pool.borrowShares = Math.max(0, debt.pool.borrowShares - debt.shares);
    m.debt = null;
    this.changed(m, true);
    m.updated = this.stamp(ms);
  }

  private liquidate(m: Manager, ratio: number, ms: number): void {
    const debt = m.debt!;
    const debtSym = debt.pool.symbol;
    const assetsUsd = this.assetsUsd(m);
    const debtUsd = this.debtUsd(m);
    const risk = m.risk;
    const bonus = 1 + risk.liquidatorReward + risk.poolReward;
    let repayUsd: number;
    let defaultUsd = 0;
    if (assetsUsd < debtUsd * bonus) {
      // Underwater: every asset is seized and the pool absorbs what it does not cover.
      repayUsd = assetsUsd / bonus;
      defaultUsd = debtUsd - repayUsd;
    } else {
      repayUsd = Math.min(debtUsd, (risk.targetLiquidation * debtUsd - assetsUsd) / (risk.targetLiquidation - bonus));
    }
    const seizeShare = Math.min(1, (repayUsd * bonus) / assetsUsd);
    this.changed(m, true);
    m.base = defaultUsd > 0 ? 0 : Math.floor(m.base * (1 - seizeShare));
    m.quote = defaultUsd > 0 ? 0 : Math.floor(m.quote * (1 - seizeShare));
    const repaid = this.raw(debtSym, repayUsd);
    const defaulted = this.raw(debtSym, defaultUsd);
    const removeShares = Math.min(debt.shares, (repaid + defaulted) / debt.pool.borrowIndex);
    debt.shares -= removeShares;
    debt.pool.borrowShares = Math.max(0, debt.pool.borrowShares - removeShares);
    const s = this.stamp(ms);
    const remainingDebt = Math.max(0, this.debtRaw(debt));
    if (defaultUsd > 0 || remainingDebt === 0) {
      m.debt = null;
      m.closed = m.base === 0 && m.quote === 0;
    } else {
      debt.stamp = s;
    }
    m.updated = s;
    const record = liquidationToWire(this, m, {
      debt,
      stamp: s,
      sender: this.liquidator(),
      ratio,
      repaid,
      defaulted,
      remainingDebt,
    });
    this.liquidations.push(record);
    this.emit(
      EVENT_TYPES.liquidation,
      ms,
      {
        margin_manager_id: m.id,
        margin_pool_id: debt.pool.id,
        liquidation_amount: record.liquidation_amount,
        pool_reward: record.pool_reward,
        pool_default: record.pool_default,
        risk_ratio: riskRatioToStream(ratio),
        remaining_base_asset: m.base,
        remaining_quote_asset: m.quote,
        timestamp: ms,
      },
      s.digest,
    );
  }

  private liquidatorSet: string[] | null = null;
  private liquidator(): string {
    this.liquidatorSet ??= Array.from({ length: 5 }, () => objectId(this.rng));
    return this.rng.pick(this.liquidatorSet);
  }

  /** Open managers with debt: the rows of Get Active Loans, before they become wire objects. */
  borrowers(): Manager[] {
    return [...this.borrowerList()];
  }

  /** Debt's last change: the order of Get Active Loans (newest first). */
  loanUpdatedMs(m: Manager): number {
    return m.debt?.stamp.ms ?? 0;
  }

  activeSupplies(): ActiveSupply[] {
    return this.book.activeSupplies();
  }
}

export type { Manager as SimManager };
