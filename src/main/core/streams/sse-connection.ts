import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorMessageOf } from '../../../shared/api';
import { cutText, readBounded } from '../client/body';
import { kindOfStatus, parseRetryAfter, type ServiceErrorKind } from '../client/errors';
import { SseSizeGuard } from './sse-guard';

/** How one connection ended. */
export interface SseEnd {
  /** 'ended': the server closed the stream; 'watchdog': no byte for too long; 'aborted': we closed it. */
  reason: 'ended' | 'http' | 'network' | 'watchdog' | 'aborted' | 'invalid';
  status?: number;
  kind?: ServiceErrorKind;
  retryAfterMs?: number;
  message: string;
  /** Whether the connection was open (200 and the event-stream started). */
  opened: boolean;
  events: number;
}

export interface SseHandlers {
  onOpen?(): void;
  onEvent(message: EventSourceMessage): void;
  /** Any byte, comments (heartbeats) included: liveness. */
  /** Bytes arrived (`bytes` of them, as sent: what a service charging per KB counts). */
  onBytes?(at: number, bytes: number): void;
  /** After each chunk: something to wait for before reading on (the store is behind), or undefined. */
  pause?(): Promise<void> | undefined;
}

export interface SseOptions {
  fetch?: typeof fetch;
  watchdogMs: number;
  signal?: AbortSignal;
  redact: (s: string) => string;
  maxEventChars?: number;
}

/**
 * Why an answer is not a stream, or undefined when it is one: a refused connection (its status,
 * Retry-After and message, the message read only as far as 64 KB), or a page that is not an
 * event stream (lenient on a missing or generic type, which some servers forget).
 */
async function refusalOf(
  res: Response,
  redact: (s: string) => string,
): Promise<Omit<SseEnd, 'opened' | 'events'> | undefined> {
  if (!res.ok) {
    const text = await readBounded(res, 64 * 1024).catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return {
      reason: 'http',
      status: res.status,
      kind: kindOfStatus(res.status, errorMessageOf(body) ?? ''),
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
      message: cutText(`${res.status} ${redact(errorMessageOf(body) ?? res.statusText ?? '')}`),
    };
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (!res.body || /json|html|xml/.test(type)) {
    await res.body?.cancel().catch(() => {});
    return {
      reason: 'invalid',
      kind: 'invalid-response',
      message: `expected text/event-stream, got "${type || 'no body'}"`,
    };
  }
  return undefined;
}

/**
 * Longest run of stream handling between two turns of the event loop. Each turn lets the group
 * commit close its batch, so it is a trade: shorter runs make smaller batches, a slower catch-up
 * and more bytes written per event; longer ones keep the app's other work waiting
 * (docs/operations.md, The margin stream into the store, has the figures).
 */
const YIELD_AFTER_MS = 20;

/**
 * One SSE connection over fetch, parsed with eventsource-parser. Unlike the `EventSource`
 * class it exposes what the supervisor needs: comment lines as liveness, the HTTP status and
 * Retry-After of a refused connection, and events of any name.
 */
export function connectSse(
  url: string,
  handlers: SseHandlers,
  opts: SseOptions,
): { done: Promise<SseEnd>; close(): void } {
  const controller = new AbortController();
  let closedByUs = false;
  let watchdogFired = false;
  const close = (): void => {
    closedByUs = true;
    controller.abort();
  };
  opts.signal?.addEventListener('abort', close, { once: true });
  const done = (async (): Promise<SseEnd> => {
    let events = 0;
    let opened = false;
    let lastByte = Date.now();
    const watchdog = setInterval(
      () => {
        if (Date.now() - lastByte > opts.watchdogMs) {
          watchdogFired = true;
          controller.abort();
        }
      },
      Math.min(1000, Math.max(50, opts.watchdogMs / 4)),
    );
    try {
      const res = await (opts.fetch ?? fetch)(url, {
        headers: { accept: 'text/event-stream', 'cache-control': 'no-cache' },
        signal: controller.signal,
      });
      const refused = await refusalOf(res, opts.redact);
      if (refused) return { ...refused, opened, events };
      opened = true;
      handlers.onOpen?.();
      const parser = createParser({
        onEvent: (m) => {
          events++;
          // A service that echoes the key inside an event must not get it stored (and exported).
          handlers.onEvent({ ...m, data: opts.redact(m.data) });
        },
      });
      const decoder = new TextDecoder();
      const guard = new SseSizeGuard(opts.maxEventChars);
      let ranSince = performance.now();
      for await (const chunk of res.body!) {
        lastByte = Date.now();
        handlers.onBytes?.(lastByte, (chunk as Uint8Array).byteLength);
        parser.feed(guard.feed(decoder.decode(chunk as Uint8Array, { stream: true })));
        const paused = handlers.pause?.();
        if (paused) {
          await paused;
          ranSince = performance.now();
        }
        // A replay arrives faster than it is handled and every read then resolves at once, without
        // a turn of the event loop: give one every 20 ms, so the app's other requests, timers
        // and windows are served during a catch-up instead of after it.
        if (performance.now() - ranSince > YIELD_AFTER_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          ranSince = performance.now();
        }
      }
      return { reason: 'ended', message: 'the server closed the stream', opened, events };
    } catch (err) {
      if (watchdogFired)
        return { reason: 'watchdog', message: `no data for ${Math.round(opts.watchdogMs / 1000)} s`, opened, events };
      if (closedByUs) return { reason: 'aborted', message: 'closed', opened, events };
      const e = err as Error & { cause?: { code?: string; message?: string } };
      return {
        reason: 'network',
        kind: 'network',
        message: cutText(opts.redact(e.cause?.code ?? e.cause?.message ?? e.message)),
        opened,
        events,
      };
    } finally {
      clearInterval(watchdog);
      opts.signal?.removeEventListener('abort', close);
    }
  })();
  return { done, close };
}
