import type Database from 'better-sqlite3';
import type { StoredMarginEvent } from '../../../shared/contract';

/** One message of stream #22 as received, before it is stored: `data` is the JSON text of the payload. */
export type IncomingMarginEvent = Omit<StoredMarginEvent, 'data' | 'received_at'> & {
  /** The `data` object as JSON text (or the whole raw message when it was not an envelope). */
  data: string;
};

export interface MarginEventFilter {
  type?: string;
  managerId?: string;
  /** Only events of these managers (an owner's managers). */
  managerIds?: string[];
  fromMs?: number;
  toMs?: number;
  beforeId?: string;
  limit?: number;
}

const STREAM = 'margin';
/** `seq` of recovered rows: after every stream event of the same millisecond. */
const RECOVERED_SEQ = 2 ** 31;

/** `<ms>-<seq>` as numbers; null for ids of another shape (kept, but not ordered by). */
export function splitId(id: string): { ms: number; seq: number } | null {
  const m = /^(\d{1,16})-(\d{1,16})$/.exec(id);
  return m ? { ms: Number(m[1]), seq: Number(m[2]) } : null;
}

/** True when id `a` comes after id `b` in stream order. */
export function idAfter(a: string, b: string): boolean {
  const x = splitId(a);
  const y = splitId(b);
  if (!x || !y) return false;
  return x.ms > y.ms || (x.ms === y.ms && x.seq > y.seq);
}

/** A row as SQLite returns it: `data` is JSON text, `valid` 0 or 1. */
type Row = Omit<StoredMarginEvent, 'data' | 'valid' | 'recovered'> & { data: string; valid: number; recovered: number };

function toStored(r: Row): StoredMarginEvent {
  let data: unknown = r.data;
  try {
    data = JSON.parse(r.data);
  } catch {
    // kept as text: it was stored as received
  }
  const { recovered, ...rest } = r;
  return { ...rest, data, valid: r.valid === 1, ...(recovered === 1 ? { recovered: true } : {}) };
}

/**
 * Stream #22 events keyed by their stream id, and the stream's cursor. A batch and the cursor
 * commit in one transaction, so a crash never loses or repeats an event; a repeated id is ignored.
 */
export class MarginEventRepo {
  private readonly insert: Database.Statement;
  private readonly recoveredFind: Database.Statement;
  private readonly anyFind: Database.Statement;
  private readonly deleteById: Database.Statement;
  private readonly insertRecovered: Database.Statement;
  private readonly cursorGet: Database.Statement;
  private readonly cursorSet: Database.Statement;
  private readonly commitBatch: (events: IncomingMarginEvent[], now: number) => IncomingMarginEvent[];

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(`INSERT OR IGNORE INTO margin_events
      (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at)
      VALUES (@id, @ms, @seq, @type, @timestamp_ms, @checkpoint_id, @tx_hash, @margin_manager_id, @data, @valid, @problem, @received_at)`);
    this.recoveredFind = db.prepare('SELECT id FROM margin_events WHERE recovered = 1 AND tx_hash = ? AND margin_manager_id = ?');
    this.anyFind = db.prepare('SELECT 1 FROM margin_events WHERE tx_hash = ? AND margin_manager_id = ? AND type = ? LIMIT 1');
    this.deleteById = db.prepare('DELETE FROM margin_events WHERE id = ?');
    this.insertRecovered = db.prepare(`INSERT OR IGNORE INTO margin_events
      (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered)
      VALUES (@id, @ms, @seq, @type, @timestamp_ms, @checkpoint_id, @tx_hash, @margin_manager_id, @data, 1, NULL, @received_at, 1)`);
    this.cursorGet = db.prepare('SELECT last_id FROM stream_cursors WHERE stream = ?');
    this.cursorSet = db.prepare(`INSERT INTO stream_cursors (stream, last_id, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (stream) DO UPDATE SET last_id = excluded.last_id, updated_at = excluded.updated_at`);
    this.commitBatch = db.transaction((events: IncomingMarginEvent[], now: number) => {
      const stored: IncomingMarginEvent[] = [];
      let cursor = (this.cursorGet.get(STREAM) as { last_id: string } | undefined)?.last_id;
      for (const e of events) {
        const parts = splitId(e.id);
        // The stream's own copy of a liquidation recovered over REST replaces it, and is not new.
        const stand = e.tx_hash && e.margin_manager_id ? (this.recoveredFind.get(e.tx_hash, e.margin_manager_id) as { id: string } | undefined) : undefined;
        if (stand) this.deleteById.run(stand.id);
        const info = this.insert.run({ ...e, ms: parts?.ms ?? null, seq: parts?.seq ?? null, valid: e.valid ? 1 : 0, received_at: now });
        if (info.changes > 0 && !stand) stored.push(e);
        if (parts) {
          if (cursor === undefined || idAfter(e.id, cursor) || !splitId(cursor)) cursor = e.id;
        } else if (info.changes > 0 && !e.id.startsWith('noid-') && (cursor === undefined || !splitId(cursor))) {
          // Ids of another shape cannot be compared: the newest new one, in arrival order, resumes.
          cursor = e.id;
        }
      }
      if (cursor !== undefined) this.cursorSet.run(STREAM, cursor, now);
      return stored;
    });
  }

  /** Store a batch and move the cursor, in one transaction; returns the events that were new. */
  commit(events: IncomingMarginEvent[], now = Date.now()): IncomingMarginEvent[] {
    if (events.length === 0) return [];
    return this.commitBatch(events, now);
  }

  /**
   * Liquidations fetched over REST for a span the stream could not replay: each is stored unless
   * a row of the same type, transaction and manager exists; the cursor does not move. Returns the new ones.
   */
  addRecovered(events: IncomingMarginEvent[], now = Date.now()): IncomingMarginEvent[] {
    return this.db.transaction(() => {
      const fresh: IncomingMarginEvent[] = [];
      for (const e of events) {
        if (e.tx_hash && e.margin_manager_id && this.anyFind.get(e.tx_hash, e.margin_manager_id, e.type)) continue;
        // Ordered by their time, after any stream event of the same millisecond.
        const info = this.insertRecovered.run({ ...e, ms: e.timestamp_ms, seq: RECOVERED_SEQ, received_at: now });
        if (info.changes > 0) fresh.push(e);
      }
      return fresh;
    })();
  }

  /** The checkpoint of the event at the cursor: where a recovery over REST starts. */
  lastCheckpoint(): number | null {
    const cursor = this.cursor();
    if (cursor === undefined) return null;
    const row = this.db.prepare('SELECT checkpoint_id AS c FROM margin_events WHERE id = ?').get(cursor) as { c: number | null } | undefined;
    return row?.c ?? null;
  }

  /** When the cursor last moved (ms), if it ever did. */
  cursorUpdatedAt(): number | undefined {
    return (this.db.prepare('SELECT updated_at FROM stream_cursors WHERE stream = ?').get(STREAM) as { updated_at: number } | undefined)?.updated_at;
  }

  cursor(): string | undefined {
    return (this.cursorGet.get(STREAM) as { last_id: string } | undefined)?.last_id;
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM margin_events').get() as { n: number }).n;
  }

  /** Newest first, filtered; `beforeId` pages backwards. */
  list(f: MarginEventFilter = {}): StoredMarginEvent[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (f.type) {
      where.push('type = @type');
      params['type'] = f.type;
    }
    if (f.managerId) {
      where.push('margin_manager_id = @managerId');
      params['managerId'] = f.managerId;
    }
    if (f.managerIds) {
      if (f.managerIds.length === 0) return [];
      where.push(`margin_manager_id IN (${f.managerIds.map((_, i) => `@m${i}`).join(',')})`);
      f.managerIds.forEach((id, i) => (params[`m${i}`] = id));
    }
    if (f.fromMs !== undefined) {
      where.push('timestamp_ms >= @fromMs');
      params['fromMs'] = f.fromMs;
    }
    if (f.toMs !== undefined) {
      where.push('timestamp_ms <= @toMs');
      params['toMs'] = f.toMs;
    }
    if (f.beforeId) {
      const p = splitId(f.beforeId);
      if (p) {
        where.push('(ms < @bms OR (ms = @bms AND seq < @bseq))');
        params['bms'] = p.ms;
        params['bseq'] = p.seq;
      }
    }
    const sql = `SELECT id, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered
      FROM margin_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ms DESC, seq DESC, rowid DESC LIMIT @limit`;
    params['limit'] = f.limit ?? 200;
    return (this.db.prepare(sql).all(params) as Row[]).map(toStored);
  }

  /** Every stored event, oldest first (exports). */
  *iterate(): IterableIterator<StoredMarginEvent> {
    const stmt = this.db.prepare(`SELECT id, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered
      FROM margin_events ORDER BY ms IS NULL, ms, seq, rowid`);
    for (const row of stmt.iterate() as IterableIterator<Row>) yield toStored(row);
  }

  /** The exchange pool of each manager, from its stored manager_created event (where it is stored). */
  dexPoolsOfManagers(ids: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare(`SELECT margin_manager_id AS id, json_extract(data, '$.dex_pool_id') AS pool FROM margin_events
        WHERE margin_manager_id IN (${ids.map(() => '?').join(',')}) AND type LIKE '%manager_created' AND json_valid(data)`)
      .all(...ids) as Array<{ id: string; pool: string | null }>;
    for (const r of rows) if (r.pool) out.set(r.id, r.pool);
    return out;
  }

  /** The owner a stored manager_created event names for this manager. */
  ownerOfManager(managerId: string): string | undefined {
    const row = this.db
      .prepare(`SELECT json_extract(data, '$.owner') AS owner FROM margin_events
        WHERE margin_manager_id = ? AND type LIKE '%manager_created' AND json_valid(data) LIMIT 1`)
      .get(managerId) as { owner: string | null } | undefined;
    return row?.owner ?? undefined;
  }

  /** Managers that appear in stored events of an owner (manager_created carries the owner). */
  managersOfOwner(owner: string): string[] {
    const rows = this.db
      .prepare(`SELECT DISTINCT margin_manager_id AS id FROM margin_events
        WHERE type LIKE '%manager_created' AND json_valid(data) AND json_extract(data, '$.owner') = ?`)
      .all(owner) as Array<{ id: string | null }>;
    return rows.map((r) => r.id).filter((x): x is string => x !== null);
  }
}
