import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../src/main/core/client/errors';
import { NAMING_PROFILES } from '../../../../src/main/core/client/naming';
import { ServiceClient } from '../../../../src/main/core/client/service-client';
import { fakeFetch, json } from './fake-fetch';

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
    expect((err as ServiceError).message).toBe('The service took longer than 1.5 s to answer.');
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
