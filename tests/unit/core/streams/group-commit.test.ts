import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit, GROUP_MAX_MS } from '../../../../src/main/core/streams/group-commit';

const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('group commit', () => {
  it('an event on an idle stream is committed within the same turn of the event loop', async () => {
    const batches: number[][] = [];
    const g = new GroupCommit<number>({ commitBatch: (b) => batches.push(b) });
    g.push(1);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
  });

  it('a steady stream in 1 ms chunks commits at most every 5 ms, never holding an event much longer', async () => {
    // The clock, the timers and the immediates are the test's: the gaps are exact, not a loaded
    // machine's (a real-timer version of this test failed once under two busy loops).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    cleanups.push(() => vi.useRealTimers());
    const batches: Array<{ at: number; items: Array<{ n: number; at: number }> }> = [];
    const g = new GroupCommit<{ n: number; at: number }>({
      commitBatch: (items) => batches.push({ at: performance.now(), items }),
    });
    for (let n = 0; n < 300; n++) {
      g.push({ n, at: performance.now() });
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(GROUP_MAX_MS * 3);
    const all = batches.flatMap((b) => b.items.map((i) => i.n));
    expect(all).toEqual(Array.from({ length: 300 }, (_, i) => i));
    // 300 chunks over 300 ms: one commit per GROUP_MAX_MS at most, never two closer.
    const gaps = batches.slice(1).map((b, i) => b.at - batches[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(GROUP_MAX_MS);
    expect(batches.length).toBeLessThanOrEqual(300 / GROUP_MAX_MS + 2);
    // The longest any event waited: one hold and the millisecond it arrived in.
    const waits = batches.flatMap((b) => b.items.map((i) => b.at - i.at));
    expect(Math.max(...waits)).toBeLessThanOrEqual(GROUP_MAX_MS + 1);
  });

  it('a burst within one turn closes at the item limit', () => {
    const batches: number[] = [];
    const g = new GroupCommit<number>({ commitBatch: (b) => batches.push(b.length) }, 1_000);
    for (let n = 0; n < 2_500; n++) g.push(n);
    expect(batches).toEqual([1_000, 1_000]);
    g.flush();
    expect(batches).toEqual([1_000, 1_000, 500]);
  });
});
