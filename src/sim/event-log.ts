/**
 * The margin stream's log: every margin event with a Redis-stream style id `<ms>-<seq>` (strictly
 * increasing), retention of the newest N events, and live subscribers.
 */
export interface LoggedEvent {
  id: string;
  ms: number;
  seq: number;
  /** The SSE data line: the JSON envelope, serialised once. */
  json: string;
}

export interface StreamId {
  ms: number;
  seq: number;
}

export function parseStreamId(text: string): StreamId | null {
  const m = /^(\d{1,16})-(\d{1,16})$/.exec(text);
  if (!m) return null;
  return { ms: Number(m[1]), seq: Number(m[2]) };
}

function after(a: LoggedEvent, b: StreamId): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.seq > b.seq);
}

export class MarginEventLog {
  private readonly events: LoggedEvent[] = [];
  /** Index of the oldest retained event; the array is compacted now and then. */
  private head = 0;
  private lastMs = 0;
  private lastSeq = -1;
  private readonly listeners = new Set<(e: LoggedEvent) => void>();

  constructor(readonly retention = 10_000) {}

  append(timestampMs: number, envelope: unknown): LoggedEvent {
    const ms = Math.max(Math.floor(timestampMs), this.lastMs);
    const seq = ms === this.lastMs ? this.lastSeq + 1 : 0;
    this.lastMs = ms;
    this.lastSeq = seq;
    const e: LoggedEvent = { id: `${ms}-${seq}`, ms, seq, json: JSON.stringify(envelope) };
    this.events.push(e);
    if (this.events.length - this.head > this.retention) this.head++;
    if (this.head > 4096 && this.head > this.events.length / 2) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
    for (const l of this.listeners) l(e);
    return e;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** Retained events strictly after `id` (all retained ones when `id` is older than retention). */
  since(id: StreamId | 'all'): LoggedEvent[] {
    if (id === 'all') return this.events.slice(this.head);
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (after(this.events[mid]!, id)) hi = mid;
      else lo = mid + 1;
    }
    return this.events.slice(lo);
  }

  latest(): LoggedEvent | undefined {
    return this.events.length > this.head ? this.events[this.events.length - 1] : undefined;
  }

  subscribe(listener: (e: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
