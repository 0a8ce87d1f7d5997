// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../../../src/renderer/src/api';
import MarketsView from '../../../../src/renderer/src/features/markets/MarketsView.vue';
import { clock } from '../../../../src/renderer/src/format';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { settle } from '../../support/timing';
import { flatCandles, SUI_USDC } from '../../support/pools';

beforeEach(() => setActivePinia(createPinia()));

describe('the Markets table', () => {
  it("reads the books again on the way back from a pool's page, so its mid is the one the page showed, and says when it read them", async () => {
    // The book moves between reads: 3.5000/3.5100 on arrival, 3.6000/3.6100 when the pool's page is left.
    let bid = 3_500_000;
    const readAt = [Date.UTC(2026, 10, 28, 17, 0, 5), Date.UTC(2026, 10, 28, 17, 2, 41)];
    let reads = 0;
    const f = fakeApi({
      pools: () => ({ data: [SUI_USDC], source: 'network', fetchedAt: Date.now(), stale: false }),
      depth: () => ({
        data: {
          pool_id: SUI_USDC.pool_id,
          bids: [{ price: bid, total_quantity: 1e9, order_count: 1 }],
          asks: [{ price: bid + 10_000, total_quantity: 1e9, order_count: 1 }],
        },
        source: 'network',
        fetchedAt: readAt[reads++]!,
        stale: false,
      }),
      candles: () => ({
        data: flatCandles(Array(25).fill(3.5), Date.now()),
        source: 'network',
        fetchedAt: Date.now(),
        stale: false,
      }),
    });
    setApi(f.api);
    const router = await routerAt('/markets');
    const w = mount(MarketsView, { global: { plugins: [router], stubs: { PoolView: true } } });
    await settle();
    const mid = () => w.find('[data-testid="pool-row"] td:nth-child(2)').text();
    const said = () => w.find('[data-testid="markets-read-at"]').text();
    expect(mid()).toBe('3.5050 USDC');
    expect(said()).toContain(`Mids and spreads as read at ${clock(readAt[0]!)}`);
    const count = (m: string) => f.calls.filter(([x]) => x === m).length;
    expect([count('depth'), count('candles')]).toEqual([1, 1]);
    // To the pool's page and back: the book is read again (the stream's, for nothing, in main);
    // the day's candles are not.
    bid = 3_600_000;
    await router.push('/markets/SUI_USDC');
    await settle();
    await router.push('/markets');
    await settle();
    expect(mid()).toBe('3.6050 USDC');
    expect(said()).toContain(`as read at ${clock(readAt[1]!)}`);
    expect([count('depth'), count('candles')]).toEqual([2, 1]);
    // "Read again" reads both.
    readAt.push(readAt[1]! + 60_000);
    await w.find('[data-testid="markets-refresh"]').trigger('click');
    await settle();
    expect([count('depth'), count('candles')]).toEqual([3, 2]);
  });
});
