import type { EventSourceMessage } from 'eventsource-parser';
import type { StreamState, StreamStatus } from '../../../shared/contract';
import { backoffDelay, type BackoffPolicy } from '../client/backoff';
import type { CoreBus } from '../events';
import { connectSse, type SseEnd, type SseHandlers } from './sse-connection';

export interface StreamSpec {
  /** `margin` or `pool:<name>`. */
  id: string;
  /** Lower comes first under the stream budget: margin 0, pools on screen 1. */
  priority: number;
  /** Built at every connect, so a resume parameter is always the newest stored one (once pending writes settle). */
  url(): string | Promise<string>;
  onEvent(message: EventSourceMessage): void;
  /** After each successful (re)connect; `reconnect` is false for the first one. */
  onOpen?(reconnect: boolean): void;
  /**
   * Why the stream must not connect now (the store refuses writes), or null. Asked before every
   * connect; it may try to recover (write again) and answer null once that works.
   */
  blocked?(): string | null | Promise<string | null>;
  /** After each chunk read: something to wait for before reading on, or undefined (see SseHandlers). */
  pause?(): Promise<void> | undefined;
}

/** A rejected key is tried again this often (and at once when a key is set or the user asks). */
export const AUTH_RETRY_MS = 5 * 60_000;
/** A used-up plan is asked again this often (each refused connection may cost credits too). */
export const QUOTA_RETRY_MS = 15 * 60_000;
/** A blocked stream (the store refuses writes) asks again this often. */
export const BLOCKED_RETRY_MS = 5_000;
/** A connection that stayed open this long counts as healthy even if it carried no event. */
const HEALTHY_CONNECTION_MS = 30_000;
/** Stream activity (lastEventAt) is published at most this often. */
const ACTIVITY_EMIT_MS = 1_000;
/** The longest a Retry-After from a stream may hold it back. */
const RETRY_AFTER_CAP_MS = 60_000;

export interface SupervisorOptions {
  budget: number;
  watchdogMs?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  fetch?: typeof fetch;
  redact: (text: string) => string;
  /** Which key a stream sends, in words ("the stream key"), for what a refusal says; default the API key. */
  keyName?: (streamId: string) => string;
  random?: () => number;
  /**
   * Where it publishes each change of a stream's state (`streamsChanged`), the bytes a stream
   * received (`streamBytes`: the credit meter counts them), and whether the service answered a
   * stream or could not be reached (`streamReached`: the offline banner).
   */
  events?: Pick<CoreBus, 'emit'>;
  /** What is said of the streams as a whole (the service's limit of streams at once, learnt). */
  log?: (line: string) => void;
}

/** A 429 on a stream that speaks of streams: the plan's limit of streams open at once, not the request rate. */
const STREAM_LIMIT_REFUSAL = /stream/i;
/** "allows 3 streams", "limit: 3", "X-Stream-Limit: 3" as the message may carry it. */
const LIMIT_IN_MESSAGE = /(?:allows|limit(?:\s+(?:is|of))?:?)\s+(\d{1,3})\b/i;

interface Running {
  spec: StreamSpec;
  status: StreamStatus;
  close?: () => void;
  wake?: () => void;
  removed: boolean;
  /** Stopped on 401/403: retried every AUTH_RETRY_MS, or at once on `resumeAll`. */
  authStopped: boolean;
  connectedOnce: boolean;
}

/**
 * Owns every stream's reconnect loop (docs/operations.md, Reconnects: an `EventSource`'s own reconnect
 * would reuse a stale URL and give up on a non-200). A connection that delivered events is re-opened
 * at once; only consecutive failed attempts back off (full jitter from 1 s to a 30 s cap, a
 * Retry-After as a floor, capped at a minute). A watchdog reconnects after 45 s without a byte;
 * a rejected key stops the stream, retried every 5 minutes and at once when a key is set; a
 * stream whose store refuses writes waits until it accepts them; and a budget bounds the
 * streams open at once, by priority.
 */
export class StreamSupervisor {
  private readonly streams = new Map<string, Running>();
  private stopped = false;
  /** The stream limit learnt from the service's refusal, below the budget; undefined: none learnt. */
  private learntLimit: number | undefined;

  constructor(private opts: SupervisorOptions) {}

  statuses(): StreamStatus[] {
    return [...this.streams.values()].map((r) => ({ ...r.status }));
  }

  has(id: string): boolean {
    return this.streams.has(id);
  }

  add(spec: StreamSpec): void {
    if (this.stopped) return;
    const existing = this.streams.get(spec.id);
    if (existing) {
      if (existing.spec.priority !== spec.priority) {
        existing.spec = spec;
        this.rebalance();
      }
      return;
    }
    const r: Running = {
      spec,
      removed: false,
      authStopped: false,
      connectedOnce: false,
      status: {
        id: spec.id,
        state: 'idle',
        lastEventAt: null,
        lastByteAt: null,
        nextTryAt: null,
        reconnects: 0,
        events: 0,
        lastError: null,
      },
    };
    this.streams.set(spec.id, r);
    void this.loop(r);
    this.rebalance();
  }

  remove(id: string): void {
    const r = this.streams.get(id);
    if (!r) return;
    r.removed = true;
    this.streams.delete(id);
    r.close?.();
    r.wake?.();
    this.rebalance();
    this.emit();
  }

  /** A new budget (Settings changed): what was learnt of the old plan is forgotten. */
  setBudget(budget: number): void {
    this.opts = { ...this.opts, budget };
    this.learntLimit = undefined;
    this.rebalance();
  }

  /** The streams allowed open at once: the budget, or less when the service said so. */
  limit(): number {
    return Math.min(this.opts.budget, this.learntLimit ?? Infinity);
  }

  /** Close the current connection of `id`; its loop decides what comes next (blocked, reconnect). */
  interrupt(id: string): void {
    this.streams.get(id)?.close?.();
  }

  /** The key or URLs changed, or the user asked: streams stopped for auth try again, the others reconnect now. */
  resumeAll(): void {
    for (const r of this.streams.values()) {
      r.authStopped = false;
      r.close?.();
      r.wake?.();
    }
  }

  stopAll(): void {
    this.stopped = true;
    if (this.activityTimer) clearTimeout(this.activityTimer);
    for (const id of [...this.streams.keys()]) this.remove(id);
  }

  /** Streams allowed to be open: the `budget` first by priority, then by age. */
  private admitted(): Set<string> {
    const order = [...this.streams.values()].sort((a, b) => a.spec.priority - b.spec.priority);
    return new Set(order.slice(0, Math.max(0, this.limit())).map((r) => r.spec.id));
  }

  private rebalance(): void {
    const allowed = this.admitted();
    for (const r of this.streams.values()) {
      if (!allowed.has(r.spec.id) && r.close) r.close();
      if (allowed.has(r.spec.id)) r.wake?.();
    }
  }

  /**
   * The service refused `r` for its plan's stream limit: keep to the limit it gave (or to the
   * streams open now), so the stream waits for the budget instead of knocking every few seconds
   * (each refusal may cost). False when nothing could be learnt (no other stream is open).
   */
  private learn(r: Running, message: string): boolean {
    const open = [...this.streams.values()].filter((x) => x !== r && x.status.state === 'open').length;
    const said = Number(LIMIT_IN_MESSAGE.exec(message)?.[1] ?? NaN);
    const limit = Number.isInteger(said) && said >= 1 ? said : open;
    if (limit < 1 || limit >= this.limit()) return false;
    this.learntLimit = limit;
    this.opts.log?.(
      `the service allows ${limit} stream${limit === 1 ? '' : 's'} at once (it refused one more): pool pages wait for a free one`,
    );
    this.rebalance();
    return true;
  }

  private set(r: Running, state: StreamState, patch: Partial<StreamStatus> = {}): void {
    r.status = { ...r.status, state, ...patch };
    this.emit();
  }

  private activityTimer: NodeJS.Timeout | undefined;
  private lastActivityEmit = 0;

  /** Events move `lastEventAt`: published at most once a second, so "live · 2 s ago" stays true. */
  private emitActivity(): void {
    if (this.activityTimer) return;
    const wait = Math.max(0, ACTIVITY_EMIT_MS - (Date.now() - this.lastActivityEmit));
    this.activityTimer = setTimeout(() => {
      this.activityTimer = undefined;
      this.lastActivityEmit = Date.now();
      if (!this.stopped) this.emit();
    }, wait);
  }

  /** Every stream's status, published. */
  private emit(): void {
    this.opts.events?.emit('streamsChanged', { streams: this.statuses() });
  }

  private sleep(r: Running, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        r.wake = undefined;
        resolve();
      }
      r.wake = done;
    });
  }

  private async loop(r: Running): Promise<void> {
    let attempt = 0;
    const backoff: BackoffPolicy = {
      baseMs: this.opts.backoffBaseMs ?? 1000,
      capMs: this.opts.backoffCapMs ?? 30_000,
      jitter: 'full',
    };
    while (!r.removed && !this.stopped) {
      if (r.authStopped) {
        await this.sleep(r, r.status.state === 'stopped-quota' ? QUOTA_RETRY_MS : AUTH_RETRY_MS);
        r.authStopped = false;
        continue;
      }
      if (!this.admitted().has(r.spec.id)) {
        this.set(r, 'waiting-budget', { nextTryAt: null });
        await this.sleep(r, 60 * 60_000);
        continue;
      }
      const blocked = (await r.spec.blocked?.()) ?? null;
      if (r.removed || this.stopped) break;
      if (blocked !== null) {
        this.set(r, 'stopped-store', { nextTryAt: Date.now() + BLOCKED_RETRY_MS, lastError: blocked });
        await this.sleep(r, BLOCKED_RETRY_MS);
        continue;
      }
      this.set(r, 'connecting', { nextTryAt: null });
      const openedAt = Date.now();
      const handlers: SseHandlers = {
        onOpen: () => {
          this.opts.events?.emit('streamReached', { reachable: true });
          this.set(r, 'open', { lastError: null });
          r.spec.onOpen?.(r.connectedOnce);
          r.connectedOnce = true;
        },
        onEvent: (m) => {
          r.status.events++;
          r.status.lastEventAt = Date.now();
          r.spec.onEvent(m);
          this.emitActivity();
        },
        onBytes: (at, bytes) => {
          r.status.lastByteAt = at;
          this.opts.events?.emit('streamBytes', { streamId: r.spec.id, bytes });
        },
        pause: () => r.spec.pause?.(),
      };
      const url = await r.spec.url();
      if (r.removed || this.stopped) break;
      const conn = connectSse(url, handlers, {
        fetch: this.opts.fetch,
        watchdogMs: this.opts.watchdogMs ?? 45_000,
        redact: this.opts.redact,
      });
      r.close = conn.close;
      const end: SseEnd = await conn.done;
      r.close = undefined;
      if (r.removed || this.stopped) break;
      if (end.reason === 'aborted') {
        // Closed by us: the budget moved, the key changed, or the store refused a write. Decide again now.
        if (this.admitted().has(r.spec.id)) r.status.reconnects++;
        continue;
      }
      if (end.kind === 'quota') {
        r.authStopped = true;
        this.set(r, 'stopped-quota', {
          nextTryAt: Date.now() + QUOTA_RETRY_MS,
          lastError: `The service says this plan's credits or quota are used up (${end.message}). Tidewatch tries again every 15 minutes, and at once on Retry now.`,
        });
        continue;
      }
      if (end.kind === 'auth') {
        r.authStopped = true;
        this.set(r, 'stopped-auth', {
          nextTryAt: Date.now() + AUTH_RETRY_MS,
          lastError: `The service rejected ${this.opts.keyName?.(r.spec.id) ?? 'the API key'} (${end.message}). Tidewatch tries again every 5 minutes, and at once when you enter a key in Settings.`,
        });
        continue;
      }
      if (end.status === 429 && STREAM_LIMIT_REFUSAL.test(end.message) && this.learn(r, end.message)) continue;
      if (end.reason === 'network' || end.reason === 'watchdog')
        this.opts.events?.emit('streamReached', { reachable: false });
      const healthy = end.opened && (end.events > 0 || Date.now() - openedAt >= HEALTHY_CONNECTION_MS);
      let delay: number;
      if (healthy) {
        // It was working: the service ended it (a deploy, a proxy's limit). Resume at once.
        attempt = 0;
        delay = 0;
      } else {
        const floor = Math.min(end.retryAfterMs ?? 0, RETRY_AFTER_CAP_MS);
        delay = Math.max(floor, backoffDelay(backoff, attempt, this.opts.random));
        attempt++;
      }
      r.status.reconnects++;
      this.set(r, 'backoff', { nextTryAt: Date.now() + delay, lastError: end.message });
      if (delay > 0) await this.sleep(r, delay);
    }
  }
}
