import { WIRE_ERRORS } from '../../../src/shared/wire';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SubscribeHandler } from '../../../src/main/web/subscribe-handler';
import type { TidewatchApi, Topic } from '../../../src/shared/contract';
import { raw, serveHandler } from './http-doubles';

/** The monitor's topics: who listens, and a push to them; `offs` counts the disposers called. */
const listeners = new Map<string, Set<(payload: unknown) => void>>();
const counts = { offs: 0 };
const api = {
  invoke: async () => undefined,
  subscribe: (topic: Topic, listener: (payload: unknown) => void) => {
    if (!listeners.has(topic)) listeners.set(topic, new Set());
    listeners.get(topic)!.add(listener);
    return () => {
      counts.offs++;
      listeners.get(topic)!.delete(listener);
    };
  },
} as unknown as TidewatchApi;
const push = (topic: string, payload: unknown) => {
  for (const l of listeners.get(topic) ?? []) l(payload);
};
const listening = (topic: string) => listeners.get(topic)?.size ?? 0;

const handler = new SubscribeHandler(api, (topic) => (topic === 'status' ? { network: 'demo' } : undefined));
let served: Awaited<ReturnType<typeof serveHandler>>;

beforeAll(async () => {
  served = await serveHandler(handler);
});
afterAll(() => served.close());

/** A subscription read as the bytes that come, so the SSE framing itself is checked. */
async function open(path: string) {
  const controller = new AbortController();
  const res = await fetch(`${served.base}${path}`, { signal: controller.signal });
  const seen = { text: '', ended: false };
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body!) seen.text += decoder.decode(chunk as Uint8Array, { stream: true });
    } catch {
      // aborted by close()
    }
    seen.ended = true;
  })();
  return {
    res,
    seen,
    until: (text: string) => vi.waitFor(() => expect(seen.text).toContain(text)),
    close: () => controller.abort(),
  };
}

describe('subscriptions over SSE', () => {
  it('streams one topic unnamed: a comment, the initial payload, then each push', async () => {
    const s = await open('/api/subscribe/status');
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.res.headers.get('cache-control')).toBe('no-cache');
    expect(s.res.headers.get('x-frame-options')).toBe('DENY');
    await vi.waitFor(() => expect(listening('status')).toBe(1));
    push('status', { network: 'custom' });
    await s.until('custom');
    expect(s.seen.text).toBe(': subscribed\n\ndata: {"network":"demo"}\n\ndata: {"network":"custom"}\n\n');
    s.close();
    await vi.waitFor(() => expect(listening('status')).toBe(0));
  });

  it('streams several topics on one connection, each push named by its topic', async () => {
    const s = await open(`/api/subscribe?topics=${encodeURIComponent('alerts,pool:SUI_USDC')}`);
    await vi.waitFor(() => expect(listening('alerts') + listening('pool:SUI_USDC')).toBe(2));
    push('alerts', [{ id: 1 }]);
    push('pool:SUI_USDC', { trades: [{ event_digest: 'd1' }], depth: null });
    await s.until('event: pool:SUI_USDC');
    expect(s.seen.text).toBe(
      ': subscribed\n\nevent: alerts\ndata: [{"id":1}]\n\n' +
        'event: pool:SUI_USDC\ndata: {"trades":[{"event_digest":"d1"}],"depth":null}\n\n',
    );
    const offs = counts.offs;
    s.close();
    await vi.waitFor(() => expect(counts.offs).toBe(offs + 2));
  });

  it('answers an unknown or missing topic with a 404 that lists the topics', async () => {
    for (const [path, named] of [
      ['/api/subscribe/nope', 'nope'],
      ['/api/subscribe?topics=alerts,nope', 'nope'],
      ['/api/subscribe', ''],
      ['/api/subscribe?topics=', ''],
    ] as const) {
      const r = await raw(served.base, path);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body)).toEqual({
        error: {
          kind: 'unknown-topic',
          message: `no topic "${named}" (status, margin, alerts, risk, pool:<name>)`,
          advice: WIRE_ERRORS['unknown-topic'].advice,
        },
      });
    }
    expect(listening('alerts')).toBe(0);
  });

  it('throws on a malformed %-escape in the topic, for the router to answer 400', async () => {
    const res = { writeHead: vi.fn() };
    expect(() =>
      handler.handle({} as never, res as never, new URL('http://127.0.0.1:1/api/subscribe/%E0%A4%A')),
    ).toThrow(URIError);
    expect(res.writeHead).not.toHaveBeenCalled();
  });

  it('ends every open subscription when the shell closes', async () => {
    const a = await open('/api/subscribe/risk');
    const b = await open('/api/subscribe/margin');
    await vi.waitFor(() => expect(listening('risk') + listening('margin')).toBe(2));
    handler.close();
    await vi.waitFor(() => expect(a.seen.ended && b.seen.ended).toBe(true));
    await vi.waitFor(() => expect(listening('risk') + listening('margin')).toBe(0));
  });
});
