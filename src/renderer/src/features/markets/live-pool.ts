import { onBeforeUnmount, shallowRef } from 'vue';
import type { Depth, Trade } from '../../../../shared/api';
import { useApi } from '../../api';

/** Trades kept for the tape. */
export const TAPE_SIZE = 200;
/** The ladder and the tape follow the pool at most this often (10 a second: faster than anyone reads a book). */
export const LIVE_EVERY_MS = 100;
/** The candles at most this often: a redraw of the candle chart takes milliseconds of main thread. */
export const CHART_EVERY_MS = 1000;
/** Trades remembered to drop one pushed again (a reconnect's REST backfill overlaps what the stream brought). */
const SEEN_TRADES = 20_000;

/**
 * Live pushes of one pool, coalesced: whatever arrives between two renders is merged and rendered
 * once, in an animation frame (TradingView's lightweight-charts does the same), at most every
 * 100 ms; the tape is a bounded ring. `depth` is the page's one book: the header's mid and
 * spread, the ladder and the depth chart all show it, so they never disagree (issue 40). The
 * candles get the trades (`onTrades`) at most once a second: rendering every frame kept a busy
 * pool's page busy nearly all the time (docs/architecture.md, Data flow, has the figures;
 * bench/renderer.ts measures the page).
 */
export function useLivePool(pool: () => string, onTrades: (trades: Trade[]) => void) {
  const depth = shallowRef<Depth>();
  const tape = shallowRef<Trade[]>([]);
  let pendingTrades: Trade[] = [];
  let pendingDepth: Depth | undefined;
  let frame: number | undefined;
  let wait: ReturnType<typeof setTimeout> | undefined;
  let renderedAt = Number.NEGATIVE_INFINITY;
  let chartTrades: Trade[] = [];
  let chartTimer: ReturnType<typeof setTimeout> | undefined;
  let chartAt = Number.NEGATIVE_INFINITY;
  /** Digests already taken, oldest first (a Set keeps insertion order): a trade counts once in the tape and the candles' volume. */
  const seen = new Set<string>();
  const isNew = (t: Trade): boolean => {
    if (seen.has(t.event_digest)) return false;
    seen.add(t.event_digest);
    if (seen.size > SEEN_TRADES) seen.delete(seen.values().next().value!);
    return true;
  };
  const flushCharts = (): void => {
    chartTimer = undefined;
    chartAt = performance.now();
    if (chartTrades.length > 0) {
      const trades = chartTrades;
      chartTrades = [];
      onTrades(trades);
    }
  };
  const flush = (): void => {
    frame = undefined;
    renderedAt = performance.now();
    if (pendingDepth) depth.value = pendingDepth;
    const fresh = pendingTrades.filter(isNew).sort((a, b) => b.checkpoint_timestamp_ms - a.checkpoint_timestamp_ms);
    if (fresh.length > 0) {
      tape.value = [...fresh, ...tape.value].slice(0, TAPE_SIZE);
      chartTrades.push(...fresh);
    }
    pendingTrades = [];
    pendingDepth = undefined;
    chartTimer ??= setTimeout(flushCharts, Math.max(0, chartAt + CHART_EVERY_MS - performance.now()));
  };
  const off = useApi().subscribe(`pool:${pool()}`, (push) => {
    pendingTrades.push(...push.trades);
    if (push.depth) pendingDepth = push.depth;
    if (frame !== undefined || wait !== undefined) return;
    const early = renderedAt + LIVE_EVERY_MS - performance.now();
    if (early <= 0) frame = requestAnimationFrame(flush);
    else
      wait = setTimeout(() => {
        wait = undefined;
        frame = requestAnimationFrame(flush);
      }, early);
  });
  onBeforeUnmount(() => {
    off();
    if (frame !== undefined) cancelAnimationFrame(frame);
    if (wait !== undefined) clearTimeout(wait);
    if (chartTimer !== undefined) clearTimeout(chartTimer);
  });
  return { depth, tape };
}
