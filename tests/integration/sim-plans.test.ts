import { afterEach, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/sim';
import { openSse, type SseReader } from '../support/sse';
import { startTestSim, type TestSim } from '../support/sim';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function burst(t: TestSim, n: number): Promise<Array<{ status: number; retryAfter: string | null; message: unknown }>> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const r = await t.get('/dex/get_pools');
      return { status: r.status, retryAfter: r.headers.get('retry-after'), message: r.body.message };
    }),
  );
}

describe('the Demo network enforces a plan of the real service (issue 13)', () => {
  it('free: 10 requests a second and one stream per key, refused with 429 and Retry-After', async () => {
    const t = await startTestSim({ plan: 'free' });
    closers.push(() => t.close());
    const started = performance.now();
    const answers = await burst(t, 30);
    // A token bucket: its 10 at once, plus what it refills while the burst is being answered (a
    // loaded CI machine took over 100 ms for the 30 once).
    const refilled = Math.floor(((performance.now() - started) / 1000) * PLANS.free.requestsPerSecond);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(PLANS.free.requestsPerSecond + 1 + refilled);
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
    const second = await openSse(t.url('/dex/SUI_USDC/live-trades'));
    closers.push(() => second.close());
    expect(second.status).toBe(429);
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
