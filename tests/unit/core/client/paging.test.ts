import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../src/main/core/client/errors';
import { allItems, collect } from '../../../../src/main/core/client/paging';
import { fetchRange, dedupeBy } from '../../../../src/main/core/client/ranges';

describe('pages fetched ahead', () => {
  it('a page that fails before it is awaited is not an unhandled rejection; the caller gets the error', async () => {
    let othersFailed!: () => void;
    const failed = new Promise<void>((r) => (othersFailed = r));
    const pages = allItems(
      async (page) => {
        if (page > 0) {
          othersFailed();
          throw new ServiceError('network', 'The service cannot be reached (ECONNREFUSED).');
        }
        // The first page answers only after a page fetched ahead has failed and the event loop
        // has turned once with that rejection not yet awaited.
        await failed;
        await new Promise((r) => setImmediate(r));
        return { items: [1, 2], isLastPage: false, currentPage: 0, perPage: 2 };
      },
      { perPage: 2, prefetch: 3 },
    );
    await expect(collect(pages)).rejects.toMatchObject({ kind: 'network' });
    // Let the event loop turn (Node reports unhandled rejections once the microtasks drain): the
    // setup file fails this test on any unhandled rejection.
    await new Promise((r) => setImmediate(r));
  });
});

describe('paging and ranges', () => {
  it('iterates every page with prefetch, in order', async () => {
    const asked: number[] = [];
    const items = await collect(
      allItems(
        async (page, perPage) => {
          asked.push(page);
          const all = Array.from({ length: 123 }, (_, i) => i);
          return {
            items: all.slice(page * perPage, (page + 1) * perPage),
            isLastPage: (page + 1) * perPage >= 123,
            currentPage: page,
            perPage,
          };
        },
        { perPage: 50, prefetch: 2 },
      ),
    );
    expect(items).toEqual(Array.from({ length: 123 }, (_, i) => i));
    expect(asked.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('a range split into windows and merged equals one big fetch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 600 }),
        fc.boolean(),
        async (seconds, withTimes) => {
          const items = seconds.map((s, i) => ({ s, id: `${s}:${i}` })).sort((a, b) => b.s - a.s);
          // A service that answers at most 100 items of [from, to], the most recent ones.
          const window = async (from: number, to: number) =>
            items.filter((x) => x.s >= from && x.s <= to).slice(0, 100);
          const {
            items: got,
            truncatedWindows,
            incomplete,
          } = await fetchRange(0, 5000, window, withTimes ? { secondOf: (x) => x.s } : {});
          const merged = dedupeBy(got, (x) => x.id);
          if (truncatedWindows === 0 && !incomplete)
            expect(new Set(merged.map((x) => x.id))).toEqual(new Set(items.map((x) => x.id)));
        },
      ),
      { numRuns: 60 },
    );
  });
});
