import type { CancelSignal } from '../../../shared/contract';

/** A real AbortSignal for the client (fetch wants one) from whatever signal a shell passed. */
export function toAbortSignal(signal: CancelSignal | undefined): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  const c = new AbortController();
  if (signal.aborted) c.abort();
  else signal.addEventListener('abort', () => c.abort(), { once: true });
  return c.signal;
}
