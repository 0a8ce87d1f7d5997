import type { ActiveSupply, SupplierCap, SupplyReferral } from '../../shared/api';
import { checkpointAt, DAY_MS, HOUR_MS, isoAt } from '../clock';
import { objectId, txDigest, type Rng } from '../rng';
import { ASSETS } from './assets';
import type { AssetValues } from './asset-values';
import { borrowApr, type InterestCurve } from '../../shared/risk-model';

const YEAR_SEC = 365 * 86_400;

/** Suppliers follow the rate: a pool borrowed past HIGH of its supply is topped up to TARGET. */
const HIGH_UTILIZATION = 0.85;
const TARGET_UTILIZATION = 0.7;

/**
 * Every margin pool's interest curve (served by /dex-margin/pools; the client projects debts on
 * it). Past the kink it climbs 5 points of APR per point of utilization, as the real protocol's
 * USDC pool does (about 12 % -> 37 % -> 62 % at 80 / 85 / 90 %): here 14 % -> 39 % -> 64 %.
 */
export const CURVE: InterestCurve = { base_rate: 0.02, base_slope: 0.15, optimal_utilization: 0.8, excess_slope: 5 };
/** The share of the interest the protocol keeps; the suppliers get the rest (served as `protocol_spread`). */
export const PROTOCOL_SPREAD = 0.1;

export interface MarginPool {
  id: string;
  symbol: string;
  supplyShares: number;
  supplyIndex: number;
  borrowShares: number;
  borrowIndex: number;
}

export interface Stamp {
  ms: number;
  digest: string;
}

export interface Supply {
  cap: SupplierCap;
  pool: MarginPool;
  shares: number;
  original: number;
  stamp: Stamp;
}

/**
 * The supply side of the margin protocol: one margin pool per asset with share accounting and
 * a kinked interest curve, the suppliers with their caps, supplies and referrals.
 */
export class MarginPools {
  readonly pools = new Map<string, MarginPool>();
  readonly supplies: Supply[] = [];
  readonly caps: SupplierCap[] = [];
  readonly referrals: SupplyReferral[] = [];

  /** Draws of the top-ups alone (a clone's fork: the chain's other draws stay as they were). */
  private readonly liquidity: Rng;

  constructor(
    private readonly rng: Rng,
    private readonly values: AssetValues,
    symbols: readonly string[],
  ) {
    this.liquidity = rng.clone().fork('liquidity');
    for (const sym of symbols) {
      if (!this.pools.has(sym)) {
        this.pools.set(sym, {
          id: objectId(rng),
          symbol: sym,
          supplyShares: 0,
          supplyIndex: 1,
          borrowShares: 0,
          borrowIndex: 1,
        });
      }
    }
  }

  stamp(ms: number): Stamp {
    return { ms, digest: txDigest(this.rng) };
  }

  seedSuppliers(startMs: number): void {
    const suppliers = Array.from({ length: 24 }, () => objectId(this.rng));
    const pools = [...this.pools.values()];
    suppliers.forEach((owner, i) => {
      const capCount = i % 7 === 0 ? 2 : 1;
      for (let c = 0; c < capCount; c++) {
        const s = this.stamp(startMs - this.rng.int(1, 60) * DAY_MS);
        const cap: SupplierCap = {
          supplier_cap_id: objectId(this.rng),
          owner,
          checkpoint_id: checkpointAt(s.ms),
          created_at: isoAt(s.ms),
          updated_at: isoAt(s.ms),
          digest: s.digest,
        };
        this.caps.push(cap);
        const n = this.rng.int(1, 3);
        for (let k = 0; k < n; k++) {
          const pool = this.rng.pick(pools);
          this.addSupply(cap, pool, this.rng.logNormal(40_000, 1.3), this.stamp(s.ms + this.rng.int(0, 5) * HOUR_MS));
        }
      }
    });
    // One whale whose SUI supply exceeds 2^53 smallest units, to exercise clients on big amounts.
    const sui = this.pools.get('SUI');
    if (sui)
      this.addSupply(
        this.caps[0]!,
        sui,
        12_000_000 * this.values.usd('SUI', 10 ** 9),
        this.stamp(startMs - 30 * DAY_MS),
      );
    for (let i = 0; i < 12; i++) {
      const s = this.stamp(startMs - this.rng.int(1, 90) * DAY_MS);
      this.referrals.push({
        supply_referral_id: objectId(this.rng),
        margin_pool_id: this.rng.pick(pools).id,
        owner: this.rng.pick(suppliers),
        onchain_timestamp: s.ms,
        checkpoint_id: checkpointAt(s.ms),
        digest: s.digest,
        created_at: isoAt(s.ms),
        updated_at: isoAt(s.ms + this.rng.int(0, 3) * DAY_MS),
      });
    }
  }

  addSupply(cap: SupplierCap, pool: MarginPool, usd: number, stamp: Stamp): void {
    this.supplyRaw(cap, pool, this.values.raw(pool.symbol, usd), stamp);
  }

  /**
   * After a borrow: the protocol stops borrows at its maximum utilization and suppliers chase a
   * high rate, so a pool borrowed past 85 % of its supply gets a supply that brings it to 70 %.
   */
  keepLiquid(pool: MarginPool, ms: number): void {
    const supplied = pool.supplyShares * pool.supplyIndex;
    const borrowed = pool.borrowShares * pool.borrowIndex;
    if (borrowed <= HIGH_UTILIZATION * supplied || this.caps.length === 0) return;
    const cap = this.caps[this.liquidity.int(0, this.caps.length - 1)]!;
    this.supplyRaw(cap, pool, Math.ceil(borrowed / TARGET_UTILIZATION - supplied), {
      ms,
      digest: txDigest(this.liquidity),
    });
  }

  private supplyRaw(cap: SupplierCap, pool: MarginPool, amount: number, stamp: Stamp): void {
    const shares = Math.round(amount / pool.supplyIndex);
    pool.supplyShares += shares;
    this.supplies.push({ cap, pool, shares, original: amount, stamp });
  }

  /** Borrowed over supplied now (0 when nothing is supplied). */
  utilization(pool: MarginPool): number {
    const supplied = pool.supplyShares * pool.supplyIndex;
    return supplied > 0 ? (pool.borrowShares * pool.borrowIndex) / supplied : 0;
  }

  /**
   * Bring a pool to `target` use (0 … 1) as its suppliers would: past it, the largest supplies
   * are withdrawn first (in part where a part is enough), as a whale taking its money out does;
   * short of it, a supplier brings what takes it there. The next borrow past 85 % brings
   * suppliers back (`keepLiquid`), as a high rate does. Tests drive a pool across its kink with it
   * (World.driveUtilization).
   */
  driveUtilization(symbol: string, target: number, ms: number): void {
    const pool = this.pools.get(symbol);
    if (!pool || !(target > 0 && target < 1)) return;
    const borrowed = pool.borrowShares * pool.borrowIndex;
    let excess = pool.supplyShares - borrowed / target / pool.supplyIndex;
    if (excess < 0 && this.caps.length > 0) {
      const cap = this.caps[this.liquidity.int(0, this.caps.length - 1)]!;
      this.supplyRaw(cap, pool, Math.floor(-excess * pool.supplyIndex), { ms, digest: txDigest(this.liquidity) });
      return;
    }
    const largest = this.supplies.filter((s) => s.pool === pool && s.shares > 0).sort((a, b) => b.shares - a.shares);
    for (const s of largest) {
      if (excess <= 0) break;
      const out = Math.min(s.shares, Math.ceil(excess));
      s.shares -= out;
      pool.supplyShares -= out;
      excess -= out;
    }
  }

  accrue(dtSec: number): void {
    for (const p of this.pools.values()) {
      const supplied = p.supplyShares * p.supplyIndex;
      const borrowed = p.borrowShares * p.borrowIndex;
      if (supplied <= 0 || borrowed <= 0) continue;
      const util = Math.min(1, borrowed / supplied);
      const apr = borrowApr(CURVE, util);
      const interest = borrowed * apr * (dtSec / YEAR_SEC);
      p.borrowIndex *= 1 + apr * (dtSec / YEAR_SEC);
      p.supplyIndex += (interest * (1 - PROTOCOL_SPREAD)) / p.supplyShares;
    }
  }

  activeSupplies(): ActiveSupply[] {
    return this.supplies
      .filter((s) => s.shares > 0)
      .map((s) => ({
        margin_pool_id: s.pool.id,
        asset_type: ASSETS[s.pool.symbol]!.type,
        supplier_cap_id: s.cap.supplier_cap_id,
        supply_amount: s.original,
        supply_shares: s.shares,
        remaining_amount: Math.round(s.shares * s.pool.supplyIndex),
        remaining_shares: s.shares,
        checkpoint: checkpointAt(s.stamp.ms),
        timestamp: isoAt(s.stamp.ms),
        checkpoint_timestamp_ms: s.stamp.ms,
        digest: s.stamp.digest,
        supplier_cap: s.cap,
      }));
  }
}
