import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { CoreBus } from '../events';
import { ResponseCache } from './cache-repo';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer';
import {
  leaveCleanMark,
  openDatabase,
  openReader,
  openReadOnly,
  takeCleanMark,
  WAL_AUTOCHECKPOINT_PAGES,
} from './database';
import { GapRepo } from './gap-repo';
import { keepHeapSmall } from './heap-limits';
import { MarginEventRepo } from './margin-events';
import { MarketRepo } from './market-repo';
import { InlineCommitter, type MarginCommitter } from './margin-committer';
import { MarginWriter } from './margin-writer';
import { LiquidationMapRepo } from './liquidation-map-repo';
import { PoolHealthRepo } from './pool-health-repo';
import { RiskAlertRepo } from './risk-alert-repo';
import { SettingsRepo } from './settings-repo';

export const STORE_FILE = 'tidewatch.sqlite';

/** The local store: one SQLite file in the data folder, one repository per concern. */
export class Store {
  readonly margin: MarginEventRepo;
  readonly market: MarketRepo;
  readonly cache: ResponseCache;
  readonly settings: SettingsRepo;
  readonly risk: RiskAlertRepo;
  readonly gaps: GapRepo;
  /** Each margin pool's utilization and rates at each read (risk/pool-health.ts). */
  readonly pools: PoolHealthRepo;
  /** Every pool's liquidation map as last read (risk/liquidation-map.ts). */
  readonly liquidationMap: LiquidationMapRepo;
  /** Where the margin stream commits: a thread of its own for a store on disk (store/margin-writer.ts). */
  marginWriter: MarginCommitter;
  private checkpointer: Checkpointer | undefined;
  /** The file on disk, once its check passed in this run: a clean shutdown then leaves its mark (database.ts). */
  private checkedFile: string | undefined;
  /** Where a notice found after the open is published (`storeDamageFound`: the check off the thread found damage). */
  private events: Pick<CoreBus, 'emit'> | undefined;

  private constructor(
    readonly db: Database.Database,
    /**
     * For the user, or null: the previous file was unusable and moved aside, or the check off
     * the thread found damage (the next start moves it aside).
     */
    private noticeText: string | null,
    /** Live events' own mapped connection (database.ts, openReader), for a store on disk. */
    private reader?: Database.Database,
  ) {
    this.margin = new MarginEventRepo(db, reader);
    this.market = new MarketRepo(db);
    this.cache = new ResponseCache(db);
    this.settings = new SettingsRepo(db);
    this.risk = new RiskAlertRepo(db);
    this.gaps = new GapRepo(db);
    this.pools = new PoolHealthRepo(db);
    this.liquidationMap = new LiquidationMapRepo(db);
    this.marginWriter = new InlineCommitter(this.margin);
  }

  get notice(): string | null {
    return this.noticeText;
  }

  /**
   * Open the store in `dataDir`, with WAL checkpoints off the writer's thread (store/checkpointer.ts),
   * the margin stream's commits on a thread of their own (store/margin-writer.ts), in a process whose heap
   * stays small under a stream (store/heap-limits.ts). Damage the check off the thread finds is
   * published on `events`.
   */
  static open(dataDir: string, log?: (line: string) => void, events?: Pick<CoreBus, 'emit'>): Store {
    keepHeapSmall();
    const file = join(dataDir, STORE_FILE);
    // A file the last run closed cleanly is checked off this thread, by the checkpointer: the
    // check reads every page, and a start waited for it (docs/operations.md, The store's check at start).
    // After a crash, or without the mark, it is checked here first, as before.
    const cleanly = takeCleanMark(file);
    const { db, recovered } = openDatabase(file, new Date(), !cleanly);
    const notice = recovered
      ? `The local store could not be used (${recovered.reason}). It was moved to ${recovered.movedTo} and a new one was started; cached history starts again from now.`
      : null;
    const store = new Store(db, notice, cleanly ? undefined : Store.reader(file, log));
    store.events = events;
    if (!cleanly) store.checkedFile = file;
    // Any trouble of the checkpointer (it did not start, stopped, or its checkpoints keep failing)
    // gives the writer its own checkpoints back at the usual threshold.
    const trouble = (line: string): void => {
      log?.(line);
      if (db.open) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      store.marginWriter.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    };
    const checked = cleanly ? (answer: string) => store.checkedOffThread(file, answer, log) : undefined;
    store.checkpointer = Checkpointer.start(file, trouble, undefined, checked);
    // Without a checkpointer the file stays unchecked in this run: Live events read on the app's
    // connection, and no mark is left, so the next start checks it first.
    const autocheckpoint = store.checkpointer ? FALLBACK_AUTOCHECKPOINT_PAGES : WAL_AUTOCHECKPOINT_PAGES;
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    store.marginWriter = MarginWriter.start(file, autocheckpoint, store.margin, log);
    store.margin.onOwnersNoted = (ids) => store.marginWriter.ownersNoted(ids);
    return store;
  }

  /**
   * The checkpointer's answer for a file opened unchecked: once it passed, Live events read through
   * their mapped connection (only a file read once without an I/O error is mapped: database.ts).
   */
  private checkedOffThread(file: string, answer: string, log?: (line: string) => void): void {
    if (!this.db.open) return;
    if (answer !== 'ok') {
      log?.(
        `store: the local store's check found damage (${answer}); the next start moves it aside and starts a fresh one`,
      );
      this.noticeText =
        'The local store is damaged. Quit Tidewatch and start it again: the damaged file is then moved aside and a new one started (cached history starts again from then).';
      this.events?.emit('storeDamageFound', { notice: this.noticeText });
      return;
    }
    this.checkedFile = file;
    const reader = Store.reader(file, log);
    if (!reader) return;
    this.reader = reader;
    this.margin.readFrom(reader);
  }

  /** Live events' mapped connection; without one (it could not open) they read on the app's. */
  private static reader(file: string, log?: (line: string) => void): Database.Database | undefined {
    try {
      return openReader(file);
    } catch (err) {
      log?.(`store: Live events read on the app's connection (${(err as Error).message})`);
      return undefined;
    }
  }

  static openInMemory(): Store {
    const { db } = openDatabase(':memory:');
    return new Store(db, null);
  }

  /** A read-only view of a store another process may be writing (exports). */
  static openReadOnly(dataDir: string): Store {
    return new Store(openReadOnly(join(dataDir, STORE_FILE)), null);
  }

  /** The process that copies the WAL into the file, when it is one (benchmarks count its writes). */
  get checkpointerPid(): number | undefined {
    return this.checkpointer?.pid;
  }

  close(): void {
    void this.marginWriter.close();
    void this.checkpointer?.close();
    this.checkpointer = undefined;
    if (this.reader?.open) this.reader.close();
    if (this.db.open) this.db.close();
  }

  /**
   * Close with the margin writer's and the checkpointer's connections closed first (the writer's
   * after every batch handed to it is committed), so this one does the last checkpoint and
   * removes the WAL.
   */
  async shutdown(): Promise<void> {
    await this.marginWriter.close();
    const c = this.checkpointer;
    this.checkpointer = undefined;
    await c?.close();
    this.close();
    if (this.checkedFile !== undefined) leaveCleanMark(this.checkedFile);
  }
}
