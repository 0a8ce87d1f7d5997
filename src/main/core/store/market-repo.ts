import type Database from 'better-sqlite3';
import type { Depth, Trade } from '../../../shared/api';

/** Trades of stream #21 and backfills, keyed by `event_digest`; the latest depth per pool. */
export class MarketRepo {
  private readonly insertTrade: Database.Statement;
  private readonly upsertDepth: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insertTrade = db.prepare('INSERT OR IGNORE INTO trades (event_digest, pool, ts_ms, data) VALUES (?, ?, ?, ?)');
    this.upsertDepth = db.prepare(`INSERT INTO depth (pool, data, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (pool) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`);
  }

  /** Returns how many were new. */
  addTrades(pool: string, trades: readonly Trade[]): number {
    let added = 0;
    for (const t of trades) added += this.insertTrade.run(t.event_digest, pool, t.checkpoint_timestamp_ms, JSON.stringify(t)).changes;
    return added;
  }

  setDepth(pool: string, depth: Depth, now = Date.now()): void {
    this.upsertDepth.run(pool, JSON.stringify(depth), now);
  }

  depth(pool: string): { depth: Depth; updatedAt: number } | undefined {
    const row = this.db.prepare('SELECT data, updated_at FROM depth WHERE pool = ?').get(pool) as { data: string; updated_at: number } | undefined;
    return row ? { depth: JSON.parse(row.data) as Depth, updatedAt: row.updated_at } : undefined;
  }

  /** Trades of [fromMs, toMs], oldest first. */
  trades(pool: string, fromMs: number, toMs: number, limit = 100_000): Trade[] {
    const rows = this.db
      .prepare('SELECT data FROM trades WHERE pool = ? AND ts_ms BETWEEN ? AND ? ORDER BY ts_ms, event_digest LIMIT ?')
      .all(pool, fromMs, toMs, limit) as Array<{ data: string }>;
    return rows.map((r) => JSON.parse(r.data) as Trade);
  }

  lastTradeMs(pool: string): number | undefined {
    const row = this.db.prepare('SELECT max(ts_ms) AS ms FROM trades WHERE pool = ?').get(pool) as { ms: number | null };
    return row.ms ?? undefined;
  }

  count(pool?: string): number {
    const row = (pool
      ? this.db.prepare('SELECT count(*) AS n FROM trades WHERE pool = ?').get(pool)
      : this.db.prepare('SELECT count(*) AS n FROM trades').get()) as { n: number };
    return row.n;
  }
}
