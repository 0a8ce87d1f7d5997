import { onBeforeUnmount, onMounted, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { CreditForecast, ForecastPreview } from '../../../shared/contract';
import { useApi } from '../api';
import { FORECAST_EVERY_MS } from '../credits';
import { describeError } from './useQuery';

export interface CreditForecastState {
  /** The latest forecast read; kept when a later read fails. */
  forecast: ShallowRef<CreditForecast | undefined>;
  error: Ref<{ message: string; advice?: string } | undefined>;
  /** Read it now (a save, a stream that opened, a plan in force that changed). */
  load(): Promise<void>;
}

/** A preview typed in the form is asked for once it rests this long (a number typed digit by digit). */
export const PREVIEW_SETTLE_MS = 250;

/**
 * The contract's `creditForecast`, for a component that shows it: read when the component is
 * mounted, every 30 s while it is (skipped while the window is hidden), never after it is gone;
 * an answer older than a later read is dropped. `enabled` (default: always) keeps the reads off
 * while it is false, and reads at once when it turns true. `preview` (default: none) gives
 * settings not saved: the forecast is of them, read again shortly after they change.
 */
export function useCreditForecast(
  opts: { enabled?: () => boolean; preview?: () => ForecastPreview | null } = {},
): CreditForecastState {
  const api = useApi();
  const enabled = opts.enabled ?? (() => true);
  const preview = opts.preview ?? (() => null);
  const forecast = shallowRef<CreditForecast>();
  const error = ref<{ message: string; advice?: string }>();
  let generation = 0;
  let mounted = false;

  async function load(): Promise<void> {
    const mine = ++generation;
    const p = preview();
    try {
      const f = await api.invoke('creditForecast', p ? { preview: p } : {});
      if (mine !== generation) return;
      forecast.value = f;
      error.value = undefined;
    } catch (err) {
      if (mine === generation) error.value = describeError(err);
    }
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  let settling: ReturnType<typeof setTimeout> | undefined;
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
    clearTimeout(settling);
    generation++;
  });
  watch(enabled, (on) => {
    if (on && mounted) void load();
  });
  watch(
    () => JSON.stringify(preview()),
    () => {
      clearTimeout(settling);
      // A read under way is of the settings before: its answer is dropped.
      generation++;
      settling = setTimeout(() => {
        if (mounted && enabled()) void load();
      }, PREVIEW_SETTLE_MS);
    },
  );

  return { forecast, error, load };
}
