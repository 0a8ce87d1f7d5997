import { SERIES_LIMIT_MAX } from '../../../shared/api';

/**
 * Fetch a long time range through an endpoint that answers at most `limit` items per request
 * (the most recent ones of its window): windows that come back full are split in half until
 * they fit or are one second wide (decisions.md, "Long time ranges").
 */
export async function fetchRange<T>(
  fromSec: number,
  toSec: number,
  fetchWindow: (from: number, to: number) => Promise<T[]>,
  opts: { limit?: number; initialWindowSec?: number; secondOf?: (item: T) => number } = {},
): Promise<{ items: T[]; truncatedWindows: number }> {
  const limit = opts.limit ?? SERIES_LIMIT_MAX;
  const width = Math.max(1, opts.initialWindowSec ?? toSec - fromSec + 1);
  const windows: Array<[number, number]> = [];
  for (let start = fromSec; start <= toSec; start += width) windows.push([start, Math.min(toSec, start + width - 1)]);
  const items: T[] = [];
  let truncatedWindows = 0;
  while (windows.length > 0) {
    const [from, to] = windows.shift()!;
    const got = await fetchWindow(from, to);
    if (got.length >= limit && to > from) {
      // A full answer holds the most recent items of its window. When their times are known,
      // the window is complete after its oldest second: narrow to what is left before it.
      const seconds = opts.secondOf ? got.map(opts.secondOf) : [];
      const oldest = seconds.length > 0 ? Math.min(...seconds) : NaN;
      const newest = seconds.length > 0 ? Math.max(...seconds) : NaN;
      if (Number.isFinite(oldest) && oldest > from && oldest <= to && newest <= to) {
        items.push(...got);
        windows.unshift([from, oldest]);
        continue;
      }
      const mid = Math.floor((from + to) / 2);
      windows.unshift([from, mid], [mid + 1, to]);
      continue;
    }
    if (got.length >= limit) truncatedWindows++;
    items.push(...got);
  }
  return { items, truncatedWindows };
}

export function dedupeBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}
