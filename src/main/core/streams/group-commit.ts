/**
 * Collects items and hands them over in one batch per tick, so a burst of events costs one
 * transaction, not one each. The tick is the end of the current I/O turn (setImmediate): every
 * event parsed from the chunks that arrived together is committed together, and nothing waits
 * in memory longer than it must (a crash can only lose what the cursor has not passed).
 */
export class GroupCommit<T> {
  private pending: T[] = [];
  private timer: NodeJS.Immediate | undefined;

  constructor(
    private readonly flushBatch: (batch: T[]) => void,
    private readonly maxItems = 2000,
  ) {}

  push(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.maxItems) this.flush();
    else this.timer ??= setImmediate(() => this.flush());
  }

  get size(): number {
    return this.pending.length;
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
