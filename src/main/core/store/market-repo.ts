import type Database from 'better-sqlite3';
import type { Depth, Trade } from '../../../shared/api';

/** Trades of the pool streams and backfills, keyed by `event_digest`; the latest depth per pool. */
export class MarketRepo {
  private readonly insertTrade: Database.Statement;
  private readonly upsertDepth: Database.Statement;
  private readonly upsertCursor: Database.Statement;
  private readonly selectCursor: Database.Statement;
  private readonly addAll: (pool: string, trades: readonly Trade[], lastStreamId?: string) => number;

  constructor(private readonly db: Database.Database) {
    this.insertTrade = db.prepare('INSERT OR IGNORE INTO trades (event_digest, pool, ts_ms, data) VALUES (?, ?, ?, ?)');
    this.upsertDepth = db.prepare(`INSERT INTO depth (pool, data, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (pool) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`);
    this.upsertCursor = db.prepare(
      'INSERT INTO pool_cursors (pool, last_id) VALUES (?, ?) ON CONFLICT (pool) DO UPDATE SET last_id = excluded.last_id',
    );
    this.selectCursor = db.prepare('SELECT last_id FROM pool_cursors WHERE pool = ?');
    this.addAll = db.transaction((pool: string, trades: readonly Trade[], lastStreamId?: string): number => {
      let added = 0;
      for (const t of trades)
        added += this.insertTrade.run(t.event_digest, pool, t.checkpoint_timestamp_ms, JSON.stringify(t)).changes;
      if (lastStreamId !== undefined) this.upsertCursor.run(pool, lastStreamId);
      return added;
    });
  }

  /**
   * Store trades (deduped by `event_digest`) and, when they came from the pool stream with ids, the
   * stream id of the newest, in one transaction: the cursor never runs ahead of the trades.
   * Returns how many were new.
   */
  addTrades(pool: string, trades: readonly Trade[], lastStreamId?: string): number {
    return this.addAll(pool, trades, lastStreamId);
  }

  /** The pool stream's id of the newest trade stored from it; undefined when none carried one. */
  lastTradeStreamId(pool: string): string | undefined {
    return (this.selectCursor.get(pool) as { last_id: string } | undefined)?.last_id;
  }

  setDepth(pool: string, depth: Depth, now = Date.now()): void {
    this.upsertDepth.run(pool, JSON.stringify(depth), now);
  }

  depth(pool: string): { depth: Depth; updatedAt: number } | undefined {
    const row = this.db.prepare('SELECT data, updated_at FROM depth WHERE pool = ?').get(pool) as
      { data: string; updated_at: number } | undefined;
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
    const row = this.db.prepare('SELECT max(ts_ms) AS ms FROM trades WHERE pool = ?').get(pool) as {
      ms: number | null;
    };
    return row.ms ?? undefined;
  }

  count(pool?: string): number {
    const row = (
      pool
        ? this.db.prepare('SELECT count(*) AS n FROM trades WHERE pool = ?').get(pool)
        : this.db.prepare('SELECT count(*) AS n FROM trades').get()
    ) as { n: number };
    return row.n;
  }
}
