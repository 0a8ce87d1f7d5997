import { describe, expect, it } from 'vitest';
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
    const sup = new StreamSupervisor({ budget: 1, fetch: fakeFetch, redact: (s) => s, random: () => 0.999 });
    sup.add({ id: 'margin', priority: 0, url: () => 'http://service.invalid/s', onEvent: () => {} });
    const deadline = Date.now() + 20_000;
    while (opened.length < 7 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    sup.stopAll();
    const gaps = opened.slice(1).map((t, i) => t - opened[i]!);
    // After each of the three working connections: at once.
    expect(gaps.slice(0, 3).every((g) => g < 100)).toBe(true);
    // Then 503s: full jitter from 1 s, doubling: ~1 s, ~2 s, ~4 s.
    expect(gaps[3]).toBeGreaterThan(900);
    expect(gaps[4]).toBeGreaterThan(1800);
    expect(gaps[5]).toBeGreaterThan(3600);
  }, 30_000);
});
