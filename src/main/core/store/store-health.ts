import { describeStoreError } from './store-errors';

/**
 * Whether the store accepts writes, in plain words for the status: the margin stream reports its
 * own failed commits, cache and alert writes report here. A new failure raises one alert.
 */
export class StoreHealth {
  private cacheError: string | null = null;
  private shown: string | null = null;

  constructor(
    private readonly marginFailure: () => string | null,
    private readonly onFailure: (reason: string) => void,
    private readonly onChange: () => void,
  ) {}

  /** "cannot write to the store: disk full", or null. */
  current(): string | null {
    return this.marginFailure() ?? this.cacheError;
  }

  /** A cache write failed. */
  noteError(err: unknown): void {
    this.cacheError = describeStoreError(err);
    this.changed();
  }

  /** A cache write worked. */
  noteOk(): void {
    if (this.cacheError === null) return;
    this.cacheError = null;
    this.changed();
  }

  /** A write worked (`err` undefined) or failed. */
  note(err?: unknown): void {
    if (err === undefined) this.noteOk();
    else this.noteError(err);
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
