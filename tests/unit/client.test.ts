import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOfStatus, parseRetryAfter, redact, ServiceError } from '../../src/main/core/client/errors';
import { ServiceHttp } from '../../src/main/core/client/http';
import { backoffMs } from '../../src/main/core/client/limiter';
import { NAMING_PROFILES } from '../../src/main/core/client/naming';
import { allItems, collect } from '../../src/main/core/client/paging';
import { dedupeBy, fetchRange } from '../../src/main/core/client/ranges';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { PoolListSchema } from '../../src/shared/api';

/** A fetch that answers from a list of canned responses and records the URLs asked. */
function fakeFetch(answers: Array<() => Response>): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  let i = 0;
  const f = (async (input: string | URL | Request) => {
    urls.push(String(input));
    const next = answers[Math.min(i++, answers.length - 1)]!;
    return next();
  }) as typeof fetch;
  return { fetch: f, urls };
}
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): (() => Response) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const POOL = {
  pool_id: '0x1',
  pool_name: 'SUI_USDC',
  base_asset_id: 'a',
  base_asset_decimals: 9,
  base_asset_symbol: 'SUI',
  base_asset_name: 'Sui',
  quote_asset_id: 'b',
  quote_asset_decimals: 6,
  quote_asset_symbol: 'USDC',
  quote_asset_name: 'USDC',
  min_size: 1,
  lot_size: 1,
  tick_size: 1,
};

describe('service errors', () => {
  it('map statuses to the kinds of docs/service.md, Error responses', () => {
    expect([401, 403, 404, 400, 422, 429, 500, 503].map((s) => kindOfStatus(s))).toEqual([
      'auth',
      'auth',
      'not-found',
      'bad-request',
      'bad-request',
      'rate-limited',
      'server',
      'server',
    ]);
  });

  it('read a 403 about credits, quota or the plan as quota, not as a rejected key', () => {
    expect(kindOfStatus(403, 'Insufficient credits for this request')).toBe('quota');
    expect(kindOfStatus(403, 'monthly quota exceeded')).toBe('quota');
    expect(kindOfStatus(403, 'Upgrade your plan to use this endpoint')).toBe('quota');
    expect(kindOfStatus(403, 'invalid api key')).toBe('auth');
    expect(kindOfStatus(401, 'no credits')).toBe('auth');
  });

  it('redact the api-key from URLs and text', () => {
    expect(redact('GET /x?api-key=SECRET123&page=1')).toBe('GET /x?api-key=***&page=1');
    expect(redact('key SECRET123 leaked', 'SECRET123')).toBe('key *** leaked');
  });

  it('read Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('back off with full jitter under the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (attempt, r) => {
        const ms = backoffMs(attempt, 1000, 30_000, () => r);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThanOrEqual(Math.min(30_000, 1000 * 2 ** attempt));
      }),
    );
  });
});

describe('ServiceHttp', () => {
  it('sends the key as a query parameter and never shows it in an error', async () => {
    const f = fakeFetch([
      json(401, { error: { status: 401, code: 'unauthorized', message: 'the api-key is not valid' } }),
    ]);
    const http = new ServiceHttp({ baseUrl: 'http://svc', apiKey: 'SECRET-KEY', fetch: f.fetch });
    const err = (await http.get('/dex/get_pools', {}, PoolListSchema).catch((e) => e)) as ServiceError;
    expect(f.urls[0]).toContain('api-key=SECRET-KEY');
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('the api-key is not valid');
    expect(err.message).not.toContain('SECRET-KEY');
    expect(f.urls).toHaveLength(1); // auth is never retried
  });

  it('reads error text from message or error, else the status text', async () => {
    const a = fakeFetch([json(400, { message: 'perPage too big' })]);
    expect(
      (
        await new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: a.fetch })
          .get('/x', {}, PoolListSchema)
          .catch((e) => e)
      ).message,
    ).toContain('perPage too big');
    const b = fakeFetch([() => new Response('oops', { status: 404, statusText: 'Not Found' })]);
    const e = await new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: b.fetch })
      .get('/x', {}, PoolListSchema)
      .catch((x) => x);
    expect(e.kind).toBe('not-found');
    expect(e.message).toContain('Not Found');
  });

  it('retries 5xx and 429 (honouring Retry-After), then succeeds', async () => {
    const f = fakeFetch([json(503, {}), json(429, {}, { 'retry-after': '0' }), json(200, [POOL])]);
    const http = new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: f.fetch });
    const pools = await http.get('/dex/get_pools', {}, PoolListSchema);
    expect(pools[0]!.pool_name).toBe('SUI_USDC');
    expect(f.urls).toHaveLength(3);
  });

  it('turns an answer that fails validation into invalid-response naming the field', async () => {
    const f = fakeFetch([json(200, [{ ...POOL, base_asset_decimals: 'nine' }])]);
    const err = await new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: f.fetch })
      .get('/dex/get_pools', {}, PoolListSchema)
      .catch((e) => e);
    expect(err.kind).toBe('invalid-response');
    expect(err.fieldPath).toBe('0.base_asset_decimals');
    expect(err.message).toContain('0.base_asset_decimals');
  });

  it('accepts numeric strings and normalises them', async () => {
    const f = fakeFetch([json(200, [{ ...POOL, tick_size: '1000' }])]);
    const pools = await new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: f.fetch }).get(
      '/dex/get_pools',
      {},
      PoolListSchema,
    );
    expect(pools[0]!.tick_size).toBe(1000);
  });

  it('times out', async () => {
    const slow = (async (_i: unknown, init?: RequestInit) =>
      new Promise<Response>((_r, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as typeof fetch;
    const err = await new ServiceHttp({ baseUrl: 'http://s', apiKey: 'k', fetch: slow, timeoutMs: 50, attempts: 1 })
      .get('/x', {}, PoolListSchema)
      .catch((e) => e);
    expect(err.kind).toBe('timeout');
  });
});

describe('ServiceClient requests', () => {
  it('clamps bounds, repeats collections, keeps :: in collection paths', async () => {
    const f = fakeFetch([json(200, { items: [], isLastPage: true, currentPage: 0, perPage: 50 })]);
    const c = new ServiceClient({ baseUrl: 'http://s', apiKey: 'k', fetch: f.fetch });
    await c.addressNfts('0xabc', { perPage: 500, page: -3, collections: ['0x1::a::A', '0x2::b::B'] });
    const u = new URL(f.urls[0]!);
    expect(u.searchParams.get('perPage')).toBe('50');
    expect(u.searchParams.get('page')).toBe('0');
    expect(u.searchParams.getAll('collections')).toEqual(['0x1::a::A', '0x2::b::B']);
    await c.collection('0x1::mod::Struct', { fields: { name: 'x' } });
    expect(f.urls[1]).toContain('/nfts/collection/0x1::mod::Struct?');
    expect(new URL(f.urls[1]!).searchParams.get('fields')).toBe('{"name":"x"}');
  });

  it('speaks the deepbook naming profile at the edge', async () => {
    const p = NAMING_PROFILES.deepbook;
    expect(p.path('/dex/get_pools')).toBe('/deepbook/get_pools');
    expect(p.path('/dex-margin/active-loans')).toBe('/deepbook-margin/active-loans');
    expect(p.query('dexPoolId')).toBe('deepbookPoolId');
    expect(
      p.toSpec({ type: 'deepbook_live_trades', data: { taker_fee_is_deep: true, deepbook_pool_id: '0x1' } }),
    ).toEqual({
      type: 'dex_live_trades',
      data: { taker_fee_is_token: true, dex_pool_id: '0x1' },
    });
    const f = fakeFetch([json(200, { items: [], isLastPage: true, currentPage: 0, perPage: 10 })]);
    await new ServiceClient({ baseUrl: 'http://s', apiKey: 'k', naming: 'deepbook', fetch: f.fetch }).marginManagers(
      undefined,
      { dexPoolId: '0x9' },
    );
    expect(f.urls[0]).toContain('/deepbook-margin/margin-managers?');
    expect(f.urls[0]).toContain('deepbookPoolId=0x9');
  });
});

describe('paging and ranges', () => {
  it('iterates every page with prefetch, in order', async () => {
    const asked: number[] = [];
    const items = await collect(
      allItems(
        async (page, perPage) => {
          asked.push(page);
          const all = Array.from({ length: 123 }, (_, i) => i);
          return {
            items: all.slice(page * perPage, (page + 1) * perPage),
            isLastPage: (page + 1) * perPage >= 123,
            currentPage: page,
            perPage,
          };
        },
        { perPage: 50, prefetch: 2 },
      ),
    );
    expect(items).toEqual(Array.from({ length: 123 }, (_, i) => i));
    expect(asked.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('a range split into windows and merged equals one big fetch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 600 }),
        fc.boolean(),
        async (seconds, withTimes) => {
          const items = seconds.map((s, i) => ({ s, id: `${s}:${i}` })).sort((a, b) => b.s - a.s);
          // A service that answers at most 100 items of [from, to], the most recent ones.
          const window = async (from: number, to: number) =>
            items.filter((x) => x.s >= from && x.s <= to).slice(0, 100);
          const {
            items: got,
            truncatedWindows,
            incomplete,
          } = await fetchRange(0, 5000, window, withTimes ? { secondOf: (x) => x.s } : {});
          const merged = dedupeBy(got, (x) => x.id);
          if (truncatedWindows === 0 && !incomplete)
            expect(new Set(merged.map((x) => x.id))).toEqual(new Set(items.map((x) => x.id)));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a call of several requests', () => {
  /** Answers every request with an empty list, one byte at a time over `ms`: a service that trickles. */
  const trickling = (ms: number): typeof fetch =>
    (async (_input: string | URL | Request, init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('['));
          await new Promise((r) => setTimeout(r, ms));
          // As a real fetch does, an abort while the body is read fails the read.
          if (init?.signal?.aborted) return controller.error(new DOMException('aborted', 'AbortError'));
          controller.enqueue(new TextEncoder().encode(']'));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;

  it('takes at most one timeout in all, however many windows a range needs, and says so', async () => {
    const c = new ServiceClient({ baseUrl: 'http://s', apiKey: 'k', timeoutMs: 1_500, fetch: trickling(600) });
    const started = Date.now();
    // 10 windows of 100 minutes, 600 ms each: 6 s one request after another.
    const err = await c.candlesRange('SUI_USDC', '1m', 0, 10 * 100 * 60 - 1).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).kind).toBe('timeout');
    expect((err as ServiceError).message).toBe("The service's answers took longer than 1.5 s in all.");
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(3_000);
  });

  it('answers as before when the service is quick, and a caller that gives up is told it was cancelled', async () => {
    const c = new ServiceClient({ baseUrl: 'http://s', apiKey: 'k', timeoutMs: 1_500, fetch: trickling(10) });
    expect(await c.candlesRange('SUI_USDC', '1m', 0, 10 * 100 * 60 - 1)).toEqual({ candles: [], truncated: false });
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 100);
    const slow = new ServiceClient({ baseUrl: 'http://s', apiKey: 'k', timeoutMs: 1_500, fetch: trickling(600) });
    const err = await slow
      .candlesRange('SUI_USDC', '1m', 0, 10 * 100 * 60 - 1, { signal: caller.signal })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'cancelled' });
  });
});
