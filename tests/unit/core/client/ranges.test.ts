import { describe, expect, it } from 'vitest';
import { fetchRange } from '../../../../src/main/core/client/ranges';

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
