import { afterEach, describe, expect, it } from 'vitest';
import { PLANS as SHARED_PLANS } from '../../../src/shared/credit-prices';
import { PLAN_NAMES, PLANS } from '../../../src/sim';
import { openSse, type SseReader } from '../../support/sse';
import { startTestSim, TEST_KEY, type TestSim } from '../../support/sim';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A stream refused for the plan's stream limit: its status, headers and error message. */
async function refusedStream(
  t: TestSim,
  path: string,
): Promise<{ status: number; limit: string | null; retryAfter: string | null; message: string; code: string }> {
  const res = await fetch(t.url(path));
  const body = (await res.json()) as { error: { code: string; message: string }; message: string };
  expect(body.message).toBe(body.error.message);
  return {
    status: res.status,
    limit: res.headers.get('x-stream-limit'),
    retryAfter: res.headers.get('retry-after'),
    message: body.message,
    code: body.error.code,
  };
}

async function burst(
  t: TestSim,
  n: number,
): Promise<Array<{ status: number; retryAfter: string | null; message: unknown }>> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const r = await t.get('/dex/get_pools');
      return { status: r.status, retryAfter: r.headers.get('retry-after'), message: r.body.message };
    }),
  );
}

describe('the Demo network enforces a plan of the real service', () => {
  it("knows the service's four plans, the same the app's Settings offer", () => {
    expect(PLAN_NAMES).toEqual(['free', 'builder', 'scale', 'pro']);
    expect(PLANS).toBe(SHARED_PLANS);
    expect(PLAN_NAMES.map((p) => [PLANS[p].requestsPerSecond, PLANS[p].streams])).toEqual([
      [10, 1],
      [25, 3],
      [50, 10],
      [100, 25],
    ]);
  });

  it('free: 10 requests a second and one stream per key, refused with 429 and Retry-After', async () => {
    const t = await startTestSim({ plan: 'free' });
    closers.push(() => t.close());
    const started = performance.now();
    const answers = await burst(t, 30);
    // A token bucket: its 10 at once, plus what it refills while the burst is being answered (a
    // loaded CI machine took over 100 ms for the 30 once).
    const refilled = Math.floor(((performance.now() - started) / 1000) * PLANS.free.requestsPerSecond);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(
      PLANS.free.requestsPerSecond + 1 + refilled,
    );
    expect(refused.length).toBeGreaterThanOrEqual(30 - PLANS.free.requestsPerSecond - 1 - refilled);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(String(a.message)).toMatch(/too many requests/);
    }
    await new Promise((r) => setTimeout(r, 1_100)); // the bucket refills: streams count as requests too
    const first: SseReader = await openSse(t.url('/dex-margin/manager-updates', { 'last-id': '$' }));
    closers.push(() => first.close());
    expect(first.status).toBe(200);
    // Refused in a way a client learns the limit from: the message says it, and so does a header.
    expect(await refusedStream(t, '/dex/SUI_USDC/live-trades')).toEqual({
      status: 429,
      limit: '1',
      retryAfter: expect.stringMatching(/^\d+$/),
      message: "stream limit reached: this key's plan allows 1 stream at a time; close one and retry",
      code: 'too_many_streams',
    });
    expect(t.sim.credits(TEST_KEY)).toMatchObject({ openStreams: 1, maxOpenStreams: 1 });
  });

  it('builder: three streams at once, the fourth refused with the limit in its message and X-Stream-Limit', async () => {
    const t = await startTestSim({ plan: 'builder', retryAfter: false, historyDays: 0.2 });
    closers.push(() => t.close());
    for (const path of ['/dex-margin/manager-updates', '/dex/SUI_USDC/live-trades', '/dex/DEEP_SUI/live-trades']) {
      const r = await openSse(t.url(path));
      closers.push(() => r.close());
      expect(r.status, path).toBe(200);
    }
    const refused = await refusedStream(t, '/dex/DEEP_USDC/live-trades');
    expect(refused).toMatchObject({ status: 429, limit: String(PLANS.builder.streams), retryAfter: null });
    expect(refused.message).toMatch(/^stream limit reached: this key's plan allows 3 streams at a time/);
    expect(t.sim.credits(TEST_KEY)).toMatchObject({ openStreams: 3, maxOpenStreams: 3 });
  });

  it('without Retry-After when asked (the real service documents none)', async () => {
    const t = await startTestSim({ plan: 'free', retryAfter: false });
    closers.push(() => t.close());
    const refused = (await burst(t, 30)).filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(a.retryAfter).toBeNull();
  });

  it('pro allows what free refuses', async () => {
    const t = await startTestSim({ plan: 'pro' });
    closers.push(() => t.close());
    expect((await burst(t, 30)).every((a) => a.status === 200)).toBe(true);
  });
});
