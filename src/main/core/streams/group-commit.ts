/**
 * Collects items and hands them over in one batch per tick (at most every `intervalMs`, or at
 * once when `maxItems` are waiting), so a burst of events costs one transaction, not one each.
 */
export class GroupCommit<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flushBatch: (batch: T[]) => void,
    private readonly intervalMs = 50,
    private readonly maxItems = 1000,
  ) {}

  push(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.maxItems) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  get size(): number {
    return this.pending.length;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushBatch(batch);
  }
}
