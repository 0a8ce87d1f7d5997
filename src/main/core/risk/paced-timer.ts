/**
 * The timer of a read repeated on the plan's paced interval (pool health, the liquidation map):
 * due `every()` after the last read and never more than one interval from now; none while the
 * interval is not finite (not read, for the budget), nor once closed.
 */
export class PacedTimer {
  /** When the last read was made (or a kept one, at a start). */
  lastReadAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly every: () => number,
    private readonly due: () => void,
    private readonly now: () => number,
  ) {}

  get closed(): boolean {
    return this.stopped;
  }

  /** Set the next read from the last one at the interval in force now. */
  arm(): void {
    this.clear();
    if (this.stopped) return;
    const every = this.every();
    if (!Number.isFinite(every)) return;
    const wait = Math.max(0, this.lastReadAt + every - this.now());
    this.timer = setTimeout(this.due, Math.min(wait, every));
    this.timer.unref?.();
  }

  close(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
