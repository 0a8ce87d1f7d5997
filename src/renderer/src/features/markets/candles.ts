import { computed, onBeforeUnmount, ref, shallowRef, watch } from 'vue';
import type { Candle, Pool, Trade } from '../../../../shared/api';
import { TIMEFRAME_SECONDS, type Timeframe } from '../../../../shared/api';
import { humanPrice } from '../../../../shared/units';
import { useApi } from '../../api';
import { describeError } from '../../composables/useQuery';
import { LABEL_GAP_PX } from '../../charts';
import { priceAxisRange, type PositionLine, type PriceSpan } from './position-lines';

/** Candles shown when a timeframe opens (the rest is a pan or a zoom away). */
const DEFAULT_VISIBLE: Record<Timeframe, number> = { '1m': 120, '5m': 96, '15m': 96, '1h': 72, '4h': 60, '1d': 60 };
/** Candles kept on the chart: older ranges beyond this are dropped (a ring, not unbounded growth). */
export const MAX_CANDLES = 3000;
/** Candles asked at once: when a timeframe opens, and for each range before the oldest. */
const RANGE = 200;

/** Live trades update the newest candle (or open the next one) without refetching; older trades change nothing. */
export function mergeTrades(candles: readonly Candle[], trades: readonly Trade[], periodMs: number): Candle[] {
  if (candles.length === 0) return [...candles];
  const list = [...candles];
  for (const t of [...trades].sort((a, b) => a.checkpoint_timestamp_ms - b.checkpoint_timestamp_ms)) {
    const start = Math.floor(t.checkpoint_timestamp_ms / periodMs) * periodMs;
    const last = list[list.length - 1]!;
    const lastStart = Date.parse(`${last.timestamp}Z`);
    if (start === lastStart) {
      list[list.length - 1] = {
        ...last,
        high: Math.max(last.high, t.price),
        low: Math.min(last.low, t.price),
        close: t.price,
        volume_base: (BigInt(last.volume_base) + BigInt(t.base_quantity)).toString(),
        volume_quote: (BigInt(last.volume_quote) + BigInt(t.quote_quantity)).toString(),
        trade_count: last.trade_count + 1,
      };
    } else if (start > lastStart) {
      list.push({
        timestamp: new Date(start).toISOString().slice(0, 19),
        open: t.price,
        high: t.price,
        low: t.price,
        close: t.price,
        volume_base: String(t.base_quantity),
        volume_quote: String(t.quote_quantity),
        trade_count: 1,
      });
    }
  }
  return list;
}

/**
 * A pool's candles at the chosen timeframe and the window of them the chart shows: read when the
 * timeframe changes (a change cancels the read in flight, and main stops its requests), the range
 * before them when the window reaches the left edge, the newest one moved by live trades (`merge`).
 */
/** The candles the zoom shows (`zoom` in percent of all of them, as the chart's data zoom keeps it). */
export function visibleCandles(candles: readonly Candle[], zoom: { start: number; end: number }): Candle[] {
  const n = candles.length;
  return candles.slice(Math.floor((zoom.start / 100) * n), Math.ceil((zoom.end / 100) * n));
}

/** The price span of the candles the zoom shows, in quote units; null with none. */
export function visibleSpan(
  candles: readonly Candle[],
  zoom: { start: number; end: number },
  pool: Pool,
): PriceSpan | null {
  const shown = visibleCandles(candles, zoom);
  if (shown.length === 0) return null;
  return {
    low: Math.min(...shown.map((k) => humanPrice(k.low, pool))),
    high: Math.max(...shown.map((k) => humanPrice(k.high, pool))),
  };
}

/**
 * The candle chart's height and its candle plot's top and height in it (the volume and the slider
 * below): the liquidation band beside it draws on the same pixels, so a price is level on both.
 */
export const CANDLE_PLOT = { heightPx: 430, topPx: 10, plotPx: 302 } as const;

/**
 * The candle chart's price axis (quote units): the candles in view, the position lines drawn and
 * the last price, half a label of air above the highest line. Fixed here, not left to ECharts'
 * rounding, so the labels beside the chart and the liquidation band beside it are laid on it.
 */
export function candlePriceAxis(
  pool: Pool,
  candles: readonly Candle[],
  zoom: { start: number; end: number },
  lines: readonly Pick<PositionLine, 'price'>[],
  last: number | null,
): { min: number; max: number } {
  return priceAxisRange(
    [
      ...visibleCandles(candles, zoom).flatMap((k) => [humanPrice(k.low, pool), humanPrice(k.high, pool)]),
      ...lines.map((l) => l.price),
      ...(last === null ? [] : [last]),
    ],
    { plotPx: CANDLE_PLOT.plotPx, topPx: LABEL_GAP_PX / 2 },
  );
}

export function useCandles(poolName: () => string, pool: () => Pool | undefined) {
  const api = useApi();
  const timeframe = ref<Timeframe>('15m');
  const candles = shallowRef<Candle[]>([]);
  const meta = ref<{ source: 'network' | 'cache'; fetchedAt: number; stale: boolean; reason?: string }>();
  const loading = ref(false);
  const loadingOlder = ref(false);
  const error = ref<{ message: string; advice?: string }>();
  /** The window shown, in percent of the candles loaded (ECharts' dataZoom). */
  const zoom = ref<{ start: number; end: number }>({ start: 0, end: 100 });
  /** Start of the oldest range read (UNIX seconds); 0 before the first. */
  let oldestLoaded = 0;

  let call: AbortController | undefined;
  onBeforeUnmount(() => call?.abort());

  async function load(): Promise<void> {
    loading.value = true;
    call?.abort();
    const own = (call = new AbortController());
    try {
      const to = Math.floor(Date.now() / 1000);
      const from = to - TIMEFRAME_SECONDS[timeframe.value] * RANGE;
      const r = await api.invoke(
        'candles',
        { pool: poolName(), timeframe: timeframe.value, from, to },
        { signal: own.signal },
      );
      if (own.signal.aborted) return;
      candles.value = r.data;
      resetZoom();
      meta.value = { source: r.source, fetchedAt: r.fetchedAt, stale: r.stale, reason: r.error?.message };
      oldestLoaded = from;
      error.value = undefined;
    } catch (err) {
      if (!own.signal.aborted) error.value = describeError(err);
    } finally {
      if (call === own) loading.value = false;
    }
  }

  function resetZoom(): void {
    const n = candles.value.length;
    const visible = DEFAULT_VISIBLE[timeframe.value] ?? 96;
    zoom.value = { start: n <= visible ? 0 : Math.max(0, 100 - (visible / n) * 100), end: 100 };
  }
  /** The zoom buttons: halve or double the candles shown, keeping the newest in view. */
  function zoomBy(factor: number): void {
    const span = Math.min(100, Math.max(2, (zoom.value.end - zoom.value.start) * factor));
    zoom.value = { start: Math.max(0, zoom.value.end - span), end: zoom.value.end };
  }

  /** Panning or zooming to the left edge loads the range before it. */
  async function loadOlder(): Promise<void> {
    if (loadingOlder.value || !oldestLoaded) return;
    loadingOlder.value = true;
    try {
      const to = oldestLoaded - 1;
      const from = to - TIMEFRAME_SECONDS[timeframe.value] * RANGE;
      const r = await api.invoke('candles', { pool: poolName(), timeframe: timeframe.value, from, to });
      oldestLoaded = from;
      if (r.data.length > 0) candles.value = [...r.data, ...candles.value].slice(-MAX_CANDLES);
    } catch (err) {
      error.value = describeError(err);
    } finally {
      loadingOlder.value = false;
    }
  }
  /** The chart was zoomed or panned to this window. */
  function zoomTo(start: number, end: number): void {
    zoom.value = { start, end };
    if (start <= 2) void loadOlder();
  }

  function merge(trades: Trade[]): void {
    if (candles.value.length === 0) return;
    candles.value = mergeTrades(candles.value, trades, TIMEFRAME_SECONDS[timeframe.value] * 1000).slice(-MAX_CANDLES);
  }

  /** The newest candle's close in quote units, the price now; null before candles. */
  const lastClose = computed(() => {
    const p = pool();
    const k = candles.value[candles.value.length - 1];
    return p && k ? humanPrice(k.close, p) : null;
  });

  watch(timeframe, () => void load(), { immediate: true });

  return {
    timeframe,
    candles,
    meta,
    loading,
    loadingOlder,
    error,
    zoom,
    lastClose,
    load,
    resetZoom,
    zoomBy,
    zoomTo,
    merge,
  };
}
