import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText } from '../../src/main/core/client/body';
import { ServiceError } from '../../src/main/core/client/errors';
import { allItems, collect } from '../../src/main/core/client/paging';
import { fetchRange } from '../../src/main/core/client/ranges';
import { OVERSIZE_MARKER, oversizeOf, SseSizeGuard } from '../../src/main/core/streams/sse-guard';
import { StreamSupervisor } from '../../src/main/core/streams/supervisor';
import { CONTRACT_ARGS, parseArgs } from '../../src/shared/contract';

describe('pages fetched ahead', () => {
  it('a page that fails before it is awaited is not an unhandled rejection; the caller gets the error', async () => {
    const pages = allItems(
      async (page) => {
        if (page > 0) throw new ServiceError('network', 'The service cannot be reached (ECONNREFUSED).');
        // The first page takes longer than the others take to fail.
        await new Promise((r) => setTimeout(r, 50));
        return { items: [1, 2], isLastPage: false, currentPage: 0, perPage: 2 };
      },
      { perPage: 2, prefetch: 3 },
    );
    await expect(collect(pages)).rejects.toMatchObject({ kind: 'network' });
    // Let the event loop run: the setup file fails this test on any unhandled rejection.
    await new Promise((r) => setTimeout(r, 50));
  });
});

describe('range splitting is bounded', () => {
  it('takes a second denser than one answer as it is, says so, and ends', async () => {
    let requests = 0;
    // 250 trades in second 1000, the rest spread out: a window never narrows below one second.
    const items = [
      ...Array.from({ length: 250 }, (_, i) => ({ s: 1000, id: `d${i}` })),
      ...Array.from({ length: 50 }, (_, i) => ({ s: 900 + i, id: `s${i}` })),
    ];
    const r = await fetchRange(
      0,
      2000,
      async (from, to) => {
        requests++;
        return items
          .filter((x) => x.s >= from && x.s <= to)
          .sort((a, b) => b.s - a.s)
          .slice(0, 100);
      },
      { secondOf: (x) => x.s },
    );
    expect(requests).toBeLessThan(20);
    expect(r.truncatedWindows).toBeGreaterThan(0);
    expect(new Set(r.items.filter((x) => x.s < 1000).map((x) => x.id)).size).toBe(50);
  });

  it('stops at maxRequests and says the answer is incomplete', async () => {
    let requests = 0;
    const r = await fetchRange(
      0,
      10_000_000,
      async () => {
        requests++;
        return Array.from({ length: 100 }, (_, i) => i);
      },
      { maxRequests: 25 },
    );
    expect(requests).toBe(25);
    expect(r.incomplete).toBe(true);
  });

  it('stops when the caller gives up', async () => {
    const c = new AbortController();
    let requests = 0;
    const p = fetchRange(
      0,
      100_000,
      async () => {
        requests++;
        if (requests === 3) c.abort();
        return Array.from({ length: 100 }, (_, i) => i);
      },
      { signal: c.signal },
    );
    await expect(p).rejects.toThrow();
    expect(requests).toBe(3);
  });
});

describe('contract bounds', () => {
  it('refuses ranges that would plan thousands of requests, and times beyond any real date', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(() => parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1m', from: 0, to: now })).toThrow(/too long/);
    expect(() => parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1h', from: 0, to: 2 ** 53 })).toThrow(
      /to: expected UNIX seconds/,
    );
    expect(() => parseArgs('trades', { pool: 'SUI_USDC', from: now - 30 * 86_400, to: now })).toThrow(/too long/);
    expect(() => parseArgs('trades', { pool: 'SUI_USDC', from: now, to: now + 3 * 86_400 })).toThrow(/future/);
    expect(parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1d', from: now - 365 * 86_400, to: now })).toBeTruthy();
    expect(() => parseArgs('marginEvents', { fromMs: 2 ** 60 })).toThrow(/fromMs/);
    expect(Object.keys(CONTRACT_ARGS)).toContain('retryStreams');
  });
});

describe('messages from the service are cut', () => {
  it('to a bounded length, on a code point boundary', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 2000 }), (text) => {
        const out = cutText(text, 300);
        expect(Array.from(out).length).toBeLessThanOrEqual(300);
        expect(out).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
    );
    expect(cutText('x'.repeat(5_000_000)).length).toBeLessThanOrEqual(300);
  });
});

/** Parse SSE text as the stream does: the guard, then the parser. */
function parse(chunks: string[], max = 1000): EventSourceMessage[] {
  const out: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => out.push(m) });
  const guard = new SseSizeGuard(max);
  for (const c of chunks) parser.feed(guard.feed(c));
  return out;
}

/** Cut `text` at the given (sorted, unique) positions. */
function chunk(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

describe('the SSE size guard', () => {
  const stream = [
    'id: 1-0\ndata: {"a":1}\n\n',
    ': ping\r\n\r\n',
    `id: 2-0\r\ndata: ${'x'.repeat(5000)}\r\n\r\n`,
    'id: 3-0\rdata: {"a":3}\r\r',
    `event: big\nid: 4-0\ndata: ${'y'.repeat(600)}\ndata: ${'z'.repeat(600)}\n\n`,
    'id: 5-0\ndata: {"a":5}\n\n',
  ].join('');

  it('any chunking of the same byte stream yields the same events', () => {
    const whole = parse([stream]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(parse(chunk(stream, cuts))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('passes LF-only text through unchanged and reframes exactly where the slow path would', () => {
    const lfOnly = stream.replace(/\r\n?/g, '\n');
    // The line-by-line path alone, for comparison.
    const slow = (chunks: string[]): string => {
      const g = new SseSizeGuard(1000) as unknown as { reframe(c: string): string };
      return chunks.map((c) => g.reframe(c)).join('');
    };
    const fast = (chunks: string[]): string => {
      const g = new SseSizeGuard(1000);
      return chunks.map((c) => g.feed(c)).join('');
    };
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), (cuts, crlf) => {
        const text = crlf ? stream : lfOnly;
        expect(fast(chunk(text, cuts))).toBe(slow(chunk(text, cuts)));
      }),
      { numRuns: 300 },
    );
    expect(fast(['id: 1-0\ndata: {"a":1}\n', '\nid: 2-0\nda', 'ta: 2\n\n'])).toBe(
      'id: 1-0\ndata: {"a":1}\n\nid: 2-0\ndata: 2\n\n',
    );
  });

  it('replaces an oversized line or event with a marker, keeps its id, and loses nothing after it', () => {
    const events = parse([stream]);
    expect(events.map((e) => e.id)).toEqual(['1-0', '2-0', '3-0', '4-0', '5-0']);
    expect(oversizeOf(events[0]!.data)).toBeNull();
    expect(oversizeOf(events[1]!.data)).toBeGreaterThanOrEqual(5000);
    expect(events[2]!.data).toBe('{"a":3}');
    expect(events[3]!.event).toBe('big');
    expect(events[3]!.data).toContain(OVERSIZE_MARKER);
    expect(events[4]!.data).toBe('{"a":5}');
  });

  it('holds no more than its limit of an endless line', () => {
    const guard = new SseSizeGuard(1024 * 1024);
    const mb = 'q'.repeat(1024 * 1024);
    let passed = 0;
    for (let i = 0; i < 50; i++) passed += guard.feed(i === 0 ? `id: 9-0\ndata: ${mb}` : mb).length;
    passed += guard.feed('\n\nid: 10-0\ndata: {}\n\n').length;
    expect(passed).toBeLessThan(200);
  });
});

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
