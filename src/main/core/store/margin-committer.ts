import type { IncomingMarginEvent, MarginEventRepo } from './margin-events';
import { describeStoreError } from './store-errors';

/** Where the margin stream's batches are committed with their cursor. */
export interface MarginCommitter {
  /** Store a batch and move the cursor in one transaction: the new events, or a rejection saying why (`StoreWriteError`). */
  commit(events: IncomingMarginEvent[]): Promise<IncomingMarginEvent[]>;
  /** After a failed commit nothing more is written until this (the failed batch is written again first). */
  resume(): void;
  /** Every batch handed over so far is settled. */
  idle(): Promise<void>;
  /**
   * Undefined while few events wait to be committed; else what resolves once the writer has
   * caught up: a reader faster than the disk waits for it (memory stays bounded).
   */
  room(): Promise<void> | undefined;
  /** The app's connection recorded these managers' owners (MarginEventRepo.onOwnersNoted). */
  ownersNoted(managerIds: string[]): void;
  /** A pragma for the connection that commits (the WAL checkpoint threshold; tests fill the disk with `max_page_count`). */
  pragma(text: string): void;
  close(): Promise<void>;
}

/** A commit that failed: `reason` in plain words (store-errors.ts), SQLite's or the system's code kept. */
export class StoreWriteError extends Error {
  constructor(
    readonly reason: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Commits in the calling thread: an in-memory store, or when no thread could start. Like the
 * thread, it writes nothing after a failed commit until `resume` (a batch may be handed over
 * before the failure's rejection is seen).
 */
export class InlineCommitter implements MarginCommitter {
  private failure: string | null = null;

  constructor(private readonly repo: MarginEventRepo) {}

  /** A commit failed and `resume` has not been called since. */
  get stopped(): boolean {
    return this.failure !== null;
  }

  async commit(events: IncomingMarginEvent[]): Promise<IncomingMarginEvent[]> {
    return this.commitNow(events);
  }

  /** The commit itself, synchronous (the writer thread's too): throws the store's error, or `SKIPPED` after a failure. */
  commitNow(events: IncomingMarginEvent[], now = Date.now()): IncomingMarginEvent[] {
    if (this.failure !== null)
      throw new StoreWriteError(this.failure, 'SKIPPED', 'not written: an earlier batch failed');
    try {
      return this.repo.commit(events, now);
    } catch (err) {
      this.failure = describeStoreError(err);
      throw err;
    }
  }

  /** Why the last commit failed, while stopped. */
  get reason(): string | null {
    return this.failure;
  }

  resume(): void {
    this.failure = null;
  }

  async idle(): Promise<void> {}

  room(): undefined {
    return undefined;
  }

  ownersNoted(): void {}

  pragma(): void {}

  async close(): Promise<void> {}
}
