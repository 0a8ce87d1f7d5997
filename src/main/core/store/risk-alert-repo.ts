import type Database from 'better-sqlite3';
import type { AlertRecord, RiskReading } from '../../../shared/contract';

export type NewAlert = Omit<AlertRecord, 'id' | 'acknowledged_at' | 'snoozed_until'> & { dedupe_key: string };

/** Risk readings over time and alerts (deduplicated by rule, manager, level and event). */
export class RiskAlertRepo {
  private alertById: Database.Statement | undefined;
  private shownFirst: { exists: Database.Statement; nextId: Database.Statement; insert: Database.Statement } | undefined;
  private readonly insertReading: Database.Statement;
  private readonly insertAlert: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insertReading = db.prepare(`INSERT OR REPLACE INTO risk_readings
      (manager_id, owner, ts_ms, risk_ratio, debt_usd, assets_usd, distance_pct)
      VALUES (@manager_id, @owner, @ts_ms, @risk_ratio, @debt_usd, @assets_usd, @distance_pct)`);
    this.insertAlert = db.prepare(`INSERT OR IGNORE INTO alerts
      (dedupe_key, rule, level, manager_id, owner, event_id, title, message, created_at)
      VALUES (@dedupe_key, @rule, @level, @manager_id, @owner, @event_id, @title, @message, @created_at)`);
  }

  addReadings(readings: readonly RiskReading[]): void {
    this.db.transaction(() => {
      for (const r of readings) this.insertReading.run(r);
    })();
  }

  readings(managerId: string, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): RiskReading[] {
    return this.db
      .prepare('SELECT * FROM risk_readings WHERE manager_id = ? AND ts_ms BETWEEN ? AND ? ORDER BY ts_ms')
      .all(managerId, fromMs, toMs) as RiskReading[];
  }

  allReadings(): IterableIterator<RiskReading> {
    return this.db.prepare('SELECT * FROM risk_readings ORDER BY ts_ms, manager_id').iterate() as IterableIterator<RiskReading>;
  }

  /**
   * Insert unless an alert with the same dedupe key exists; returns the new record or undefined.
   * With `showFirst`, the record (its id reserved) is handed over before its row is written: a
   * liquidation reaches the trader without waiting for the disk (a write here is a WAL append,
   * 0.1 ms and sometimes tens). Should the write then fail (a full disk), the alert was shown but
   * not stored, and shows again when its event comes again.
   */
  addAlert(a: NewAlert, showFirst?: (record: AlertRecord) => void): AlertRecord | undefined {
    if (showFirst) return this.addShowingFirst(a, showFirst);
    const info = this.insertAlert.run(a);
    if (info.changes === 0) return undefined;
    return this.alert(Number(info.lastInsertRowid));
  }

  private addShowingFirst(a: NewAlert, show: (record: AlertRecord) => void): AlertRecord | undefined {
    const q = (this.shownFirst ??= {
      exists: this.db.prepare('SELECT 1 FROM alerts WHERE dedupe_key = ?').pluck(),
      // The id AUTOINCREMENT would give: one past the largest ever used.
      nextId: this.db.prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'alerts'), 0) + 1").pluck(),
      insert: this.db.prepare(`INSERT INTO alerts (id, dedupe_key, rule, level, manager_id, owner, event_id, title, message, created_at)
        VALUES (@id, @dedupe_key, @rule, @level, @manager_id, @owner, @event_id, @title, @message, @created_at)`),
    });
    if (q.exists.get(a.dedupe_key)) return undefined;
    const id = q.nextId.get() as number;
    const { rule, level, manager_id, owner, event_id, title, message, created_at } = a;
    const record: AlertRecord = { id, rule, level, manager_id, owner, event_id, title, message, created_at, acknowledged_at: null, snoozed_until: null };
    show(record);
    q.insert.run({ ...a, id });
    return record;
  }

  alert(id: number): AlertRecord | undefined {
    this.alertById ??= this.db.prepare('SELECT id, rule, level, manager_id, owner, event_id, title, message, created_at, acknowledged_at, snoozed_until FROM alerts WHERE id = ?');
    return this.alertById.get(id) as AlertRecord | undefined;
  }

  alerts(includeAcknowledged = true, limit = 200): AlertRecord[] {
    return this.db
      .prepare(`SELECT id, rule, level, manager_id, owner, event_id, title, message, created_at, acknowledged_at, snoozed_until
        FROM alerts ${includeAcknowledged ? '' : 'WHERE acknowledged_at IS NULL'} ORDER BY created_at DESC, id DESC LIMIT ?`)
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
