import { afterEach, describe, expect, it } from 'vitest';
import type { Bill } from '../../../src/sim';
import { openSse, type SseReader } from '../../support/sse';
import { startTestSim, TEST_KEY, type TestSim } from '../../support/sim';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function start(opts: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  const t = await startTestSim({ historyDays: 0.2, ...opts });
  closers.push(() => t.close());
  return t;
}

async function stream(
  t: TestSim,
  path: string,
  params: Record<string, string> = {},
  key = TEST_KEY,
): Promise<SseReader> {
  const r = await openSse(t.url(path, params, key));
  closers.push(() => r.close());
  expect(r.status).toBe(200);
  return r;
}

async function until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const pings = (r: SseReader): number => r.comments.filter((c) => c === 'ping').length;

describe('the Demo network bills each key as the real service would', () => {
  it('answered requests at their published price, the margin lists at the estimate; GET /__sim/credits is free', async () => {
    const t = await start();
    for (const path of [
      '/dex/get_pools',
      '/dex/SUI_USDC/trades',
      '/dex/SUI_USDC/order-book-depth',
      '/dex-margin/margin-managers',
    ]) {
      expect((await t.get(path)).status, path).toBe(200);
    }
    const bill = (await t.get('/__sim/credits')).body as Bill;
    expect(bill).toEqual({
      key: 'test…',
      since: expect.any(Number),
      requests: 4,
      requestCredits: 5 + 20 + 30 + 10,
      byPath: {
        '/dex/get_pools': { requests: 1, credits: 5 },
        '/dex/*/trades': { requests: 1, credits: 20 },
        '/dex/*/order-book-depth': { requests: 1, credits: 30 },
        '/dex-margin/margin-managers': { requests: 1, credits: 10 },
      },
      streamedBytes: 0,
      streamCredits: 0,
      total: 65,
      openStreams: 0,
      maxOpenStreams: 0,
    });
    expect(bill.since).toBeLessThanOrEqual(Date.now());
    // Reading the bill costs nothing, and the sim's object answers the same.
    expect((await t.get('/__sim/credits')).body).toEqual(bill);
    expect(t.sim.credits(TEST_KEY)).toEqual(bill);
    // Requests of one pattern add up under it, whatever the pool.
    expect((await t.get('/dex/DEEP_SUI/trades')).status).toBe(200);
    expect(t.sim.credits(TEST_KEY).byPath['/dex/*/trades']).toEqual({ requests: 2, credits: 40 });
    expect(t.sim.credits(TEST_KEY).total).toBe(85);
  });

  it('refusals cost nothing: 429, 401, 404, 400; the bill itself is not rate-limited and needs a known key', async () => {
    const t = await start({ plan: 'free' });
    const answers = await Promise.all(Array.from({ length: 30 }, () => t.get('/dex/get_pools')));
    const answered = answers.filter((a) => a.status === 200).length;
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(t.sim.credits(TEST_KEY)).toMatchObject({ requests: answered, requestCredits: 5 * answered });
    // Read at once, with the bucket empty: the bill is not a request of the plan.
    const reads = await Promise.all(Array.from({ length: 20 }, () => t.get('/__sim/credits')));
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    await new Promise((r) => setTimeout(r, 1_100)); // the bucket refills
    expect((await t.get('/dex/get_pools', {}, 'wrong-key')).status).toBe(401);
    expect((await t.get('/dex/get_pools', {}, null)).status).toBe(401);
    expect((await t.get('/dex/NO_SUCH_POOL/trades')).status).toBe(404);
    expect((await t.get('/dex/SUI_USDC/trades', { limit: 0 })).status).toBe(400);
    expect(t.sim.credits(TEST_KEY)).toMatchObject({
      requests: answered,
      requestCredits: 5 * answered,
      total: 5 * answered,
    });
    expect(t.sim.bills().map((b) => b.key)).toEqual(['test…']);
    expect((await t.get('/__sim/credits', {}, 'wrong-key')).status).toBe(401);
    expect((await t.get('/__sim/credits', {}, null)).status).toBe(401);
  });

  it('every byte a stream writes, heartbeats included, at 1 credit per 1,024 bytes, unrounded; each key apart', async () => {
    // Almost no market activity: the streams carry their first bytes and heartbeats, and now and then an event.
    const t = await start({ apiKeys: [TEST_KEY, 'other-key'], heartbeatMs: 100, speed: 0.001 });
    const margin = await stream(t, '/dex-margin/manager-updates', { 'last-id': '$' });
    const pool = await stream(t, '/dex/SUI_USDC/live-trades', {}, 'other-key');
    expect((await t.get('/dex/get_pools', {}, 'other-key')).status).toBe(200);
    await until(() => pings(margin) >= 20 && pings(pool) >= 20, '20 pings on each stream');
    // A ping may be on its way when the bill is read: the bill and the client agree once it arrived.
    await until(
      () => t.sim.credits(TEST_KEY).streamedBytes === margin.bytes,
      `margin bill = ${margin.bytes} bytes read`,
    );
    await until(() => t.sim.credits('other-key').streamedBytes === pool.bytes, `pool bill = ${pool.bytes} bytes read`);

    const mine = t.sim.credits(TEST_KEY);
    expect(mine.streamedBytes).toBeGreaterThanOrEqual(': connected\n\n'.length + 20 * ': ping\n\n'.length);
    expect(mine).toMatchObject({
      requests: 0,
      requestCredits: 0,
      streamCredits: mine.streamedBytes / 1024,
      total: mine.streamedBytes / 1024,
      openStreams: 1,
      maxOpenStreams: 1,
    });
    const other = (await t.get('/__sim/credits', {}, 'other-key')).body as Bill;
    // The pool stream's first book snapshot alone is larger than the margin stream's pings.
    expect(other.streamedBytes).toBeGreaterThan(1024);
    expect(other).toMatchObject({
      key: 'othe…',
      requests: 1,
      requestCredits: 5,
      byPath: { '/dex/get_pools': { requests: 1, credits: 5 } },
    });
    expect(other.streamCredits).toBe(other.streamedBytes / 1024);
    expect(other.total).toBe(5 + other.streamedBytes / 1024);

    // Closed, the stream stops costing: what was written after the client's last read is still billed.
    margin.close();
    await until(() => t.sim.credits(TEST_KEY).openStreams === 0, 'the margin stream closed');
    const closed = t.sim.credits(TEST_KEY).streamedBytes;
    expect(closed).toBeGreaterThanOrEqual(margin.bytes);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.sim.credits(TEST_KEY).streamedBytes).toBe(closed);
  }, 70_000);

  it('a stream key is billed as a key of its own', async () => {
    const t = await start({ streamKeys: ['stream-key-1'], heartbeatMs: 100, speed: 0.001 });
    const margin = await stream(t, '/dex-margin/manager-updates', {}, 'stream-key-1');
    await until(() => pings(margin) >= 3, '3 pings');
    await until(
      () => t.sim.credits('stream-key-1').streamedBytes === margin.bytes,
      `bill = ${margin.bytes} bytes read`,
    );
    expect((await t.get('/__sim/credits', {}, 'stream-key-1')).body).toMatchObject({
      key: 'stre…',
      requests: 0,
      openStreams: 1,
    });
    expect(t.sim.credits(TEST_KEY).streamedBytes).toBe(0);
  }, 40_000);

  it('maxOpenStreams is the most streams a key had open at once', async () => {
    const t = await start();
    const three = await Promise.all([0, 1, 2].map(() => stream(t, '/dex-margin/manager-updates')));
    await until(() => t.sim.credits(TEST_KEY).openStreams === 3, '3 open');
    three[0]!.close();
    three[1]!.close();
    await until(() => t.sim.credits(TEST_KEY).openStreams === 1, '1 open');
    expect(t.sim.credits(TEST_KEY).maxOpenStreams).toBe(3);
    await stream(t, '/dex/SUI_USDC/live-trades');
    await until(() => t.sim.credits(TEST_KEY).openStreams === 2, '2 open');
    expect(t.sim.credits(TEST_KEY).maxOpenStreams).toBe(3);
  }, 60_000);
});
