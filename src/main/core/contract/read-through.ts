import type { QueryResult } from '../../../shared/contract';
import { unlessAborted } from '../client/abort';
import { ServiceError } from '../client/errors';
import type { ContractContext } from './context';

export type ReadThroughContext = Pick<ContractContext, 'cache' | 'storeHealth' | 'noteNetwork' | 'streams'>;

/** Errors for which a kept copy is better than nothing (the network, not the request, failed). */
export function cacheWorthy(err: unknown): err is ServiceError {
  return (
    err instanceof ServiceError && err.kind !== 'bad-request' && err.kind !== 'not-found' && err.kind !== 'cancelled'
  );
}

/** The failure a stale answer carries, as the page shows it. */
export const staleBecause = (err: ServiceError): QueryResult<unknown>['error'] => ({
  kind: err.kind,
  message: err.message,
  advice: err.advice,
});

/** The cache key of a call: its method and arguments. */
export const keyOf = (method: string, args: unknown): string => `${method}:${JSON.stringify(args)}`;

/**
 * Network first; on success the answer is kept. When the network fails and a kept copy exists,
 * that copy is returned with `stale: true` and the reason. The call's `signal` (with its deadline:
 * contract/handlers.ts) ends the wait at once, whatever part of the fetch does not carry it.
 */
export async function readThrough<T>(
  c: ReadThroughContext,
  key: string,
  fetcher: () => Promise<T>,
  signal?: AbortSignal,
): Promise<QueryResult<T>> {
  try {
    const data = await unlessAborted(fetcher(), signal);
    const fetchedAt = Date.now();
    keepQuietly(c, key, data, fetchedAt);
    c.noteNetwork();
    return { data, source: 'network', fetchedAt, stale: false };
  } catch (err) {
    c.noteNetwork(err);
    if (cacheWorthy(err)) {
      const hit = c.cache.load<T>(key);
      if (hit)
        return { data: hit.data, source: 'cache', fetchedAt: hit.fetchedAt, stale: true, error: staleBecause(err) };
    }
    throw err;
  }
}

/** A cache write that fails (disk full) must not fail the answer the network gave: the store health is told instead. */
export function keepQuietly(
  c: Pick<ContractContext, 'cache' | 'storeHealth'>,
  key: string,
  data: unknown,
  at: number,
): void {
  try {
    c.cache.save(key, data, at);
    c.storeHealth.noteOk();
  } catch (err) {
    c.storeHealth.noteError(err);
  }
}

/** Local data (the store): fresh while the stream that feeds it is open. */
export function local<T>(c: Pick<ContractContext, 'streams'>, data: T, streamId: string): QueryResult<T> {
  const s = c.streams().find((x) => x.id === streamId);
  const live = s?.state === 'open';
  return { data, source: live ? 'network' : 'cache', fetchedAt: s?.lastEventAt ?? Date.now(), stale: !live };
}
