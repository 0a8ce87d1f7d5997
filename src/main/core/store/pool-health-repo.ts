import type Database from 'better-sqlite3';
import type { PoolHealth, PoolHealthPoint } from '../../../shared/contract';
import { borrowApr } from '../../../shared/risk-model';

/** How long a pool's history is kept: 96 reads a day of five pools for 90 days is about 43,000 rows. */
export const POOL_HEALTH_KEEP_MS = 90 * 86_400_000;

interface Row {
  margin_pool_id: string;
  ts_ms: number;
  symbol: string;
  utilization: number;
  borrow_apr: number;
  supply_apr: number;
  base_rate: number;
  base_slope: number;
  optimal_utilization: number;
  excess_slope: number;
}

const toHealth = (r: Row): PoolHealth => {
  const curve = {
    base_rate: r.base_rate,
    base_slope: r.base_slope,
    optimal_utilization: r.optimal_utilization,
    excess_slope: r.excess_slope,
  };
  return {
    margin_pool_id: r.margin_pool_id,
    symbol: r.symbol,
    utilization: r.utilization,
    borrow_apr: r.borrow_apr,
    supply_apr: r.supply_apr,
    curve,
    kink_apr: borrowApr(curve, curve.optimal_utilization),
    ts_ms: r.ts_ms,
  };
};

/** Each margin pool's health at each read (risk/pool-health.ts), for its history and offline use. */
export class PoolHealthRepo {
  constructor(private readonly db: Database.Database) {}

  /** One read of every pool, in one transaction; history older than `POOL_HEALTH_KEEP_MS` goes. */
  add(pools: readonly PoolHealth[]): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO pool_health (margin_pool_id, ts_ms, symbol, utilization, borrow_apr, supply_apr,
         base_rate, base_slope, optimal_utilization, excess_slope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const prune = this.db.prepare('DELETE FROM pool_health WHERE ts_ms < ?');
    this.db.transaction(() => {
      for (const p of pools)
        insert.run(
          p.margin_pool_id,
          p.ts_ms,
          p.symbol,
          p.utilization,
          p.borrow_apr,
          p.supply_apr,
          p.curve.base_rate,
          p.curve.base_slope,
          p.curve.optimal_utilization,
          p.curve.excess_slope,
        );
      const newest = Math.max(0, ...pools.map((p) => p.ts_ms));
      if (newest > 0) prune.run(newest - POOL_HEALTH_KEEP_MS);
    })();
  }

  /** Each pool's latest read. */
  latest(): PoolHealth[] {
    const rows = this.db
      .prepare(
        `SELECT h.* FROM pool_health h
           JOIN (SELECT margin_pool_id, MAX(ts_ms) AS ts FROM pool_health GROUP BY margin_pool_id) l
             ON h.margin_pool_id = l.margin_pool_id AND h.ts_ms = l.ts
         ORDER BY h.symbol`,
      )
      .all() as Row[];
    return rows.map(toHealth);
  }

  /** Every pool's reads since `fromMs`, oldest first, by pool. */
  history(fromMs: number): Record<string, PoolHealthPoint[]> {
    const rows = this.db
      .prepare(
        'SELECT margin_pool_id, ts_ms, utilization, borrow_apr, supply_apr FROM pool_health WHERE ts_ms >= ? ORDER BY ts_ms',
      )
      .all(fromMs) as Array<Pick<Row, 'margin_pool_id' | 'ts_ms' | 'utilization' | 'borrow_apr' | 'supply_apr'>>;
    const out: Record<string, PoolHealthPoint[]> = {};
    for (const r of rows)
      (out[r.margin_pool_id] ??= []).push({
        ts_ms: r.ts_ms,
        utilization: r.utilization,
        borrow_apr: r.borrow_apr,
        supply_apr: r.supply_apr,
      });
    return out;
  }
}
