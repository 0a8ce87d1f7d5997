import type Database from 'better-sqlite3';
import type { AlertRecord, RiskReading } from '../../../shared/contract';
import { splitId } from './margin-events';
import { OutboxRepo, type Enqueue } from './outbox-repo';

export type NewAlert = Omit<AlertRecord, 'id' | 'acknowledged_at' | 'snoozed_until'> & { dedupe_key: string };

interface ShowFirst {
  exists: Database.Statement;
  insert: Database.Statement;
  nextId: number;
  newest: NewestKeyId;
}

/** The newest stream id (`<ms>-<seq>`) that ends a dedupe key seen so far. */
class NewestKeyId {
  private ms = -1;
  private seq = -1;

  private static idOf(key: string): { ms: number; seq: number } | null {
    return splitId(key.slice(key.lastIndexOf(':') + 1));
  }

  note(key: string): void {
    const at = NewestKeyId.idOf(key);
    if (at && (at.ms > this.ms || (at.ms === this.ms && at.seq > this.seq))) [this.ms, this.seq] = [at.ms, at.seq];
  }

  /** The key ends with a stream id newer than every key noted: no such key is stored. */
  isNewer(key: string): boolean {
    const at = NewestKeyId.idOf(key);
    return at !== null && (at.ms > this.ms || (at.ms === this.ms && at.seq > this.seq));
  }
}

/** A reading's position figures, NULL where a reading does not carry them (every named parameter must be given). */
const NO_POSITION = {
  pool: null,
  side: null,
  size: null,
  base_symbol: null,
  quote_symbol: null,
  price_usd: null,
  break_even_price: null,
  liquidation_price: null,
  level: null,
} satisfies Partial<RiskReading>;

/**
 * Where a stored alert goes besides the screen (notify/router.ts, AlertRouter): `route` names the
 * channels that carry it, asked in the transaction that stores it; `queued` is told once that
 * transaction committed with a row queued (the outbox worker wakes).
 */
export interface AlertRouting {
  route(a: AlertRecord): Enqueue[];
  queued(): void;
}

/**
 * Routing that queues an alert for no channel: the screen only. Chosen explicitly where nothing
 * carries alerts away from the desk (tests of the store and the rules); the app routes with the
 * notifier's AlertRouter (alerts/alert-services.ts).
 */
export const NO_CHANNELS: AlertRouting = { route: () => [], queued: () => {} };

/** An alert was stored before `RiskAlertRepo.routeWith` was called: a wiring mistake, never silent. */
export class UnroutedAlertError extends Error {
  constructor(a: Pick<AlertRecord, 'rule' | 'level'>) {
    super(
      `a ${a.level} ${a.rule} alert was stored with no router: RiskAlertRepo.routeWith must be called first (alerts/alert-services.ts)`,
    );
    this.name = 'UnroutedAlertError';
  }
}

/**
 * Risk readings over time and alerts (deduplicated by rule, manager, level and event). An alert is
 * queued in the outbox, for the channels its router names, in the transaction that stores it.
 */
export class RiskAlertRepo {
  readonly outbox: OutboxRepo;
  /** Set once by `routeWith`, before any alert is stored. */
  private router: AlertRouting | undefined;
  private alertById: Database.Statement | undefined;
  private shownFirst: ShowFirst | undefined;
  private readonly insertReading: Database.Statement;
  private readonly insertAlert: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insertReading = db.prepare(`INSERT OR REPLACE INTO risk_readings
      (manager_id, owner, ts_ms, risk_ratio, debt_usd, assets_usd, distance_pct,
       pool, side, size, base_symbol, quote_symbol, price_usd, break_even_price, liquidation_price, level)
      VALUES (@manager_id, @owner, @ts_ms, @risk_ratio, @debt_usd, @assets_usd, @distance_pct,
       @pool, @side, @size, @base_symbol, @quote_symbol, @price_usd, @break_even_price, @liquidation_price, @level)`);
    this.insertAlert = db.prepare(`INSERT OR IGNORE INTO alerts
      (dedupe_key, rule, level, manager_id, owner, event_id, title, message, created_at)
      VALUES (@dedupe_key, @rule, @level, @manager_id, @owner, @event_id, @title, @message, @created_at)`);
    this.outbox = new OutboxRepo(db);
  }

  /**
   * Route every new alert with `router` (the notifier's AlertRouter, notify/router.ts, wired by
   * alerts/alert-services.ts). Until then storing an alert throws `UnroutedAlertError` (and writes
   * nothing), so an alert can never be kept from its channels unnoticed.
   */
  routeWith(router: AlertRouting): void {
    this.router = router;
  }

  private routing(record: AlertRecord): AlertRouting {
    if (!this.router) throw new UnroutedAlertError(record);
    return this.router;
  }

  /** Queue a stored alert for the channels its router names (inside its transaction); whether any took it. */
  private enqueue(record: AlertRecord): boolean {
    const to = this.routing(record).route(record);
    this.outbox.enqueue(record.id, to, 0, record.created_at);
    return to.length > 0;
  }

  addReadings(readings: readonly RiskReading[]): void {
    this.db.transaction(() => {
      for (const r of readings) this.insertReading.run({ ...NO_POSITION, ...r });
    })();
  }

  readings(managerId: string, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): RiskReading[] {
    return this.db
      .prepare('SELECT * FROM risk_readings WHERE manager_id = ? AND ts_ms BETWEEN ? AND ? ORDER BY ts_ms')
      .all(managerId, fromMs, toMs) as RiskReading[];
  }

  allReadings(): IterableIterator<RiskReading> {
    return this.db
      .prepare('SELECT * FROM risk_readings ORDER BY ts_ms, manager_id')
      .iterate() as IterableIterator<RiskReading>;
  }

  /**
   * Insert unless an alert with the same dedupe key exists; returns the new record or undefined.
   * With `showFirst`, the record (its id reserved) is handed over before its row is written: a
   * liquidation reaches the trader without waiting for the disk (a write here is a WAL append, now
   * and then tens of milliseconds: docs/operations.md, A liquidation's way to its alert). Should the
   * write then fail (a full disk), the alert was shown but not stored, and shows again when its
   * event comes again.
   */
  addAlert(a: NewAlert, showFirst?: (record: AlertRecord) => void): AlertRecord | undefined {
    if (showFirst) return this.addShowingFirst(a, showFirst);
    let queued = false;
    const record = this.db.transaction(() => {
      const info = this.insertAlert.run(a);
      if (info.changes === 0) return undefined;
      const stored = this.alert(Number(info.lastInsertRowid))!;
      queued = this.enqueue(stored);
      return stored;
    })();
    if (!record) return undefined;
    this.noteInserted(a.dedupe_key, record.id);
    if (queued) this.routing(record).queued();
    return record;
  }

  /**
   * The show-first path reads nothing on the way to the trader: right after the margin writer
   * thread commits, a read on this connection starts over from the WAL, tens of microseconds on a
   * liquidation's way to its alert (docs/operations.md, A liquidation's way to its alert). So what
   * it needs is kept here, exact while this connection is the only one that writes alerts (the
   * app's; the writer thread writes margin events only): the id AUTOINCREMENT gives next, and the
   * newest stream id that ends any dedupe key (liquidation keys end with their event's id). A key
   * ending in a newer id cannot exist yet; any other key (a replayed event, an id of another shape)
   * is looked up.
   */
  private showFirst(): ShowFirst {
    if (!this.shownFirst) {
      const db = this.db;
      const newest = new NewestKeyId();
      for (const key of db.prepare('SELECT dedupe_key FROM alerts').pluck().iterate() as IterableIterator<string>)
        newest.note(key);
      this.shownFirst = {
        exists: db.prepare('SELECT 1 FROM alerts WHERE dedupe_key = ?').pluck(),
        insert:
          db.prepare(`INSERT INTO alerts (id, dedupe_key, rule, level, manager_id, owner, event_id, title, message, created_at)
          VALUES (@id, @dedupe_key, @rule, @level, @manager_id, @owner, @event_id, @title, @message, @created_at)`),
        // One past the largest id ever used, as AUTOINCREMENT counts.
        nextId: db
          .prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'alerts'), 0) + 1")
          .pluck()
          .get() as number,
        newest,
      };
    }
    return this.shownFirst;
  }

  private noteInserted(key: string, id: number): void {
    if (!this.shownFirst) return; // read when first needed
    this.shownFirst.nextId = Math.max(this.shownFirst.nextId, id + 1);
    this.shownFirst.newest.note(key);
  }

  /** Whether an alert with this dedupe key is stored; nothing is read for a key that ends in a newer stream id (see showFirst). */
  hasAlert(key: string): boolean {
    const q = this.showFirst();
    return !q.newest.isNewer(key) && q.exists.get(key) !== undefined;
  }

  private addShowingFirst(a: NewAlert, show: (record: AlertRecord) => void): AlertRecord | undefined {
    if (this.hasAlert(a.dedupe_key)) return undefined;
    const q = this.showFirst();
    const id = q.nextId++;
    const { rule, level, manager_id, owner, event_id, title, message, created_at } = a;
    const record: AlertRecord = {
      id,
      rule,
      level,
      manager_id,
      owner,
      event_id,
      title,
      message,
      created_at,
      acknowledged_at: null,
      snoozed_until: null,
    };
    show(record);
    let queued = false;
    this.db.transaction(() => {
      q.insert.run({ ...a, id });
      queued = this.enqueue(record);
    })();
    this.noteInserted(a.dedupe_key, id);
    if (queued) this.routing(record).queued();
    return record;
  }

  alert(id: number): AlertRecord | undefined {
    this.alertById ??= this.db.prepare(
      'SELECT id, rule, level, manager_id, owner, event_id, title, message, created_at, acknowledged_at, snoozed_until FROM alerts WHERE id = ?',
    );
    return this.alertById.get(id) as AlertRecord | undefined;
  }

  alerts(includeAcknowledged = true, limit = 200): AlertRecord[] {
    return this.db
      .prepare(
        `SELECT id, rule, level, manager_id, owner, event_id, title, message, created_at, acknowledged_at, snoozed_until
        FROM alerts ${includeAcknowledged ? '' : 'WHERE acknowledged_at IS NULL'} ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(limit) as AlertRecord[];
  }

  acknowledge(id: number, now = Date.now()): AlertRecord | undefined {
    this.db.prepare('UPDATE alerts SET acknowledged_at = coalesce(acknowledged_at, ?) WHERE id = ?').run(now, id);
    return this.alert(id);
  }

  /** Acknowledge every open alert; returns how many were open. */
  acknowledgeAll(now = Date.now()): number {
    return this.db.prepare('UPDATE alerts SET acknowledged_at = ? WHERE acknowledged_at IS NULL').run(now).changes;
  }

  snooze(id: number, untilMs: number): AlertRecord | undefined {
    this.db.prepare('UPDATE alerts SET snoozed_until = ? WHERE id = ?').run(untilMs, id);
    return this.alert(id);
  }
}
