import { onBeforeUnmount, onMounted, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { CreditForecast } from '../../../shared/contract';
import { useApi } from '../api';
import { FORECAST_EVERY_MS } from '../credits';
import { describeError } from './useQuery';

export interface CreditForecastState {
  /** The latest forecast read; kept when a later read fails. */
  forecast: ShallowRef<CreditForecast | undefined>;
  error: Ref<{ message: string; advice?: string } | undefined>;
  /** Read it now (a save, a stream that opened). */
  load(): Promise<void>;
}

/**
 * The contract's `creditForecast`, for a component that shows it: read when the component is
 * mounted, every 30 s while it is (skipped while the window is hidden), never after it is gone;
 * an answer older than a later read is dropped. `enabled` (default: always) keeps the reads off
 * while it is false, and reads at once when it turns true.
 */
export function useCreditForecast(opts: { enabled?: () => boolean } = {}): CreditForecastState {
  const api = useApi();
  const enabled = opts.enabled ?? (() => true);
  const forecast = shallowRef<CreditForecast>();
  const error = ref<{ message: string; advice?: string }>();
  let generation = 0;
  let mounted = false;

  async function load(): Promise<void> {
    const mine = ++generation;
    try {
      const f = await api.invoke('creditForecast', {});
      if (mine !== generation) return;
      forecast.value = f;
      error.value = undefined;
    } catch (err) {
      if (mine === generation) error.value = describeError(err);
    }
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  onMounted(() => {
    mounted = true;
    if (enabled()) void load();
    timer = setInterval(() => {
      if (enabled() && (typeof document === 'undefined' || !document.hidden)) void load();
    }, FORECAST_EVERY_MS);
  });
  onBeforeUnmount(() => {
    mounted = false;
    clearInterval(timer);
    generation++;
  });
  watch(enabled, (on) => {
    if (on && mounted) void load();
  });

  return { forecast, error, load };
}
