/** How long a batch may gather while events keep arriving, and how many it may hold. */
export const GROUP_MAX_MS = 5;
export const GROUP_MAX_ITEMS = 5_000;

/**
 * Collects items and hands them over in batches, so a burst costs one transaction, not one per
 * event. A batch closes at the end of the first I/O turn that brought nothing new (an idle stream
 * never holds an event longer than that), or once it has gathered for `maxMs` while events kept
 * coming (a catch-up replay commits a few thousand at a time), or at `maxItems`.
 */
export class GroupCommit<T> {
  private pending: T[] = [];
  private timer: NodeJS.Immediate | undefined;
  private firstAt = 0;
  private seenAtCheck = 0;

  constructor(
    private readonly flushBatch: (batch: T[]) => void,
    private readonly maxItems = GROUP_MAX_ITEMS,
    private readonly maxMs = GROUP_MAX_MS,
  ) {}

  push(item: T): void {
    if (this.pending.length === 0) {
      this.firstAt = performance.now();
      this.seenAtCheck = 0;
    }
    this.pending.push(item);
    if (this.pending.length >= this.maxItems) this.flush();
    else this.timer ??= setImmediate(() => this.check());
  }

  get size(): number {
    return this.pending.length;
  }

  /** End of an I/O turn: close the batch if this turn brought nothing new or it is old enough; else wait one more turn. */
  private check(): void {
    this.timer = undefined;
    const grew = this.pending.length > this.seenAtCheck;
    this.seenAtCheck = this.pending.length;
    if (grew && performance.now() - this.firstAt < this.maxMs) {
      this.timer = setImmediate(() => this.check());
      return;
    }
    this.flush();
  }

  flush(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushBatch(batch);
  }
}
