import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { ResponseCache } from './cache-repo';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer';
import { openDatabase, openReader, openReadOnly, WAL_AUTOCHECKPOINT_PAGES } from './database';
import { GapRepo } from './gap-repo';
import { keepHeapSmall } from './heap-limits';
import { MarginEventRepo } from './margin-events';
import { MarketRepo } from './market-repo';
import { InlineCommitter, type MarginCommitter } from './margin-committer';
import { MarginWriter } from './margin-writer';
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
  /** Where the margin stream commits: a thread of its own for a store on disk (store/margin-writer.ts). */
  marginWriter: MarginCommitter;
  private checkpointer: Checkpointer | undefined;

  private constructor(
    readonly db: Database.Database,
    /** Set when the previous file was unusable and moved aside. */
    readonly notice: string | null,
    /** Live events' own mapped connection (database.ts, openReader), for a store on disk. */
    private readonly reader?: Database.Database,
  ) {
    this.margin = new MarginEventRepo(db, reader);
    this.market = new MarketRepo(db);
    this.cache = new ResponseCache(db);
    this.settings = new SettingsRepo(db);
    this.risk = new RiskAlertRepo(db);
    this.gaps = new GapRepo(db);
    this.marginWriter = new InlineCommitter(this.margin);
  }

  /**
   * Open the store in `dataDir`, with WAL checkpoints off the writer's thread (store/checkpointer.ts),
   * the margin stream's commits on a thread of their own (store/margin-writer.ts), in a process whose heap
   * stays small under a stream (store/heap-limits.ts).
   */
  static open(dataDir: string, log?: (line: string) => void): Store {
    keepHeapSmall();
    const file = join(dataDir, STORE_FILE);
    const { db, recovered } = openDatabase(file);
    const notice = recovered
      ? `The local store could not be used (${recovered.reason}). It was moved to ${recovered.movedTo} and a new one was started; cached history starts again from now.`
      : null;
    const store = new Store(db, notice, Store.reader(file, log));
    // Any trouble of the checkpointer (it did not start, stopped, or its checkpoints keep failing)
    // gives the writer its own checkpoints back at the usual threshold.
    store.checkpointer = Checkpointer.start(file, (line) => {
      log?.(line);
      if (db.open) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      store.marginWriter.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    });
    const autocheckpoint = store.checkpointer ? FALLBACK_AUTOCHECKPOINT_PAGES : WAL_AUTOCHECKPOINT_PAGES;
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    store.marginWriter = MarginWriter.start(file, autocheckpoint, store.margin, log);
    store.margin.onOwnersNoted = (ids) => store.marginWriter.ownersNoted(ids);
    return store;
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
  }
}
