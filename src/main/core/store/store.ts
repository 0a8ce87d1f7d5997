import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { ResponseCache } from './cache-repo';
import { openDatabase, openReadOnly } from './database';
import { GapRepo } from './gap-repo';
import { MarginEventRepo } from './margin-events';
import { MarketRepo } from './market-repo';
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

  private constructor(
    readonly db: Database.Database,
    /** Set when the previous file was unusable and moved aside. */
    readonly notice: string | null,
  ) {
    this.margin = new MarginEventRepo(db);
    this.market = new MarketRepo(db);
    this.cache = new ResponseCache(db);
    this.settings = new SettingsRepo(db);
    this.risk = new RiskAlertRepo(db);
    this.gaps = new GapRepo(db);
  }

  static open(dataDir: string): Store {
    const { db, recovered } = openDatabase(join(dataDir, STORE_FILE));
    const notice = recovered
      ? `The local store could not be used (${recovered.reason}). It was moved to ${recovered.movedTo} and a new one was started; cached history starts again from now.`
      : null;
    return new Store(db, notice);
  }

  static openInMemory(): Store {
    const { db } = openDatabase(':memory:');
    return new Store(db, null);
  }

  /** A read-only view of a store another process may be writing (exports). */
  static openReadOnly(dataDir: string): Store {
    return new Store(openReadOnly(join(dataDir, STORE_FILE)), null);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
