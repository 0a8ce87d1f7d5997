import type Database from 'better-sqlite3';

/**
 * Schema versions, applied in order by `user_version`, each in one transaction. Never edit a
 * shipped migration: add the next one.
 */
export const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  // 1: the margin stream's events and cursors, trades, depth, REST cache, settings and watch list.
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
  // 4: the layout the Live events queries read (newest first, by type, by manager, by owner,
  // paging back): each an index range in (ms, seq) order, no sort. Managers and owners get small
  // integer ids: the by-manager and by-owner indexes take rows in random order, and with 8-byte
  // keys instead of 66-character ones a commit rewrites a fraction of the pages (ingest was
  // bound by that index). Owners come from manager_created events and the REST margin managers,
  // so an owner's events need no scan of all managers. The time and type indexes of version 1
  // go: the new ones serve their queries, and each index costs every insert.
  (db) => {
    db.exec(`
      CREATE TABLE managers (
        mid INTEGER PRIMARY KEY,
        manager_id TEXT NOT NULL UNIQUE,
        owner TEXT,
        dex_pool_id TEXT
      );
      CREATE INDEX managers_owner ON managers (owner);
      CREATE TABLE owners (
        wid INTEGER PRIMARY KEY,
        owner TEXT NOT NULL UNIQUE
      );
      INSERT OR IGNORE INTO managers (manager_id) SELECT DISTINCT margin_manager_id FROM margin_events WHERE margin_manager_id IS NOT NULL;
      UPDATE managers SET
        owner = (SELECT json_extract(e.data, '$.owner') FROM margin_events e
          WHERE e.margin_manager_id = managers.manager_id AND e.type LIKE '%manager_created' AND json_valid(e.data) LIMIT 1),
        dex_pool_id = (SELECT json_extract(e.data, '$.dex_pool_id') FROM margin_events e
          WHERE e.margin_manager_id = managers.manager_id AND e.type LIKE '%manager_created' AND json_valid(e.data) LIMIT 1);
      INSERT OR IGNORE INTO owners (owner) SELECT DISTINCT owner FROM managers WHERE owner IS NOT NULL;
      ALTER TABLE margin_events ADD COLUMN mid INTEGER;
      ALTER TABLE margin_events ADD COLUMN wid INTEGER;
      UPDATE margin_events SET
        mid = (SELECT mid FROM managers m WHERE m.manager_id = margin_events.margin_manager_id),
        wid = (SELECT o.wid FROM managers m JOIN owners o ON o.owner = m.owner WHERE m.manager_id = margin_events.margin_manager_id)
        WHERE margin_manager_id IS NOT NULL;
      -- Recovered rows shared one seq per millisecond; give each its own so (ms, seq) orders every row.
      UPDATE margin_events SET seq = seq + (SELECT count(*) FROM margin_events o WHERE o.recovered = 1 AND o.ms = margin_events.ms AND o.rowid < margin_events.rowid)
        WHERE recovered = 1;
      DROP INDEX IF EXISTS margin_events_time;
      DROP INDEX IF EXISTS margin_events_type;
      DROP INDEX IF EXISTS margin_events_manager;
      CREATE INDEX margin_events_order ON margin_events (ms, seq);
      CREATE INDEX margin_events_type_order ON margin_events (type, ms, seq);
      CREATE INDEX margin_events_manager_order ON margin_events (mid, ms, seq);
      CREATE INDEX margin_events_owner_order ON margin_events (wid, ms, seq) WHERE wid IS NOT NULL;
    `);
  },
  // 5: where each pool's stream stopped (the newest stored trade's stream id), written in the
  // trades' own transaction, for `last-id` on reconnect.
  (db) => {
    db.exec(`
      CREATE TABLE pool_cursors (
        pool TEXT PRIMARY KEY,
        last_id TEXT NOT NULL
      );
    `);
  },
  // 6: the outbox of alerts to send away from the desk: one row per alert and channel,
  // written in the alert's own transaction; `group_id` is set before a send (the message's id, the
  // same when it goes again after a crash); a log of every attempt; one-time acknowledge tokens.
  (db) => {
    db.exec(`
      CREATE TABLE deliveries (
        alert_id INTEGER NOT NULL,
        channel TEXT NOT NULL,
        repeat INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        group_id TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at INTEGER NOT NULL,
        sent_at INTEGER,
        last_error TEXT,
        PRIMARY KEY (alert_id, channel, repeat)
      );
      CREATE INDEX deliveries_due ON deliveries (state, channel, due_at);
      CREATE TABLE delivery_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        alert_id INTEGER NOT NULL,
        channel TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        at INTEGER NOT NULL,
        result TEXT NOT NULL,
        detail TEXT
      );
      CREATE INDEX delivery_log_alert ON delivery_log (alert_id, at);
      CREATE TABLE ack_tokens (
        token TEXT PRIMARY KEY,
        alert_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
    `);
  },
  // 7: a risk reading keeps the position as its Portfolio row showed it (pool, side, size, the
  // prices, the level), so `export risk` speaks like the Portfolio's CSV; older readings keep NULL.
  (db) => {
    db.exec(`
      ALTER TABLE risk_readings ADD COLUMN pool TEXT;
      ALTER TABLE risk_readings ADD COLUMN side TEXT;
      ALTER TABLE risk_readings ADD COLUMN size REAL;
      ALTER TABLE risk_readings ADD COLUMN base_symbol TEXT;
      ALTER TABLE risk_readings ADD COLUMN quote_symbol TEXT;
      ALTER TABLE risk_readings ADD COLUMN price_usd REAL;
      ALTER TABLE risk_readings ADD COLUMN break_even_price REAL;
      ALTER TABLE risk_readings ADD COLUMN liquidation_price REAL;
      ALTER TABLE risk_readings ADD COLUMN level TEXT;
    `);
  },
  // 8: each margin pool's health at each read (utilization, borrow and supply APR, its curve), for
  // the pool-health history and offline use (docs/alerts.md "Borrow rates").
  (db) => {
    db.exec(`
      CREATE TABLE pool_health (
        margin_pool_id TEXT NOT NULL,
        ts_ms INTEGER NOT NULL,
        symbol TEXT NOT NULL,
        utilization REAL NOT NULL,
        borrow_apr REAL NOT NULL,
        supply_apr REAL NOT NULL,
        base_rate REAL NOT NULL,
        base_slope REAL NOT NULL,
        optimal_utilization REAL NOT NULL,
        excess_slope REAL NOT NULL,
        PRIMARY KEY (margin_pool_id, ts_ms)
      );
      CREATE INDEX pool_health_ts ON pool_health (ts_ms);
    `);
  },
  // 9: a watched wallet's group: `mine` (your own: alerted as before) or `watched` (someone
  // else's: recorded at info and told in the digest, by default). Every wallet already on the list
  // is `mine`, so nothing changes for it.
  (db) => {
    db.exec(`
      ALTER TABLE watch_list ADD COLUMN watch_group TEXT NOT NULL DEFAULT 'mine';
    `);
  },
  // 10: every pool's liquidation map as last read (each active manager's liquidation price, debt,
  // what its liquidation repays and trades), and what that read took, for the pool and manager
  // pages offline and the forecast's page count (docs/valuation.md "The liquidation map").
  (db) => {
    db.exec(`
      CREATE TABLE liquidation_map (
        pool TEXT NOT NULL,
        manager_id TEXT NOT NULL,
        side TEXT NOT NULL,
        price REAL NOT NULL,
        debt REAL NOT NULL,
        repay REAL NOT NULL,
        base REAL NOT NULL,
        PRIMARY KEY (pool, manager_id)
      );
      CREATE TABLE liquidation_map_reads (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        read_at INTEGER NOT NULL,
        pages INTEGER NOT NULL,
        loans INTEGER NOT NULL,
        unplaced TEXT NOT NULL
      );
    `);
  },
  // 11: a manager of the map the margin stream reports liquidated since the read is marked (when),
  // and left out of the map until the next read replaces it (risk/liquidation-map.ts).
  (db) => {
    db.exec(`
      ALTER TABLE liquidation_map ADD COLUMN liquidated_at INTEGER;
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
