import { describe, expect, it, vi } from 'vitest';
import { StreamSupervisor } from '../../../../src/main/core/streams/supervisor';

describe('reconnect policy', () => {
  it('re-opens at once after a connection that delivered events; backs off only across failures', async () => {
    const opened: number[] = [];
    let n = 0;
    const fakeFetch = (async () => {
      n++;
      opened.push(Date.now());
      if (n <= 3) {
        // Delivers two events, then the service ends the stream.
        return new Response(`id: ${n}-0\ndata: {}\n\nid: ${n}-1\ndata: {}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        });
      }
      if (n <= 6) return new Response('{"error":{"message":"down"}}', { status: 503 });
      return new Response(': hello\n\n', { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof fetch;
    // Production base and cap; only the jitter is fixed (at its maximum) to make the timing checkable.
    // On vitest's fake clock: the gaps are the supervisor's own, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const sup = new StreamSupervisor({ budget: 1, fetch: fakeFetch, redact: (s) => s, random: () => 0.999 });
      sup.add({ id: 'margin', priority: 0, url: () => 'http://service.invalid/s', onEvent: () => {} });
      for (let step = 0; step < 2_000 && opened.length < 7; step++) await vi.advanceTimersByTimeAsync(10);
      sup.stopAll();
    } finally {
      vi.useRealTimers();
    }
    expect(opened).toHaveLength(7);
    const gaps = opened.slice(1).map((t, i) => t - opened[i]!);
    // After each of the three working connections: at once.
    expect(gaps.slice(0, 3).every((g) => g < 100)).toBe(true);
    // Then 503s: full jitter from 1 s, doubling: ~1 s, ~2 s, ~4 s.
    expect(gaps[3]).toBeGreaterThan(900);
    expect(gaps[4]).toBeGreaterThan(1800);
    expect(gaps[5]).toBeGreaterThan(3600);
  });
});
