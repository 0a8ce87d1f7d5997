import type Database from 'better-sqlite3';
import type { MapEntry } from '../../../shared/risk-model';

/** What one read of the protocol's loans took, every pool at once (risk/liquidation-map.ts). */
export interface LiquidationMapRead {
  readAt: number;
  pages: number;
  loans: number;
  /** Per pool, managers with a loan the map could not place. */
  unplaced: Record<string, number>;
}

interface EntryRow {
  manager_id: string;
  side: MapEntry['side'];
  price: number;
  debt: number;
  repay: number;
  base: number;
}

/**
 * The latest liquidation map of every pool (risk/liquidation-map.ts), for the pool page and the
 * manager page offline and between reads. Each read replaces the one before: the map is where
 * positions stand now, its history is not kept.
 */
export class LiquidationMapRepo {
  constructor(private readonly db: Database.Database) {}

  /** One read: every pool's entries (`own` is not kept: the watch list decides it when asked). */
  replace(read: LiquidationMapRead, byPool: ReadonlyMap<string, readonly MapEntry[]>): void {
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO liquidation_map (pool, manager_id, side, price, debt, repay, base) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM liquidation_map').run();
      for (const [pool, entries] of byPool)
        for (const e of entries) insert.run(pool, e.manager_id, e.side, e.price, e.debt, e.repay, e.base);
      this.db
        .prepare(
          'INSERT OR REPLACE INTO liquidation_map_reads (id, read_at, pages, loans, unplaced) VALUES (1, ?, ?, ?, ?)',
        )
        .run(read.readAt, read.pages, read.loans, JSON.stringify(read.unplaced));
    })();
  }

  /**
   * The pool's entries as last read, lowest liquidation price first (none: never read, or no loans
   * there), less those marked liquidated since the read.
   */
  entries(pool: string): Array<Omit<MapEntry, 'own'>> {
    return this.db
      .prepare(
        'SELECT manager_id, side, price, debt, repay, base FROM liquidation_map WHERE pool = ? AND liquidated_at IS NULL ORDER BY price',
      )
      .all(pool) as EntryRow[];
  }

  /**
   * Mark the managers liquidated at or after the last read (`at`, ms): the read does not know of
   * their liquidation, so they are left out until the next one replaces them. One liquidated
   * before it is the read's own business. Returns how many entries were marked now.
   */
  markLiquidated(liquidations: ReadonlyArray<{ manager_id: string; at: number }>): number {
    const mark = this.db.prepare(
      `UPDATE liquidation_map SET liquidated_at = ?
         WHERE manager_id = ? AND liquidated_at IS NULL
           AND ? >= (SELECT read_at FROM liquidation_map_reads WHERE id = 1)`,
    );
    let marked = 0;
    this.db.transaction(() => {
      for (const l of liquidations) marked += mark.run(l.at, l.manager_id, l.at).changes;
    })();
    return marked;
  }

  /** The pool's managers marked liquidated since the last read: left out of its map. */
  liquidatedSince(pool: string): number {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM liquidation_map WHERE pool = ? AND liquidated_at IS NOT NULL')
      .get(pool) as { n: number };
    return row.n;
  }

  /** The last read, or null. */
  lastRead(): LiquidationMapRead | null {
    const row = this.db
      .prepare('SELECT read_at, pages, loans, unplaced FROM liquidation_map_reads WHERE id = 1')
      .get() as { read_at: number; pages: number; loans: number; unplaced: string } | undefined;
    if (!row) return null;
    let unplaced: Record<string, number> = {};
    try {
      unplaced = JSON.parse(row.unplaced) as Record<string, number>;
    } catch {
      // A row another version wrote: the counts are only a note.
    }
    return { readAt: row.read_at, pages: row.pages, loans: row.loans, unplaced };
  }
}
