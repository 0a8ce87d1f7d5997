import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../../src/main/core/client/errors';
import { ServiceHttp } from '../../../../src/main/core/client/http';
import { PoolListSchema } from '../../../../src/shared/api';
import { fakeFetch, json, POOL } from './fake-fetch';

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

describe('one timeout for a whole call', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A service that answers each request `ms` after it arrives; an aborted request fails with the signal's reason, as fetch does. */
  const answersAfter = (ms: number): { fetch: typeof fetch; paths: string[] } => {
    const paths: string[] = [];
    const f = ((input: string | URL | Request, init?: RequestInit) => {
      paths.push(new URL(String(input)).pathname);
      return new Promise<Response>((resolve, reject) => {
        const t = setTimeout(() => resolve(json(200, [POOL])()), ms);
        init?.signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(init.signal!.reason as Error);
        });
      });
    }) as typeof fetch;
    return { fetch: f, paths };
  };

  it('counts the wait for a free slot and every request of the call against one deadline', async () => {
    const svc = answersAfter(800);
    const http = new ServiceHttp({
      baseUrl: 'http://s',
      apiKey: 'k',
      fetch: svc.fetch,
      timeoutMs: 1_000,
      concurrency: 1,
    });
    // Another caller's request holds the only slot for 800 ms; the call then needs two answers of 800 ms each.
    const other = http.get('/other', {}, PoolListSchema);
    const started = Date.now();
    let tookMs: number | undefined;
    const call = http
      .withinOneTimeout(undefined, async (signal) => {
        await http.get('/first', {}, PoolListSchema, signal);
        return http.get('/second', {}, PoolListSchema, signal);
      })
      .catch((err: unknown) => err)
      .finally(() => (tookMs = Date.now() - started));
    await vi.advanceTimersByTimeAsync(999);
    expect(tookMs).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(tookMs).toBe(1_000);
    const err = await call;
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ kind: 'timeout', message: 'The service took longer than 1 s to answer.' });
    // Each request alone was within its own timeout: only the call's deadline could stop it.
    expect(svc.paths).toEqual(['/other', '/first']);
    expect(await other).toHaveLength(1);
  });

  it('leaves a quick call alone, and a caller that gives up is told it was cancelled', async () => {
    const http = new ServiceHttp({
      baseUrl: 'http://s',
      apiKey: 'k',
      fetch: answersAfter(100).fetch,
      timeoutMs: 1_000,
    });
    const quick = http.withinOneTimeout(undefined, async (signal) => {
      await http.get('/first', {}, PoolListSchema, signal);
      return http.get('/second', {}, PoolListSchema, signal);
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(await quick).toHaveLength(1);

    const caller = new AbortController();
    const cancelled = http
      .withinOneTimeout(caller.signal, (signal) => http.get('/x', {}, PoolListSchema, signal))
      .catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(50);
    caller.abort();
    expect(await cancelled).toMatchObject({ kind: 'cancelled' });
  });
});
