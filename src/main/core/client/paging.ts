import type { Page } from '../../../shared/api';
import { PER_PAGE_MAX } from '../../../shared/api';

/**
 * Every item of a paginated endpoint, page by page, with up to `prefetch` further pages
 * requested ahead (the request limiter still bounds the real concurrency).
 */
export async function* allItems<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  opts: { perPage?: number; prefetch?: number; maxPages?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const perPage = Math.min(PER_PAGE_MAX, Math.max(1, opts.perPage ?? PER_PAGE_MAX));
  const prefetch = Math.max(0, opts.prefetch ?? 2);
  const maxPages = opts.maxPages ?? 10_000;
  const inflight: Array<Promise<Page<T>>> = [];
  let next = 0;
  const fill = (): void => {
    while (inflight.length <= prefetch && next < maxPages) {
      const page = fetchPage(next++, perPage);
      // A page fetched ahead may fail before it is awaited (the service went away): mark its
      // rejection as handled now; it is still thrown to the caller when its turn comes.
      page.catch(() => {});
      inflight.push(page);
    }
  };
  fill();
  try {
    while (inflight.length > 0) {
      const page = await inflight.shift()!;
      yield* page.items;
      if (page.isLastPage || page.items.length === 0) return;
      fill();
    }
  } finally {
    inflight.length = 0;
  }
}

export async function collect<T>(items: AsyncIterable<T>, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
