import { SERIES_LIMIT_MAX } from '../../../shared/api';

/** How many requests one range call may make, by default (at 10 requests/s: 10 s). */
export const RANGE_MAX_REQUESTS = 100;

export interface RangeResult<T> {
  items: T[];
  /** Windows that were still full at one second (or when their times were unknown): items may be missing there. */
  truncatedWindows: number;
  /** True when the call stopped at `maxRequests` before covering the whole range. */
  incomplete: boolean;
  requests: number;
}

/**
 * Fetch a long time range through an endpoint that answers at most `limit` items per request
 * (the most recent ones of its window): windows that come back full are narrowed until they fit
 * (docs/service.md, Long time ranges). Bounded: a second that alone holds more than `limit` items
 * is taken as it is (counted as truncated), at most `maxRequests` requests are made, and the
 * call stops when `signal` fires.
 */
export async function fetchRange<T>(
  fromSec: number,
  toSec: number,
  fetchWindow: (from: number, to: number) => Promise<T[]>,
  opts: {
    limit?: number;
    initialWindowSec?: number;
    secondOf?: (item: T) => number;
    maxRequests?: number;
    signal?: AbortSignal;
  } = {},
): Promise<RangeResult<T>> {
  const limit = opts.limit ?? SERIES_LIMIT_MAX;
  const maxRequests = Math.max(1, opts.maxRequests ?? RANGE_MAX_REQUESTS);
  const width = Math.max(1, opts.initialWindowSec ?? toSec - fromSec + 1);
  // Newest windows first: when the budget runs out, what is missing is the oldest part.
  const windows: Array<[number, number]> = [];
  for (let end = toSec; end >= fromSec && windows.length <= maxRequests; end -= width)
    windows.push([Math.max(fromSec, end - width + 1), end]);
  const items: T[] = [];
  let truncatedWindows = 0;
  let requests = 0;
  while (windows.length > 0) {
    opts.signal?.throwIfAborted();
    if (requests >= maxRequests) return { items, truncatedWindows, incomplete: true, requests };
    const [from, to] = windows.shift()!;
    const got = await fetchWindow(from, to);
    requests++;
    items.push(...got);
    if (got.length < limit) continue;
    if (from === to) {
      truncatedWindows++;
      continue;
    }
    // A full answer holds the most recent items of its window. When their times are known, the
    // window is complete after its oldest second: what is left is [from, oldest].
    const seconds = opts.secondOf ? got.map(opts.secondOf).filter((x) => Number.isFinite(x)) : [];
    const oldest = seconds.length === got.length ? Math.min(...seconds) : NaN;
    if (oldest > from && oldest < to) {
      windows.unshift([from, oldest]);
    } else if (oldest === to) {
      // Every item of the answer shares its last second: that second is denser than one answer.
      truncatedWindows++;
      windows.unshift([from, to - 1]);
    } else {
      const mid = Math.floor((from + to) / 2);
      windows.unshift([mid + 1, to], [from, mid]);
    }
  }
  return { items, truncatedWindows, incomplete: false, requests };
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
