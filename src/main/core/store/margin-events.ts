import type Database from 'better-sqlite3';
import type { StoredMarginEvent } from '../../../shared/contract';

/** One message of the margin stream as received, before it is stored: `data` is the JSON text of the payload. */
export type IncomingMarginEvent = Omit<StoredMarginEvent, 'data' | 'received_at'> & {
  /** The `data` object as JSON text (or the whole raw message when it was not an envelope). */
  data: string;
};

export interface MarginEventFilter {
  type?: string;
  managerId?: string;
  /** Only events of this owner's managers. */
  owner?: string;
  /** Stream time (the id's milliseconds), inclusive. */
  fromMs?: number;
  toMs?: number;
  beforeId?: string;
  limit?: number;
}

const STREAM = 'margin';
/** `seq` of recovered rows: after every stream event of the same millisecond (each its own, counting up). */
const RECOVERED_SEQ = 2 ** 31;

/** The columns every read returns. */
const COLUMNS =
  'id, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered';

/** `<ms>-<seq>` as numbers; null for ids of another shape (kept, but not ordered by). */
export function splitId(id: string): { ms: number; seq: number } | null {
  // By hand rather than by a regular expression: it runs for every event of a busy stream.
  const dash = id.indexOf('-');
  if (dash < 1 || dash > 16 || id.length - dash - 1 < 1 || id.length - dash - 1 > 16) return null;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (i !== dash && (c < 48 || c > 57)) return null;
  }
  return { ms: Number(id.slice(0, dash)), seq: Number(id.slice(dash + 1)) };
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
 * The margin stream's events keyed by their stream id, and the stream's cursor. A batch and the cursor
 * commit in one transaction, so a crash never loses or repeats an event; a repeated id is ignored.
 */
export class MarginEventRepo {
  private poolsOfManagers: Database.Statement | undefined;
  private readonly insert: Database.Statement;
  private readonly recoveredFind: Database.Statement;
  private readonly anyFind: Database.Statement;
  private readonly deleteById: Database.Statement;
  private readonly insertRecovered: Database.Statement;
  private readonly insertRecoveredOwner: Database.Statement;
  private readonly cursorGet: Database.Statement;
  private readonly cursorSet: Database.Statement;
  private readonly midGet: Database.Statement;
  private readonly midPut: Database.Statement;
  private readonly managerGet: Database.Statement;
  private readonly managerSet: Database.Statement;
  private readonly widGet: Database.Statement;
  private readonly widPut: Database.Statement;
  private readonly ownerBackfill: Database.Statement;
  /** manager id -> mid, owner -> wid: every event needs them, the tables rarely change. */
  private readonly mids = new Map<string, number>();
  private readonly wids = new Map<string, number>();
  /** mid -> the owner's wid (null: not known yet). */
  private readonly ownerWids = new Map<number, number | null>();
  private readonly recoveredSeq: Database.Statement;
  private readonly positionOf: Database.Statement;
  /** Prepared Live events queries, by their SQL (a handful of shapes: which filters are present). */
  private readonly lists = new Map<string, Database.Statement>();
  private idsFind: Database.Statement | undefined;
  private readonly commitBatch: (events: IncomingMarginEvent[], now: number) => IncomingMarginEvent[];

  /** Called with the managers whose owner `noteOwners` recorded (the margin writer's thread hears of them: `ownersNotedElsewhere`). */
  onOwnersNoted: ((managerIds: string[]) => void) | undefined;
  /** `reader`: where Live events' lists are read (a mapped connection of its own, Store.open), else `db`. */
  constructor(
    private readonly db: Database.Database,
    private reader: Database.Database = db,
  ) {
    this.insert = db.prepare(`INSERT OR IGNORE INTO margin_events
      (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, mid, wid)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.midGet = db.prepare('SELECT mid FROM managers WHERE manager_id = ?').pluck();
    this.midPut = db.prepare('INSERT OR IGNORE INTO managers (manager_id) VALUES (?)');
    this.managerGet = db.prepare('SELECT owner, dex_pool_id FROM managers WHERE mid = ?');
    this.managerSet = db.prepare('UPDATE managers SET owner = ?, dex_pool_id = coalesce(?, dex_pool_id) WHERE mid = ?');
    this.widGet = db.prepare('SELECT wid FROM owners WHERE owner = ?').pluck();
    this.widPut = db.prepare('INSERT OR IGNORE INTO owners (owner) VALUES (?)');
    this.ownerBackfill = db.prepare('UPDATE margin_events SET wid = ? WHERE mid = ? AND wid IS NULL');
    this.recoveredSeq = db
      .prepare('SELECT coalesce(max(seq) + 1, ?) FROM margin_events WHERE ms = ? AND seq >= ?')
      .pluck();
    this.positionOf = db.prepare('SELECT ms, seq FROM margin_events WHERE id = ?');
    this.recoveredFind = db.prepare(
      'SELECT id FROM margin_events WHERE recovered = 1 AND tx_hash = ? AND margin_manager_id = ?',
    );
    this.anyFind = db.prepare(
      'SELECT 1 FROM margin_events WHERE tx_hash = ? AND margin_manager_id = ? AND type = ? LIMIT 1',
    );
    this.deleteById = db.prepare('DELETE FROM margin_events WHERE id = ?');
    this.insertRecovered = db.prepare(`INSERT OR IGNORE INTO margin_events
      (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered)
      VALUES (@id, @ms, @seq, @type, @timestamp_ms, @checkpoint_id, @tx_hash, @margin_manager_id, @data, 1, NULL, @received_at, 1)`);
    this.insertRecoveredOwner = db.prepare('UPDATE margin_events SET mid = ?, wid = ? WHERE id = ?');
    this.cursorGet = db.prepare('SELECT last_id FROM stream_cursors WHERE stream = ?');
    this.cursorSet = db.prepare(`INSERT INTO stream_cursors (stream, last_id, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (stream) DO UPDATE SET last_id = excluded.last_id, updated_at = excluded.updated_at`);
    // Write transactions here read first: IMMEDIATE takes the write lock at BEGIN (waiting busy_timeout), where a deferred
    // one whose snapshot another connection (writer thread, app) moved past fails at its first write: "database is locked".
    this.commitBatch = db.transaction((events: IncomingMarginEvent[], now: number) => {
      const stored: IncomingMarginEvent[] = [];
      let cursor = (this.cursorGet.get(STREAM) as { last_id: string } | undefined)?.last_id;
      // Each id is split once; the cursor's parts are kept beside it.
      let at = cursor === undefined ? null : splitId(cursor);
      for (const e of events) {
        const parts = splitId(e.id);
        // The stream's own copy of a liquidation recovered over REST replaces it, and is not new (only liquidations are recovered).
        const stand =
          e.tx_hash && e.margin_manager_id && e.type.endsWith('liquidation')
            ? (this.recoveredFind.get(e.tx_hash, e.margin_manager_id) as { id: string } | undefined)
            : undefined;
        if (stand) this.deleteById.run(stand.id);
        const ids = this.idsFor(e);
        const info = this.insert.run(
          e.id,
          parts?.ms ?? null,
          parts?.seq ?? null,
          e.type,
          e.timestamp_ms,
          e.checkpoint_id,
          e.tx_hash,
          e.margin_manager_id,
          e.data,
          e.valid ? 1 : 0,
          e.problem,
          now,
          ids.mid,
          ids.wid,
        );
        if (info.changes > 0 && !stand) stored.push(e);
        if (parts) {
          if (at === null || parts.ms > at.ms || (parts.ms === at.ms && parts.seq > at.seq)) {
            cursor = e.id;
            at = parts;
          }
        } else if (info.changes > 0 && !e.id.startsWith('noid-') && (cursor === undefined || at === null)) {
          // Ids of another shape cannot be compared: the newest new one, in arrival order, resumes.
          cursor = e.id;
        }
      }
      if (cursor !== undefined) this.cursorSet.run(STREAM, cursor, now);
      return stored;
    }).immediate;
  }

  /** Store a batch and move the cursor, in one transaction; returns the events that were new. */
  commit(events: IncomingMarginEvent[], now = Date.now()): IncomingMarginEvent[] {
    if (events.length === 0) return [];
    return this.rollingBack(() => this.commitBatch(events, now));
  }

  /** A write that failed was rolled back: so are the ids it may have cached (a new manager's mid). */
  private rollingBack<T>(write: () => T): T {
    try {
      return write();
    } catch (err) {
      this.mids.clear();
      this.wids.clear();
      this.ownerWids.clear();
      throw err;
    }
  }

  /**
   * Liquidations fetched over REST for a span the stream could not replay: each is stored unless
   * a row of the same type, transaction and manager exists; the cursor does not move. Returns the new ones.
   */
  addRecovered(events: IncomingMarginEvent[], now = Date.now()): IncomingMarginEvent[] {
    return this.rollingBack(
      this.db.transaction(() => {
        const fresh: IncomingMarginEvent[] = [];
        for (const e of events) {
          if (e.tx_hash && e.margin_manager_id && this.anyFind.get(e.tx_hash, e.margin_manager_id, e.type)) continue;
          // Ordered by their time, after any stream event of the same millisecond, each its own place.
          const seq = this.recoveredSeq.get(RECOVERED_SEQ, e.timestamp_ms, RECOVERED_SEQ) as number;
          const info = this.insertRecovered.run({ ...e, ms: e.timestamp_ms, seq, received_at: now });
          if (info.changes > 0) {
            const ids = this.idsFor(e);
            this.insertRecoveredOwner.run(ids.mid, ids.wid, e.id);
            fresh.push(e);
          }
        }
        return fresh;
      }).immediate,
    );
  }

  /** The checkpoint of the event at the cursor: where a recovery over REST starts. */
  lastCheckpoint(): number | null {
    const cursor = this.cursor();
    if (cursor === undefined) return null;
    const row = this.db.prepare('SELECT checkpoint_id AS c FROM margin_events WHERE id = ?').get(cursor) as
      { c: number | null } | undefined;
    return row?.c ?? null;
  }

  /** When the cursor last moved (ms), if it ever did. */
  cursorUpdatedAt(): number | undefined {
    return (
      this.db.prepare('SELECT updated_at FROM stream_cursors WHERE stream = ?').get(STREAM) as
        { updated_at: number } | undefined
    )?.updated_at;
  }

  cursor(): string | undefined {
    return (this.cursorGet.get(STREAM) as { last_id: string } | undefined)?.last_id;
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM margin_events').get() as { n: number }).n;
  }

  /** Read Live events' lists from `reader` from now on (a mapped connection opened once the file is checked). */
  readFrom(reader: Database.Database): void {
    this.reader = reader;
    this.lists.clear();
    this.idsFind = undefined;
  }

  /**
   * Newest first, filtered; `beforeId` pages backwards. Each shape is one index range in
   * (ms, seq) order (migration 4): no scan of all rows, no sort (EXPLAIN QUERY PLAN is pinned by
   * a test).
   */
  list(f: MarginEventFilter = {}): StoredMarginEvent[] {
    const q = this.query(f);
    let stmt = this.lists.get(q.sql);
    if (!stmt) {
      stmt = this.reader.prepare(q.sql);
      this.lists.set(q.sql, stmt);
    }
    return (stmt.all(q.params) as Row[]).map(toStored);
  }

  /** The stored events of these ids, in the order asked; an id not stored is left out. */
  byIds(ids: readonly string[]): StoredMarginEvent[] {
    this.idsFind ??= this.reader.prepare(
      `SELECT ${COLUMNS} FROM margin_events WHERE id IN (SELECT value FROM json_each(?))`,
    );
    const found = new Map((this.idsFind.all(JSON.stringify(ids)) as Row[]).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = found.get(id);
      return r ? [toStored(r)] : [];
    });
  }

  /** How SQLite runs `list(f)`: the EXPLAIN QUERY PLAN lines (a test pins them). */
  plan(f: MarginEventFilter = {}): string[] {
    const q = this.query(f);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(q.params) as Array<{ detail: string }>).map(
      (r) => r.detail,
    );
  }

  private query(f: MarginEventFilter): { sql: string; params: Record<string, unknown> } {
    const params: Record<string, unknown> = { limit: f.limit ?? 200 };
    const where: string[] = [];
    if (f.type) {
      where.push('type = @type');
      params['type'] = f.type;
    }
    if (f.managerId) {
      // An unknown manager or owner has no events: -1 matches nothing, and keeps the plan the same.
      where.push('mid = @mid');
      params['mid'] = this.knownMid(f.managerId) ?? -1;
    }
    if (f.owner) {
      where.push('wid = @wid');
      params['wid'] = this.knownWid(f.owner) ?? -1;
    }
    if (f.fromMs !== undefined) {
      where.push('ms >= @fromMs');
      params['fromMs'] = f.fromMs;
    }
    if (f.toMs !== undefined) {
      where.push('ms <= @toMs');
      params['toMs'] = f.toMs;
    }
    if (f.beforeId) {
      // Any stored id (recovered ones too) pages by where it sits; an unknown id by its own numbers.
      const at =
        (this.positionOf.get(f.beforeId) as { ms: number | null; seq: number | null } | undefined) ??
        splitId(f.beforeId);
      if (at && at.ms !== null && at.seq !== null) {
        where.push('(ms, seq) < (@bms, @bseq)');
        params['bms'] = at.ms;
        params['bseq'] = at.seq;
      }
    }
    const sql = `SELECT ${COLUMNS} FROM margin_events ${listIndex(f)} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ms DESC, seq DESC LIMIT @limit`;
    return { sql, params };
  }

  /**
   * Owners of managers learnt elsewhere (the REST margin managers): kept, and written onto the
   * manager's stored events that did not know it yet (its manager_created event predates the store).
   */
  noteOwners(managers: ReadonlyArray<{ id: string; owner: string; dexPoolId?: string | null }>): void {
    if (managers.length === 0) return;
    const noted: string[] = [];
    this.rollingBack(
      this.db.transaction(() => {
        for (const m of managers) {
          const mid = this.midOf(m.id);
          const known = this.managerGet.get(mid) as { owner: string | null } | undefined;
          if (known?.owner === m.owner) continue;
          this.managerSet.run(m.owner, m.dexPoolId ?? null, mid);
          const wid = this.widOf(m.owner);
          this.ownerBackfill.run(wid, mid);
          this.ownerWids.set(mid, wid);
          noted.push(m.id);
        }
      }).immediate,
    );
    if (noted.length > 0) this.onOwnersNoted?.(noted);
  }

  /**
   * Another connection recorded these managers' owners (`noteOwners` on the app's; this is the writer
   * thread's): what this one remembered as "owner unknown" is forgotten, and its rows of them get the owner.
   */
  ownersNotedElsewhere(managerIds: readonly string[]): void {
    this.rollingBack(
      this.db.transaction(() => {
        for (const id of managerIds) {
          const mid = this.mids.get(id);
          if (mid === undefined || this.ownerWids.get(mid) !== null) continue;
          const owner = (this.managerGet.get(mid) as { owner: string | null } | undefined)?.owner;
          if (!owner) continue;
          const wid = this.widOf(owner);
          this.ownerBackfill.run(wid, mid);
          this.ownerWids.set(mid, wid);
        }
      }).immediate,
    );
  }

  /** The manager's and its owner's ids for an event; an event that names the owner (manager_created, recovered rows) records it. */
  private idsFor(e: IncomingMarginEvent): { mid: number | null; wid: number | null } {
    if (!e.margin_manager_id) return { mid: null, wid: null };
    const mid = this.midOf(e.margin_manager_id);
    if (e.type.endsWith('manager_created') || e.recovered) {
      const named = fieldNamed(e.data, 'owner');
      if (named) {
        const wid = this.widOf(named);
        if (e.type.endsWith('manager_created')) {
          this.managerSet.run(named, fieldNamed(e.data, 'dex_pool_id'), mid);
          this.ownerWids.set(mid, wid);
        }
        return { mid, wid };
      }
    }
    let wid = this.ownerWids.get(mid);
    if (wid === undefined) {
      const owner = (this.managerGet.get(mid) as { owner: string | null } | undefined)?.owner;
      wid = owner ? this.widOf(owner) : null;
      this.ownerWids.set(mid, wid);
    }
    return { mid, wid };
  }

  private midOf(managerId: string): number {
    return idOf(this.mids, managerId, this.midPut, this.midGet);
  }

  private widOf(owner: string): number {
    return idOf(this.wids, owner, this.widPut, this.widGet);
  }

  private knownMid(managerId: string): number | undefined {
    return this.mids.get(managerId) ?? (this.midGet.get(managerId) as number | undefined);
  }

  private knownWid(owner: string): number | undefined {
    return this.wids.get(owner) ?? (this.widGet.get(owner) as number | undefined);
  }

  /** Every stored event, oldest first (exports). */
  *iterate(): IterableIterator<StoredMarginEvent> {
    const stmt = this.db.prepare(`SELECT ${COLUMNS} FROM margin_events ORDER BY ms IS NULL, ms, seq, rowid`);
    for (const row of stmt.iterate() as IterableIterator<Row>) yield toStored(row);
  }

  /** The exchange pool of each manager, where it is known (its manager_created event, or REST). */
  dexPoolsOfManagers(ids: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    if (ids.length === 0) return out;
    // One statement for any number of ids (an IN list of N placeholders is a new statement to prepare each time).
    this.poolsOfManagers ??= this.db.prepare(
      'SELECT manager_id AS id, dex_pool_id AS pool FROM managers WHERE manager_id IN (SELECT value FROM json_each(?))',
    );
    const rows = this.poolsOfManagers.all(JSON.stringify(ids)) as Array<{ id: string; pool: string | null }>;
    for (const r of rows) if (r.pool) out.set(r.id, r.pool);
    return out;
  }

  /** The owner of a manager, where it is known. */
  ownerOfManager(managerId: string): string | undefined {
    return (
      (this.db.prepare('SELECT owner FROM managers WHERE manager_id = ?').pluck().get(managerId) as
        string | null | undefined) ?? undefined
    );
  }

  /** The managers of an owner that the store knows. */
  managersOfOwner(owner: string): string[] {
    return this.db.prepare('SELECT manager_id FROM managers WHERE owner = ?').pluck().all(owner) as string[];
  }
}

/** The index each shape reads (the planner picks it anyway; naming it keeps a wrong guess from a sort). */
function listIndex(f: MarginEventFilter): string {
  if (f.managerId) return 'INDEXED BY margin_events_manager_order';
  if (f.owner) return 'INDEXED BY margin_events_owner_order';
  if (f.type) return 'INDEXED BY margin_events_type_order';
  return 'INDEXED BY margin_events_order';
}

/** The integer id of a manager or owner: from the cache, else created (INSERT OR IGNORE) and read back. */
function idOf(cache: Map<string, number>, key: string, put: Database.Statement, get: Database.Statement): number {
  let id = cache.get(key);
  if (id === undefined) {
    put.run(key);
    id = get.get(key) as number;
    cache.set(key, id);
  }
  return id;
}

/** A string field of an event's JSON data, or null. */
function fieldNamed(data: string, field: 'owner' | 'dex_pool_id'): string | null {
  try {
    const v = (JSON.parse(data) as Record<string, unknown>)[field];
    return typeof v === 'string' && v.length > 0 ? v : null;
  } catch {
    return null;
  }
}
