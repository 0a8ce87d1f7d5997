import type Database from 'better-sqlite3';

/**
 * Schema versions, applied in order by `user_version`, each in one transaction. Never edit a
 * shipped migration: add the next one.
 */
export const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  // 1: stream #22 events and cursors, trades, depth, REST cache, settings and watch list.
  (db) => {
    db.exec(`
      CREATE TABLE margin_events (
        id TEXT PRIMARY KEY,
        ms INTEGER,
        seq INTEGER,
        type TEXT NOT NULL,
        timestamp_ms INTEGER,
        checkpoint_id INTEGER,
        tx_hash TEXT,
        margin_manager_id TEXT,
        data TEXT NOT NULL,
        valid INTEGER NOT NULL DEFAULT 1,
        problem TEXT,
        received_at INTEGER NOT NULL
      );
      CREATE INDEX margin_events_time ON margin_events (timestamp_ms);
      CREATE INDEX margin_events_manager ON margin_events (margin_manager_id, timestamp_ms);
      CREATE INDEX margin_events_type ON margin_events (type, timestamp_ms);
      CREATE TABLE stream_cursors (
        stream TEXT PRIMARY KEY,
        last_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE trades (
        event_digest TEXT PRIMARY KEY,
        pool TEXT NOT NULL,
        ts_ms INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX trades_pool_time ON trades (pool, ts_ms);
      CREATE TABLE depth (
        pool TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE rest_cache (
        key TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE watch_list (
        owner TEXT PRIMARY KEY,
        label TEXT,
        added_at INTEGER NOT NULL
      );
    `);
  },
  // 2: risk readings over time, per-manager thresholds, alerts.
  (db) => {
    db.exec(`
      CREATE TABLE risk_readings (
        manager_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        ts_ms INTEGER NOT NULL,
        risk_ratio REAL,
        debt_usd REAL,
        assets_usd REAL,
        distance_pct REAL,
        PRIMARY KEY (manager_id, ts_ms)
      );
      CREATE INDEX risk_readings_owner ON risk_readings (owner, ts_ms);
      CREATE TABLE thresholds (
        manager_id TEXT PRIMARY KEY,
        warning REAL NOT NULL,
        critical REAL NOT NULL
      );
      CREATE TABLE alerts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        dedupe_key TEXT NOT NULL UNIQUE,
        rule TEXT NOT NULL,
        level TEXT NOT NULL,
        manager_id TEXT,
        owner TEXT,
        event_id TEXT,
        title TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        acknowledged_at INTEGER,
        snoozed_until INTEGER
      );
      CREATE INDEX alerts_created ON alerts (created_at);
    `);
  },
  // 3: liquidations recovered over REST for spans the stream could not replay (kept apart from
  // stream rows so the stream's own copy replaces one, found by transaction and manager), and
  // the record of those spans.
  (db) => {
    db.exec(`
      ALTER TABLE margin_events ADD COLUMN recovered INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX margin_events_recovered ON margin_events (tx_hash, margin_manager_id) WHERE recovered = 1;
      CREATE TABLE history_gaps (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        from_ms INTEGER NOT NULL,
        to_ms INTEGER NOT NULL,
        recovered INTEGER NOT NULL,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
    `);
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Bring the database to SCHEMA_VERSION; returns the versions applied. */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`the database is from a newer Tidewatch (schema ${current}, this one knows ${SCHEMA_VERSION})`);
  }
  const applied: number[] = [];
  for (let version = current + 1; version <= target; version++) {
    db.transaction(() => {
      MIGRATIONS[version - 1]!(db);
      db.pragma(`user_version = ${version}`);
    })();
    applied.push(version);
  }
  return applied;
}
