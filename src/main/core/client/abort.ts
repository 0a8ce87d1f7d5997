import type { CancelSignal } from '../../../shared/contract';
import { ServiceError } from './errors';

/** A real AbortSignal for the client (fetch wants one) from whatever signal a shell passed. */
export function toAbortSignal(signal: CancelSignal | undefined): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  const c = new AbortController();
  if (signal.aborted) c.abort();
  else signal.addEventListener('abort', () => c.abort(), { once: true });
  return c.signal;
}

/**
 * `work`, or as soon as `signal` fires why it fired (a deadline's timeout, else `cancelled`): a
 * call answers at its deadline even when part of the work it started cannot be stopped (a price
 * read other callers share); that part goes on and its outcome is dropped.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(
        signal.reason instanceof ServiceError
          ? signal.reason
          : new ServiceError('cancelled', 'The request was cancelled.'),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}
