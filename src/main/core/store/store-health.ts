import { describeStoreError } from './store-errors';

/**
 * Whether the store accepts writes, in plain words for the status: the margin stream reports its
 * own failed commits; cache, alert and pool-stream writes report here, each under its source
 * ("cache", "alerts", "pool:SUI_USDC"), so one that works again does not clear another that still
 * fails. A new failure raises one alert.
 */
export class StoreHealth {
  /** Source -> why its last write failed; a source is removed once a write of it works. */
  private readonly failing = new Map<string, string>();
  private shown: string | null = null;

  constructor(
    private readonly marginFailure: () => string | null,
    private readonly onFailure: (reason: string) => void,
    private readonly onChange: () => void,
  ) {}

  /** "cannot write to the store: disk full", or null. */
  current(): string | null {
    return this.marginFailure() ?? this.failing.values().next().value ?? null;
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

  /** Something changed (the margin stream failed or recovered): alert on a new failure, tell the status. */
  changed(): void {
    const now = this.current();
    if (now !== null && now !== this.shown) this.onFailure(now);
    this.shown = now;
    this.onChange();
  }
}
