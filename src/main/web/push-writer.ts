import type { PoolPush, Topic } from '../../shared/contract';

/** How long a pool's pushes gather into one write (well under a frame of the page's renders). */
export const POOL_GATHER_MS = 10;
/** Unsent bytes past which a page is behind: a pool's depth is then left out, the next one brings it. */
export const BEHIND_BYTES = 4 * 1024 * 1024;
/** Unsent bytes past which a page has stopped reading: it is disconnected (its EventSource reconnects). */
export const GONE_BYTES = 64 * 1024 * 1024;

/** The part of an HTTP response a subscription writes to. */
export interface PushSink {
  write(chunk: string): unknown;
  readonly writableLength: number;
  destroy(): unknown;
}

/**
 * What one page's subscription writes, as SSE events (named by topic unless the connection
 * carries a single topic). Alerts, the status, risk readings and margin events are written the
 * moment they are pushed: nothing stands between an alert and the page. A pool's pushes (a busy
 * pool brings hundreds a second) gather for POOL_GATHER_MS into one event per pool: its trades in
 * order, its newest depth (a depth snapshot supersedes the one before).
 *
 * Only what a newer push supersedes is ever dropped: a page more than BEHIND_BYTES behind gets a
 * pool's trades without its depth. A page that stops reading (GONE_BYTES unsent) is disconnected
 * rather than fed without end; its EventSource reconnects, and what was pushed meanwhile shows
 * when the page next loads its lists (alerts stay in the store).
 */
export class PushWriter {
  private readonly pools = new Map<Topic, PoolPush>();
  private gather: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly sink: PushSink,
    private readonly single: boolean,
  ) {}

  push(topic: Topic, payload: unknown): void {
    if (this.closed) return;
    if (!topic.startsWith('pool:')) {
      this.write(topic, payload);
      return;
    }
    const p = payload as PoolPush;
    const held = this.pools.get(topic);
    if (held) {
      held.trades = held.trades.length === 0 ? p.trades : [...held.trades, ...p.trades];
      if (p.depth) held.depth = p.depth;
    } else {
      this.pools.set(topic, { ...p });
    }
    this.gather ??= setTimeout(() => this.flush(), POOL_GATHER_MS);
  }

  /** Write the gathered pool pushes now. */
  flush(): void {
    if (this.gather) clearTimeout(this.gather);
    this.gather = undefined;
    const behind = this.sink.writableLength > BEHIND_BYTES;
    for (const [topic, p] of this.pools) {
      const push = behind ? { ...p, depth: null } : p;
      if (push.trades.length > 0 || push.depth) this.write(topic, push);
    }
    this.pools.clear();
  }

  close(): void {
    this.closed = true;
    if (this.gather) clearTimeout(this.gather);
    this.gather = undefined;
    this.pools.clear();
  }

  private write(topic: Topic, payload: unknown): void {
    if (this.sink.writableLength > GONE_BYTES) {
      this.close();
      this.sink.destroy();
      return;
    }
    this.sink.write(`${this.single ? '' : `event: ${topic}\n`}data: ${JSON.stringify(payload)}\n\n`);
  }
}
