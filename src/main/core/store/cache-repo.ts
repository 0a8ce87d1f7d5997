import type Database from 'better-sqlite3';

/** The last good answer of every REST query, for offline use. */
export class ResponseCache {
  private readonly put: Database.Statement;
  private readonly get: Database.Statement;

  constructor(db: Database.Database) {
    this.put = db.prepare(`INSERT INTO rest_cache (key, data, fetched_at) VALUES (?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET data = excluded.data, fetched_at = excluded.fetched_at`);
    this.get = db.prepare('SELECT data, fetched_at FROM rest_cache WHERE key = ?');
  }

  save(key: string, data: unknown, fetchedAt: number): void {
    this.put.run(key, JSON.stringify(data), fetchedAt);
  }

  load<T>(key: string): { data: T; fetchedAt: number } | undefined {
    const row = this.get.get(key) as { data: string; fetched_at: number } | undefined;
    return row ? { data: JSON.parse(row.data) as T, fetchedAt: row.fetched_at } : undefined;
  }
}
