import type Database from 'better-sqlite3';
import type { AlertLevel, ChannelStatus, DeliveryEntry } from '../../../shared/contract';

/**
 * The outbox: one row per alert, channel and repeat (0 the alert itself, 1… the
 * escalation's repeats). A row is `pending` until sent; `group_id` is set before a send and kept
 * until it is sent, so a message that failed, or was in flight at a crash, goes again with the
 * same id and the same alerts (a receiver drops a repeat by that id). `dropped`: the channel was
 * removed. Every attempt is logged for the Alerts page.
 */
export interface OutboxRow {
  alert_id: number;
  channel: string;
  repeat: number;
  state: 'pending' | 'sent' | 'dropped';
  group_id: string | null;
  attempts: number;
  due_at: number;
  sent_at: number | null;
  last_error: string | null;
}

export interface Enqueue {
  channel: string;
  dueAt: number;
  /** Why it waits (quiet hours), logged as `held`. */
  held?: string;
}

export class OutboxRepo {
  private readonly insert: Database.Statement;
  private readonly insertLog: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO deliveries (alert_id, channel, repeat, state, due_at) VALUES (?, ?, ?, 'pending', ?)`,
    );
    this.insertLog = db.prepare(
      'INSERT INTO delivery_log (alert_id, channel, repeat, at, result, detail) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /** Queue an alert (or one of its repeats) for channels; call inside the alert's transaction. */
  enqueue(alertId: number, to: readonly Enqueue[], repeat = 0, now = Date.now()): void {
    for (const e of to) {
      if (this.insert.run(alertId, e.channel, repeat, e.dueAt).changes > 0 && e.held)
        this.insertLog.run(alertId, e.channel, repeat, now, 'held', e.held);
    }
  }

  /** A repeat of alerts, queued in one transaction. */
  enqueueRepeats(
    items: ReadonlyArray<{ alertId: number; repeat: number; to: readonly Enqueue[] }>,
    now = Date.now(),
  ): void {
    this.db.transaction(() => {
      for (const i of items) this.enqueue(i.alertId, i.to, i.repeat, now);
    })();
  }

  /** A message formed earlier and not yet sent on this channel (failed, or in flight at a crash): it goes first, as it was. */
  openGroup(channel: string, now: number): OutboxRow[] {
    const first = this.db
      .prepare(
        `SELECT group_id FROM deliveries WHERE channel = ? AND state = 'pending' AND group_id IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT 1`,
      )
      .pluck()
      .get(channel, now) as string | undefined;
    if (first === undefined) return [];
    return this.db
      .prepare(
        `SELECT * FROM deliveries WHERE channel = ? AND group_id = ? AND state = 'pending' ORDER BY alert_id, repeat`,
      )
      .all(channel, first) as OutboxRow[];
  }

  /** Rows due on a channel that belong to no message yet: critical alerts first (a liquidation does not queue behind a burst of warnings), then the oldest. */
  ungrouped(channel: string, now: number, limit: number): OutboxRow[] {
    return this.db
      .prepare(
        `SELECT d.* FROM deliveries d JOIN alerts a ON a.id = d.alert_id WHERE d.channel = ? AND d.state = 'pending' AND d.group_id IS NULL AND d.due_at <= ?
         ORDER BY a.level = 'critical' DESC, d.due_at, d.alert_id, d.repeat LIMIT ?`,
      )
      .all(channel, now, limit) as OutboxRow[];
  }

  /** Bind rows into one message before it is sent (committed first: a crash mid-send resends the same). */
  bind(rows: readonly OutboxRow[], groupId: string): void {
    const stmt = this.db.prepare(
      'UPDATE deliveries SET group_id = ? WHERE alert_id = ? AND channel = ? AND repeat = ?',
    );
    this.db.transaction(() => {
      for (const r of rows) stmt.run(groupId, r.alert_id, r.channel, r.repeat);
    })();
  }

  sent(rows: readonly OutboxRow[], now: number, detail: string | null = null): void {
    const stmt = this.db.prepare(
      `UPDATE deliveries SET state = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE alert_id = ? AND channel = ? AND repeat = ?`,
    );
    this.db.transaction(() => {
      for (const r of rows) {
        stmt.run(now, r.alert_id, r.channel, r.repeat);
        this.insertLog.run(r.alert_id, r.channel, r.repeat, now, 'sent', detail);
      }
    })();
  }

  failed(rows: readonly OutboxRow[], now: number, error: string, dueAt: number): void {
    const stmt = this.db.prepare(
      'UPDATE deliveries SET attempts = attempts + 1, last_error = ?, due_at = ? WHERE alert_id = ? AND channel = ? AND repeat = ?',
    );
    this.db.transaction(() => {
      for (const r of rows) {
        stmt.run(error, dueAt, r.alert_id, r.channel, r.repeat);
        this.insertLog.run(r.alert_id, r.channel, r.repeat, now, 'failed', error);
      }
    })();
  }

  /**
   * The rows of a channel (every channel when none is named) that failed and wait out a backoff
   * fall due now: its config changed, so the old refusal says nothing of the next try. Rows never
   * tried (held for quiet hours) keep their time. Returns how many.
   */
  retryNow(channel: string | undefined, now: number): number {
    return this.db
      .prepare(
        `UPDATE deliveries SET due_at = ? WHERE state = 'pending' AND attempts > 0 AND due_at > ? AND (? IS NULL OR channel = ?)`,
      )
      .run(now, now, channel ?? null, channel ?? null).changes;
  }

  /** A channel that is no longer configured: its rows are not sent (and said so). */
  dropChannelsExcept(channels: readonly string[], now = Date.now()): number {
    const keep = new Set(channels);
    const gone = (
      this.db.prepare(`SELECT DISTINCT channel FROM deliveries WHERE state = 'pending'`).pluck().all() as string[]
    ).filter((c) => !keep.has(c));
    let n = 0;
    this.db.transaction(() => {
      for (const c of gone) {
        const rows = this.db
          .prepare(`SELECT alert_id, repeat FROM deliveries WHERE channel = ? AND state = 'pending'`)
          .all(c) as Array<{ alert_id: number; repeat: number }>;
        for (const r of rows) this.insertLog.run(r.alert_id, c, r.repeat, now, 'dropped', 'the channel was removed');
        n += this.db
          .prepare(`UPDATE deliveries SET state = 'dropped' WHERE channel = ? AND state = 'pending'`)
          .run(c).changes;
      }
    })();
    return n;
  }

  /** Whether a critical alert (or its repeat) waits on a channel, due now. */
  hasDueCritical(channel: string, now: number): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM deliveries d JOIN alerts a ON a.id = d.alert_id WHERE d.channel = ? AND d.state = 'pending' AND d.due_at <= ? AND a.level = 'critical' LIMIT 1`,
        )
        .get(channel, now) !== undefined
    );
  }

  /** The earliest time a pending row of a channel falls due, or null. */
  nextDueOn(channel: string): number | null {
    return (
      (this.db
        .prepare(`SELECT min(due_at) FROM deliveries WHERE channel = ? AND state = 'pending'`)
        .pluck()
        .get(channel) as number | null) ?? null
    );
  }

  /** Channels with rows due now. */
  dueChannels(now: number): string[] {
    return this.db
      .prepare(`SELECT DISTINCT channel FROM deliveries WHERE state = 'pending' AND due_at <= ?`)
      .pluck()
      .all(now) as string[];
  }

  pendingCount(): number {
    return this.db.prepare(`SELECT count(*) FROM deliveries WHERE state = 'pending'`).pluck().get() as number;
  }

  /** The highest repeat queued for an alert (0: only the alert itself). */
  lastRepeat(alertId: number): { repeat: number; at: number } | null {
    const r = this.db
      .prepare(
        'SELECT repeat, coalesce(sent_at, due_at) AS at FROM deliveries WHERE alert_id = ? ORDER BY repeat DESC, at DESC LIMIT 1',
      )
      .get(alertId) as { repeat: number; at: number } | undefined;
    return r ?? null;
  }

  /** Every row of an alert (tests, `export`). */
  rowsOf(alertId: number): OutboxRow[] {
    return this.db
      .prepare('SELECT * FROM deliveries WHERE alert_id = ? ORDER BY channel, repeat')
      .all(alertId) as OutboxRow[];
  }

  /**
   * What waits on a channel: how many rows, and since when the oldest critical one that was never
   * tried (its due time: when it was queued) has been due. A row that was tried and failed is the
   * failure spell's to tell.
   */
  waitingOn(channel: string): { waiting: number; criticalSince: number | null } {
    const r = this.db
      .prepare(
        `SELECT count(*) AS waiting, min(CASE WHEN a.level = 'critical' AND d.attempts = 0 THEN d.due_at END) AS criticalSince
         FROM deliveries d JOIN alerts a ON a.id = d.alert_id WHERE d.state = 'pending' AND d.channel = ?`,
      )
      .get(channel) as { waiting: number; criticalSince: number | null };
    return { waiting: r.waiting, criticalSince: r.criticalSince ?? null };
  }

  /** Alerts waiting on `from` that have no row on `to`: what a fallback would take. */
  waitingWithout(from: string, to: string): Array<{ alert_id: number; level: AlertLevel }> {
    return this.db
      .prepare(
        `SELECT DISTINCT d.alert_id, a.level FROM deliveries d JOIN alerts a ON a.id = d.alert_id
         WHERE d.channel = ? AND d.state = 'pending'
         AND NOT EXISTS (SELECT 1 FROM deliveries f WHERE f.alert_id = d.alert_id AND f.channel = ?) ORDER BY d.alert_id`,
      )
      .all(from, to) as Array<{ alert_id: number; level: AlertLevel }>;
  }

  /**
   * A failing channel's waiting alerts go to its fallback as well, in one transaction: a row on
   * the fallback per alert (the PRIMARY KEY keeps it to one), logged `rerouted` on the failing
   * channel and `fallback` on the other. The failing channel keeps its own rows and tries them still.
   */
  reroute(
    from: string,
    to: string,
    items: ReadonlyArray<{ alertId: number; dueAt: number; held?: string }>,
    now: number,
    words: { from: string; to: string },
  ): number {
    let n = 0;
    this.db.transaction(() => {
      for (const i of items) {
        if (this.insert.run(i.alertId, to, 0, i.dueAt).changes === 0) continue;
        n++;
        for (const r of this.db
          .prepare(`SELECT repeat FROM deliveries WHERE alert_id = ? AND channel = ? AND state = 'pending'`)
          .pluck()
          .all(i.alertId, from) as number[])
          this.insertLog.run(i.alertId, from, r, now, 'rerouted', words.from);
        this.insertLog.run(i.alertId, to, 0, now, 'fallback', words.to);
        if (i.held) this.insertLog.run(i.alertId, to, 0, now, 'held', i.held);
      }
    })();
    return n;
  }

  /**
   * The delivery log of these alerts, oldest first: what the Alerts page shows under each.
   * `unreached`: the channels in a failure spell past a minute, with what to say of a row still
   * waiting on one (`undelivered`, as of `now`).
   */
  log(
    alertIds: readonly number[],
    unreached: ReadonlyMap<string, string> = new Map(),
    now = Date.now(),
  ): Map<number, DeliveryEntry[]> {
    const out = new Map<number, DeliveryEntry[]>();
    if (alertIds.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT alert_id, channel, repeat, at, result, detail FROM delivery_log WHERE alert_id IN (SELECT value FROM json_each(?)) ORDER BY at, id`,
      )
      .all(JSON.stringify(alertIds)) as Array<DeliveryEntry & { alert_id: number }>;
    for (const { alert_id, ...e } of rows) {
      const list = out.get(alert_id) ?? [];
      list.push(e);
      out.set(alert_id, list);
    }
    // What still waits on a channel that is not reached: said so, as of now, whether it was tried or not.
    if (unreached.size > 0) {
      const stuck = this.db
        .prepare(
          `SELECT alert_id, channel, repeat FROM deliveries WHERE state = 'pending' AND alert_id IN (SELECT value FROM json_each(?)) ORDER BY repeat`,
        )
        .all(JSON.stringify(alertIds)) as Array<{ alert_id: number; channel: string; repeat: number }>;
      for (const w of stuck) {
        const detail = unreached.get(w.channel);
        if (detail === undefined) continue;
        const list = out.get(w.alert_id) ?? [];
        list.push({ channel: w.channel, repeat: w.repeat, at: now, result: 'undelivered', detail });
        out.set(w.alert_id, list);
      }
    }
    // What waits for its channel and was never tried: said as queued, so no channel is missing from the log.
    const waiting = this.db
      .prepare(
        `SELECT d.alert_id, d.channel, d.repeat, d.due_at FROM deliveries d WHERE d.state = 'pending' AND d.attempts = 0 AND d.alert_id IN (SELECT value FROM json_each(?))
        AND NOT EXISTS (SELECT 1 FROM delivery_log l WHERE l.alert_id = d.alert_id AND l.channel = d.channel AND l.repeat = d.repeat)`,
      )
      .all(JSON.stringify(alertIds)) as Array<{ alert_id: number; channel: string; repeat: number; due_at: number }>;
    const status = new Map<string, ChannelStatus>();
    for (const w of waiting) {
      if (unreached.has(w.channel)) continue;
      const list = out.get(w.alert_id) ?? [];
      if (!status.has(w.channel)) status.set(w.channel, this.channelStatus(w.channel));
      const failing = status.get(w.channel)!.failing;
      list.push({
        channel: w.channel,
        repeat: w.repeat,
        at: w.due_at,
        result: 'queued',
        detail: failing ? `the channel is failing: ${failing.detail}` : null,
      });
      out.set(w.alert_id, list);
    }
    return out;
  }

  /** How sending goes on a channel: what waits, the last message taken, a failure since. */
  channelStatus(channel: string): ChannelStatus {
    const pending = this.db
      .prepare(`SELECT count(*) FROM deliveries WHERE channel = ? AND state = 'pending'`)
      .pluck()
      .get(channel) as number;
    const lastSentAt =
      (this.db
        .prepare(`SELECT max(at) FROM delivery_log WHERE channel = ? AND result = 'sent'`)
        .pluck()
        .get(channel) as number | null) ?? null;
    const failed = this.db
      .prepare(
        `SELECT at, detail FROM delivery_log WHERE channel = ? AND result = 'failed' ORDER BY at DESC, id DESC LIMIT 1`,
      )
      .get(channel) as { at: number; detail: string | null } | undefined;
    if (!failed || (lastSentAt !== null && failed.at <= lastSentAt)) return { pending, lastSentAt, failing: null };
    // The spell began with the first failure after the last message that went out.
    const since = this.db
      .prepare(`SELECT min(at) FROM delivery_log WHERE channel = ? AND result = 'failed' AND at > ?`)
      .pluck()
      .get(channel, lastSentAt ?? -1) as number;
    return { pending, lastSentAt, failing: { since, at: failed.at, detail: failed.detail ?? 'it failed' } };
  }

  /** A one-time token that acknowledges an alert from a link. */
  addAckToken(token: string, alertId: number, now = Date.now()): void {
    this.db
      .prepare('INSERT OR IGNORE INTO ack_tokens (token, alert_id, created_at) VALUES (?, ?, ?)')
      .run(token, alertId, now);
  }

  /** The alert a token would acknowledge (not spent), or undefined. */
  peekAckToken(token: string): number | undefined {
    return this.db.prepare('SELECT alert_id FROM ack_tokens WHERE token = ?').pluck().get(token) as number | undefined;
  }

  /** The alert a token acknowledges, its tokens spent; undefined when unknown or spent. */
  spendAckToken(token: string): number | undefined {
    return this.db.transaction(() => {
      const id = this.db.prepare('SELECT alert_id FROM ack_tokens WHERE token = ?').pluck().get(token) as
        number | undefined;
      if (id !== undefined) this.db.prepare('DELETE FROM ack_tokens WHERE alert_id = ?').run(id);
      return id;
    })();
  }
}
