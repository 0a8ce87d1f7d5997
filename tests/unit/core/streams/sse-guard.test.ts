import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OVERSIZE_MARKER, oversizeOf, SseSizeGuard } from '../../../../src/main/core/streams/sse-guard';

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
