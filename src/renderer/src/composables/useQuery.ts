import { onScopeDispose, ref, shallowRef, watch, type Ref, type WatchSource } from 'vue';
import type { QueryResult } from '../../../shared/contract';
import { WIRE_ERRORS } from '../../../shared/wire';
import { ApiError } from '../api';

export interface QueryState<T> {
  data: Ref<T | undefined>;
  loading: Ref<boolean>;
  error: Ref<{ message: string; advice?: string } | undefined>;
  /** How fresh the data is, from the contract's answer. */
  meta: Ref<{ source: 'network' | 'cache'; fetchedAt: number; stale: boolean; reason?: string } | undefined>;
  refresh(): Promise<void>;
}

export function describeError(err: unknown): { message: string; advice?: string } {
  if (err instanceof ApiError && err.kind === 'bad-argument') {
    // "addWatch: owner: not an address: …" -> "The owner is not an address: …" (no method names on screen).
    // "setThreshold: managerId: malformed: …" -> "The manager id is malformed: …".
    const m = /^\w+: (?:([\w.]+): )?(.*)$/.exec(err.message);
    const field = (path: string): string =>
      path.replace(/\./g, ' ').replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);
    const text = m ? `${m[1] ? `The ${field(m[1])} is ` : ''}${m[2]}` : err.message;
    return {
      message: `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`,
      advice: err.advice ?? WIRE_ERRORS['bad-argument'].advice,
    };
  }
  if (err instanceof ApiError) return { message: err.message, advice: err.advice };
  return { message: (err as Error)?.message ?? String(err) };
}

/**
 * One contract query as reactive state: loading, error (with what to do), data and its
 * freshness; re-run when `deps` change, and on demand (`refresh`, the retry buttons).
 */
export function useQuery<T>(
  run: (signal: AbortSignal) => Promise<QueryResult<T>> | undefined,
  deps: WatchSource[] = [],
  opts: { pollMs?: number } = {},
): QueryState<T> {
  const data = shallowRef<T>();
  const loading = ref(false);
  const error = ref<{ message: string; advice?: string }>();
  const meta = ref<QueryState<T>['meta']['value']>();
  let generation = 0;
  // A newer run, or the view going away, cancels the one in flight (main stops its requests).
  let inflight: AbortController | undefined;
  onScopeDispose(() => inflight?.abort());
  const refresh = async (): Promise<void> => {
    const mine = ++generation;
    inflight?.abort();
    const controller = (inflight = new AbortController());
    const pending = run(controller.signal);
    if (!pending) return;
    loading.value = true;
    try {
      const r = await pending;
      if (mine !== generation) return;
      data.value = r.data;
      meta.value = { source: r.source, fetchedAt: r.fetchedAt, stale: r.stale, reason: r.error?.message };
      error.value = undefined;
    } catch (err) {
      if (mine === generation && !controller.signal.aborted) error.value = describeError(err);
    } finally {
      if (mine === generation) loading.value = false;
      if (inflight === controller) inflight = undefined;
    }
  };
  watch(deps, () => void refresh(), { immediate: true });
  if (opts.pollMs) {
    const timer = setInterval(() => void refresh(), opts.pollMs);
    onScopeDispose(() => clearInterval(timer));
  }
  return { data, loading, error, meta, refresh };
}
