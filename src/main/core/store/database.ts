import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations';

export interface OpenResult {
  db: Database.Database;
  /** Set when the previous file could not be used: where it went and why. */
  recovered?: { movedTo: string; reason: string };
}

/** The writer's own WAL checkpoint threshold (pages of 4 KB), when no checkpointer runs beside it. */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

/**
 * How much of the store Live events reads through a memory map rather than a read() per page.
 * A query by manager reads ~200 pages scattered over the file, and a page mapped costs no read()
 * and no copy (docs/operations.md, Live events' own connection, has the figures). The price SQLite
 * names: an I/O error on a mapped page is a signal, not an error it can report. So only the
 * reading connection maps (openReader), opened after `quick_check` has read every page of the file
 * without one (at open, or off the thread for a file closed cleanly: Store.open), which is what
 * Chromium checks before it maps a database. The app's own connection keeps read(): a catch-up it
 * commits would touch every page it wrote beside through the map, in the process's memory.
 */
export const MMAP_BYTES = 1024 * 1024 * 1024;

/** Every read-write connection to the store: the app's own and the margin writer thread's. */
export function configure(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL survives a crash of the process (SIGKILL) without losing committed data.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A page cache for the hot indexes of a store of millions of events (default: 2 MB). 16 MB: the
  // Live events queries are as fast as with 32 MB, and a catch-up (whose first seconds commit here
  // before the writer thread starts) peaks lower (docs/operations.md, Memory, has the figures).
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  // Checkpoint the WAL every ~16 MB rather than every 4 MB, and keep its file from growing unbounded.
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma('journal_size_limit = 67108864');
}

function check(db: Database.Database): void {
  const result = db.pragma('quick_check', { simple: true });
  if (result !== 'ok') throw new Error(`quick_check: ${String(result)}`);
}

/** Beside the store file while no run has it open, left by a run that closed it cleanly after its check passed. */
const CLEAN_MARK = '.closed-cleanly';

/**
 * Whether the last run closed the file cleanly after its check passed; the mark is taken away,
 * so a run that dies leaves none and the next start checks the file.
 */
export function takeCleanMark(file: string): boolean {
  const mark = file + CLEAN_MARK;
  if (!existsSync(mark)) return false;
  try {
    rmSync(mark);
    return true;
  } catch {
    return false; // a mark that stays would skip every later check: check now instead
  }
}

/** Leave the mark once the file is closed (its next start need not check it before it opens). */
export function leaveCleanMark(file: string): void {
  try {
    writeFileSync(file + CLEAN_MARK, '');
  } catch {
    // without it the next start checks the file, as after a crash
  }
}

/**
 * Open (or create) the store. A file that cannot be opened, fails `quick_check` or cannot be
 * migrated is moved aside with a timestamp and a fresh one is started; the caller tells the user.
 * `checked: false` leaves out `quick_check` (a file the last run closed cleanly: Store.open has
 * it checked off this thread instead).
 */
export function openDatabase(file: string, now = new Date(), checked = true): OpenResult {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    configure(db);
    if (checked) check(db);
    migrate(db);
    return { db };
  } catch (err) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    if (file === ':memory:') throw err;
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const movedTo = `${file}.broken-${stamp}`;
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
    }
    const fresh = new Database(file);
    configure(fresh);
    migrate(fresh);
    return { db: fresh, recovered: { movedTo, reason: (err as Error).message } };
  }
}

/**
 * A second connection to an open store for Live events' reads (MarginEventRepo.list, byIds),
 * through a memory map (MMAP_BYTES); it never writes. Open it only after `openDatabase` has
 * checked the file.
 */
export function openReader(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('query_only = ON');
  // Its pages come through the map: the page cache holds little (default 2 MB).
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  return db;
}

/** Read-only access for exports while `serve` writes (WAL lets both proceed). */
export function openReadOnly(file: string): Database.Database {
  if (!existsSync(file))
    throw new Error(`no store at ${file}: run \`tidewatch serve --data-dir\` with that folder first`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}
