import type { CoreBus } from '../events';
import { describeStoreError } from './store-errors';

/**
 * Whether the store accepts writes, in plain words for the status: the margin stream publishes
 * its own failed commits (`marginStoreChanged`); cache, alert, pool-stream and liquidation-map
 * writes report here, each under its source ("cache", "alerts", "pool:SUI_USDC", "liquidation
 * map"), so one that works again does not clear another that still fails. A new failure is
 * published once (`storeFailed`: the alert engine raises its alert), every change as
 * `storeHealthChanged` (the status).
 */
export class StoreHealth {
  /** Source -> why its last write failed; a source is removed once a write of it works. */
  private readonly failing = new Map<string, string>();
  /** Why the margin stream's commits fail, as it last said; null while they work. */
  private marginFailure: string | null = null;
  private shown: string | null = null;

  constructor(private readonly events: Pick<CoreBus, 'on' | 'emit'>) {
    events.on('marginStoreChanged', ({ failure }) => {
      this.marginFailure = failure;
      this.changed();
    });
  }

  /** "cannot write to the store: disk full", or null. */
  current(): string | null {
    return this.marginFailure ?? this.failing.values().next().value ?? null;
  }

  /** A write of `source` failed. */
  noteError(err: unknown, source = 'cache'): void {
    this.failing.set(source, describeStoreError(err));
    this.changed();
  }

  /** A write of `source` worked. */
  noteOk(source = 'cache'): void {
    if (!this.failing.delete(source)) return;
    this.changed();
  }

  /** A write of `source` worked (`err` undefined) or failed. */
  note(err?: unknown, source = 'cache'): void {
    if (err === undefined) this.noteOk(source);
    else this.noteError(err, source);
  }

  /** Run a write that may fail (disk full): noted here instead of thrown. */
  guard(write: () => void): void {
    try {
      write();
      this.noteOk();
    } catch (err) {
      this.noteError(err);
    }
  }

  /** Something changed: publish a new failure, and the change. */
  private changed(): void {
    const now = this.current();
    if (now !== null && now !== this.shown) this.events.emit('storeFailed', { reason: now });
    this.shown = now;
    this.events.emit('storeHealthChanged', { error: now });
  }
}
