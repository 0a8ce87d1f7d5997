import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarginEventLog, parseStreamId } from '../../../src/sim/event-log';

describe('the margin stream log', () => {
  it('gives strictly increasing ids, also within one millisecond', () => {
    const log = new MarginEventLog(100);
    const ids = [log.append(1000, {}), log.append(1000, {}), log.append(999, {}), log.append(1001, {})].map(
      (e) => e.id,
    );
    expect(ids).toEqual(['1000-0', '1000-1', '1000-2', '1001-0']);
  });

  it('replays exactly the suffix after any id, and keeps only the newest `retention`', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 80 }), fc.nat(), (gaps, pick) => {
        const log = new MarginEventLog(50);
        let ms = 1_000;
        for (const g of gaps) log.append((ms += g), { g });
        const all = log.since('all');
        expect(all.length).toBe(Math.min(50, gaps.length));
        const i = pick % all.length;
        expect(log.since(parseStreamId(all[i]!.id)!)).toEqual(all.slice(i + 1));
        expect(log.since({ ms: 0, seq: 0 })).toEqual(all);
      }),
    );
  });

  it('parses only <ms>-<seq> ids', () => {
    expect(parseStreamId('1732270000000-3')).toEqual({ ms: 1_732_270_000_000, seq: 3 });
    for (const bad of ['', '12', 'a-b', '1-2-3', '-1-0']) expect(parseStreamId(bad)).toBeNull();
  });
});
