import { onBeforeUnmount, shallowRef } from 'vue';
import type { Depth, Trade } from '../../../../shared/api';
import { useApi } from '../../api';

/** Trades kept for the tape. */
export const TAPE_SIZE = 200;

/**
 * Live pushes of one pool, coalesced: whatever arrives between two animation frames is merged
 * and rendered once (TradingView's lightweight-charts does the same), the tape is a bounded ring.
 */
export function useLivePool(pool: () => string, onTrades: (trades: Trade[]) => void) {
  const depth = shallowRef<Depth>();
  const tape = shallowRef<Trade[]>([]);
  let pendingTrades: Trade[] = [];
  let pendingDepth: Depth | undefined;
  let frame: number | undefined;
  const flush = (): void => {
    frame = undefined;
    if (pendingDepth) depth.value = pendingDepth;
    if (pendingTrades.length > 0) {
      const fresh = pendingTrades.sort((a, b) => b.checkpoint_timestamp_ms - a.checkpoint_timestamp_ms);
      const seen = new Set(tape.value.map((t) => t.event_digest));
      tape.value = [...fresh.filter((t) => !seen.has(t.event_digest)), ...tape.value].slice(0, TAPE_SIZE);
      onTrades(fresh);
    }
    pendingTrades = [];
    pendingDepth = undefined;
  };
  const off = useApi().subscribe(`pool:${pool()}`, (push) => {
    pendingTrades.push(...push.trades);
    if (push.depth) pendingDepth = push.depth;
    frame ??= requestAnimationFrame(flush);
  });
  onBeforeUnmount(() => {
    off();
    if (frame !== undefined) cancelAnimationFrame(frame);
  });
  return { depth, tape };
}
