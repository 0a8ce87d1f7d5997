import type {
  ContractInput,
  ContractMethod,
  ContractResults,
  InvokeOptions,
  PayloadOf,
  TidewatchApi,
  Topic,
} from '../../../shared/contract';
import { ApiError, CANCELLED, fromWire, WIRE_ERRORS, type WireError } from '../../../shared/wire';

/**
 * TidewatchApi over the headless shell: POST /api/invoke/<method>, and one SSE connection for
 * every subscribed topic (reopened when the set changes), since a browser keeps only six
 * connections per host. The token travels in the HttpOnly cookie set with the page.
 */
export function webTransport(base = ''): TidewatchApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let source: EventSource | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;

  const connect = (): void => {
    reopen = undefined;
    source?.close();
    source = undefined;
    const topics = [...listeners.keys()];
    if (topics.length === 0) return;
    const es = new EventSource(`${base}/api/subscribe?topics=${encodeURIComponent(topics.join(','))}`);
    for (const topic of topics) {
      es.addEventListener(topic, (e) => {
        const payload = JSON.parse((e as MessageEvent<string>).data) as unknown;
        for (const l of listeners.get(topic) ?? []) l(payload);
      });
    }
    source = es;
  };
  const schedule = (): void => {
    if (reopen === undefined) reopen = setTimeout(connect, 30);
  };

  return {
    async invoke<M extends ContractMethod>(
      method: M,
      args: ContractInput<M>,
      options?: InvokeOptions,
    ): Promise<ContractResults[M]> {
      let res: Response;
      // Aborting the fetch closes the request, and `serve` cancels the work behind it.
      const cancel = new AbortController();
      const onAbort = (): void => cancel.abort();
      if (options?.signal?.aborted) cancel.abort();
      options?.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        res = await fetch(`${base}/api/invoke/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args ?? {}),
          credentials: 'same-origin',
          signal: cancel.signal,
        });
      } catch {
        if (cancel.signal.aborted) throw fromWire(CANCELLED);
        throw new ApiError('unreachable', 'Tidewatch is not answering.', WIRE_ERRORS.unreachable.advice);
      } finally {
        options?.signal?.removeEventListener('abort', onAbort);
      }
      const body = (await res.json().catch(() => ({}))) as {
        result?: ContractResults[M];
        error?: WireError;
      };
      if (!res.ok || body.error) {
        throw fromWire(
          body.error ?? {
            kind: 'http',
            message: `Tidewatch answered with an error it did not explain (HTTP ${res.status}).`,
            advice: WIRE_ERRORS.http.advice,
          },
        );
      }
      return body.result as ContractResults[M];
    },
    subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
      let set = listeners.get(topic);
      if (!set) {
        listeners.set(topic, (set = new Set()));
        schedule();
      }
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => {
        const s = listeners.get(topic);
        if (!s?.delete(l)) return;
        if (s.size === 0) {
          listeners.delete(topic);
          schedule();
        }
      };
    },
  };
}
