// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, watch } from 'vue';
import {
  CHART_EVERY_MS,
  LIVE_EVERY_MS,
  TAPE_SIZE,
  useLivePool,
} from '../../../../src/renderer/src/features/markets/live-pool';
import { setApi } from '../../../../src/renderer/src/api';
import { fakeApi } from '../../../support/fake-api';

beforeEach(() => {
  setActivePinia(createPinia());
  // The pool's clock is faked: under load Node fires a timer by its loop's cached time, up to a
  // busy turn early (one real run measured a 47 ms gap between renders), so wall-clock gaps say
  // nothing of the throttle's own logic.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance', 'Date'],
  });
});
afterEach(() => vi.useRealTimers());

describe('a busy pool', () => {
  it('renders the book and tape at most every 100 ms and the charts at most once a second, losing no trade', async () => {
    const f = fakeApi({});
    setApi(f.api);
    const renders: number[] = [];
    const charts: Array<{ at: number; trades: number }> = [];
    let tape: ReturnType<typeof useLivePool>['tape'] | undefined;
    const Probe = defineComponent({
      setup() {
        const live = useLivePool(
          () => 'SUI_USDC',
          (trades) => charts.push({ at: performance.now(), trades: trades.length }),
        );
        tape = live.tape;
        // Timed when the book is set, not when Vue's scheduler gets to the watcher (which a busy
        // turn can delay for one render and not the next).
        watch(live.depth, () => renders.push(performance.now()), { flush: 'sync' });
        return () => h('span', String(live.tape.value.length));
      },
    });
    const w = mount(Probe);
    const depth = { pool_id: '0x1', bids: [{ price: 1, total_quantity: 1, order_count: 1 }], asks: [] };
    let n = 0;
    // 1.5 s of a busy pool: a push every 2 ms, each with a book and two trades.
    for (let i = 0; i < 750; i++) {
      const trades = [0, 1].map(() => ({
        event_digest: `d${n++}`,
        checkpoint_timestamp_ms: Date.now(),
        price: 1,
        base_quantity: 1,
        quote_quantity: 1,
        taker_is_bid: true,
      }));
      f.push('pool:SUI_USDC', {
        pool: 'SUI_USDC',
        trades,
        depth: { ...depth, bids: [{ ...depth.bids[0]!, total_quantity: n }] },
      });
      // Now and then trades pushed again, in the same render window and a later one (a reconnect's backfill overlapping the stream).
      if (n % 50 === 0)
        f.push('pool:SUI_USDC', {
          pool: 'SUI_USDC',
          trades: [...trades, { ...trades[0]!, event_digest: `d${n - 30}` }],
          depth: null,
        });
      await vi.advanceTimersByTimeAsync(2);
    }
    await vi.advanceTimersByTimeAsync(1_200);
    const gaps = renders.slice(1).map((t, i) => t - renders[i]!);
    expect(renders.length).toBeGreaterThan(5);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(LIVE_EVERY_MS);
    const chartGaps = charts.slice(1).map((c, i) => c.at - charts[i]!.at);
    expect(charts.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...chartGaps)).toBeGreaterThanOrEqual(CHART_EVERY_MS);
    // ...and no slower than that while pushes keep coming: one frame (16 ms) after the wait at most.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(LIVE_EVERY_MS + 20);
    // Every trade reached the charts exactly once, pushed again or not; the tape keeps its newest 200, each once.
    expect(charts.reduce((s, c) => s + c.trades, 0)).toBe(n);
    expect(w.text()).toBe(String(TAPE_SIZE));
    expect(new Set(tape!.value.map((t) => t.event_digest)).size).toBe(TAPE_SIZE);
    w.unmount();
  });
});
