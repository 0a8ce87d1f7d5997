import { EventSource } from 'eventsource';
import { cutText } from '../client/body';
import { refusalOf, type SseEnd, type SseHandlers, type SseOptions } from './sse-connection';
import { SseSizeGuard } from './sse-guard';

/**
 * One SSE connection through the `eventsource` package (docs/service.md, The stream transport): one
 * `EventSource` per connection, its `fetch` option carrying what the supervisor needs. Through
 * that fetch pass the HTTP status, Retry-After and message of a refused connection, every byte
 * (liveness, the credit meter), the per-event size bound (the body is re-framed by SseSizeGuard
 * before EventSource parses it) and the lenient content type. EventSource's own reconnect never
 * runs: at its first `error` the connection is over and the supervisor decides (docs/operations.md, Reconnects),
 * rebuilding the URL with the newest stored id.
 *
 * Named events (`event:` lines) reach a listener registered for each name as it first appears in
 * the bytes; comments (heartbeats) are seen only as bytes, which is all liveness needs.
 */
export function connectEventSource(
  url: string,
  handlers: SseHandlers,
  opts: SseOptions,
): { done: Promise<SseEnd>; close(): void } {
  const controller = new AbortController();
  let events = 0;
  let opened = false;
  let lastByte = Date.now();
  let ended = false;
  let settle!: (end: SseEnd) => void;
  let settled = false;
  const done = new Promise<SseEnd>((resolve) => (settle = resolve));
  /** Set once constructed (the constructor already starts the fetch that may end the connection). */
  const source: { es?: EventSource } = {};
  const finish = (end: Omit<SseEnd, 'opened' | 'events'>): void => {
    if (settled) return;
    settled = true;
    clearInterval(watchdog);
    opts.signal?.removeEventListener('abort', close);
    source.es?.close();
    controller.abort();
    settle({ ...end, opened, events });
  };
  const close = (): void => finish({ reason: 'aborted', message: 'closed' });
  opts.signal?.addEventListener('abort', close, { once: true });
  const watchdog = setInterval(
    () => {
      if (Date.now() - lastByte > opts.watchdogMs)
        finish({ reason: 'watchdog', message: `no data for ${Math.round(opts.watchdogMs / 1000)} s` });
    },
    Math.min(1000, Math.max(50, opts.watchdogMs / 4)),
  );

  const viaFetch: typeof fetch = async (input, init) => {
    let res: Response;
    try {
      res = await (opts.fetch ?? fetch)(input, {
        ...init,
        headers: { accept: 'text/event-stream', 'cache-control': 'no-cache' },
        signal: init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal,
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      finish({
        reason: 'network',
        kind: 'network',
        message: cutText(opts.redact(e.cause?.code ?? e.cause?.message ?? e.message)),
      });
      throw err;
    }
    const refused = await refusalOf(res, opts.redact);
    if (refused) {
      finish(refused);
      return new Response(null, { status: res.status === 200 ? 502 : res.status });
    }
    const guard = new SseSizeGuard(opts.maxEventChars);
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const framed = res.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, out) {
          lastByte = Date.now();
          handlers.onBytes?.(lastByte, chunk.byteLength);
          const text = guard.feed(decoder.decode(chunk, { stream: true }));
          if (!text) return;
          // EventSource hands a named event only to a listener of that name: listen to each name
          // as it first appears, before EventSource parses the bytes that carry it.
          if (text.includes('event:')) for (const m of text.matchAll(/^event: ?(.*)$/gm)) listen(m[1]!);
          out.enqueue(encoder.encode(text));
          await handlers.pause?.();
        },
        flush() {
          ended = true;
        },
      }),
    );
    // The type was checked leniently above (a missing or generic one passes); EventSource's check is strict.
    return new Response(framed, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };

  const es = new EventSource(url, { fetch: viaFetch });
  source.es = es;
  es.onopen = () => {
    opened = true;
    handlers.onOpen?.();
  };
  const deliver = (m: MessageEvent): void => {
    events++;
    // A service that echoes the key inside an event must not get it stored (and exported).
    handlers.onEvent({
      id: m.lastEventId || undefined,
      event: m.type === 'message' ? undefined : m.type,
      data: opts.redact(String(m.data)),
    });
  };
  const names = new Set(['message', 'open', 'error']);
  const listen = (name: string): void => {
    if (names.has(name) || name === '') return;
    names.add(name);
    source.es?.addEventListener(name, deliver as (e: Event) => void);
  };
  es.onmessage = deliver;
  es.onerror = (e) => {
    // Failed, or about to reconnect on its own: either way this connection is over.
    if (ended) finish({ reason: 'ended', message: 'the server closed the stream' });
    else
      finish({
        reason: 'network',
        kind: 'network',
        message: cutText(opts.redact(e.message ?? 'the connection failed')),
      });
  };
  return { done, close };
}
