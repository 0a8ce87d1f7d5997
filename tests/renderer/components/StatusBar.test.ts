// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import type { StatusSnapshot } from '../../../src/shared/contract';
import { setApi } from '../../../src/renderer/src/api';
import StatusBar from '../../../src/renderer/src/components/StatusBar.vue';
import { useStatusStore } from '../../../src/renderer/src/stores/status';
import { fakeApi } from '../../support/fake-api';
import { SETTINGS } from '../support/settings';
import { statusWith } from '../../support/status';

beforeEach(() => setActivePinia(createPinia()));

/** A status snapshot of a custom network, online, with nothing to say but `patch`. */
const snapshotWith = statusWith;

describe('the status bar: what the budget did to the reads', () => {
  const snapshot = (reads: StatusSnapshot['reads']): StatusSnapshot => snapshotWith({ reads });
  const prices = [
    { symbol: 'SUI', everyMs: 45_000, slowed: false, why: 'near liquidation (+3.2 %)', readAt: null },
    { symbol: 'DEEP', everyMs: 300_000, slowed: true, why: 'far from liquidation', readAt: null },
    { symbol: 'WAL', everyMs: 5_400_000, slowed: true, why: 'far from liquidation', readAt: null },
  ];

  it('shows the budget note in a few words, with every price read in its tooltip', async () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const status = useStatusStore();
    status.snapshot = snapshot({
      prices,
      recordsEveryMs: 3 * 3_600_000,
      recordsSlowed: false,
      pace: 2.5,
      budgetNote: "Reads slowed to stay within this month's credits (least urgent first, up to 2.5x).",
    });
    const w = mount(StatusBar);
    const note = w.get('[data-testid="reads-note"]');
    expect(note.text()).toBe('Reads slowed for the budget');
    expect(note.attributes('title')!.split('\n')).toEqual([
      "Reads slowed to stay within this month's credits (least urgent first, up to 2.5x).",
      'SUI price read every 45 s: near liquidation (+3.2 %)',
      'DEEP price read every 5 min: far from liquidation (slowed for the budget)',
      'WAL price read every 1.5 h: far from liquidation (slowed for the budget)',
      'Margin records read every 3 h',
    ]);
    status.snapshot = snapshot({
      prices: [{ ...prices[0]!, everyMs: null }],
      recordsEveryMs: 86_400_000,
      recordsSlowed: true,
      poolsEveryMs: 6 * 3_600_000,
      poolsSlowed: true,
      liquidationsEveryMs: null,
      liquidationsSlowed: true,
      pace: null,
      budgetNote:
        "This month's credits are spent: prices are no longer read; the margin stream still alerts liquidations.",
    });
    await nextTick();
    expect(w.get('[data-testid="reads-note"]').text()).toBe('Reads stopped for the budget');
    expect(w.get('[data-testid="reads-note"]').attributes('title')!.split('\n').slice(1)).toEqual([
      'SUI price not read: near liquidation (+3.2 %)',
      'Margin records read every 24 h (slowed for the budget)',
      // Every read the credits panel counts is in the tooltip too.
      "Margin pools' rates (pool health) read every 6 h (slowed for the budget)",
      "Every pool's loans (the liquidation map) not read: the budget is spent",
    ]);
    w.unmount();
  });

  it('adds nothing to the bar when the budget slowed nothing; the reads stay in its tooltip', () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const status = useStatusStore();
    status.snapshot = snapshot({
      prices: prices.slice(0, 1),
      recordsEveryMs: 3 * 3_600_000,
      recordsSlowed: false,
      pace: 1,
      budgetNote: null,
    });
    const w = mount(StatusBar);
    expect(w.find('[data-testid="reads-note"]').exists()).toBe(false);
    expect(w.get('[data-testid="status-bar"]').attributes('title')).toContain(
      'SUI price read every 45 s: near liquidation (+3.2 %)',
    );
    w.unmount();
  });
});

describe('the status bar: an alert channel not reached', () => {
  it('says which, since when on the local clock, and why in a few words, in the warning colour', async () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const status = useStatusStore();
    // Today at 12:55 on this machine's clock (the tests run in UTC).
    const since = new Date().setHours(12, 55, 0, 0);
    const base: StatusSnapshot = statusWith({
      network: 'demo',
      streams: [
        {
          id: 'margin',
          state: 'open',
          lastEventAt: null,
          lastByteAt: null,
          nextTryAt: null,
          reconnects: 0,
          events: 0,
          lastError: null,
        },
      ],
    });
    status.snapshot = base;
    const w = mount(StatusBar);
    expect(w.find('[data-testid="channel-unreached"]').exists()).toBe(false);
    status.snapshot = {
      ...base,
      unreached: [
        {
          channel: 'phone',
          words: 'phone (ntfy)',
          since,
          reason:
            'ntfy (phone) could not be reached: connection refused (nothing listens at that address); it is tried again.',
          short: 'connection refused',
          waiting: 28,
          fallback: null,
        },
      ],
    };
    await nextTick();
    const flag = w.get('[data-testid="channel-unreached"]');
    expect(flag.text()).toMatch(/^phone \(ntfy\) not reached since 12:55\s?PM UTC: connection refused$/);
    expect(flag.classes()).toContain('unreached');
    expect(flag.attributes('title')).toContain('28 waiting');
    // The margin stream is still live: both are said.
    expect(w.get('[data-testid="stream-margin"]').text()).toContain('live');
    w.unmount();
  });
});

describe('the status bar: a pool the guard prices live', () => {
  it('says a pool streams because a position there is in danger, and what it costs', () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const stream = (id: string, guard?: boolean) => ({
      id,
      state: 'open' as const,
      lastEventAt: Date.now(),
      lastByteAt: Date.now(),
      nextTryAt: null,
      reconnects: 0,
      events: 3,
      lastError: null,
      ...(guard ? { guard } : {}),
    });
    useStatusStore().snapshot = snapshotWith({
      streams: [stream('margin'), stream('pool:WAL_USDC', true), stream('pool:SUI_USDC')],
    });
    const w = mount(StatusBar);
    const pools = w.findAll('.stream').filter((s) => /_USDC/.test(s.text()));
    const wal = pools.find((s) => s.text().startsWith('WAL_USDC'))!;
    expect(wal.text()).toMatch(/^WAL_USDC: .* · guarding$/);
    expect(wal.attributes('title')).toMatch(/a watched position there is in danger.*1 credit per KB/);
    const sui = pools.find((s) => s.text().startsWith('SUI_USDC'))!;
    expect(sui.text()).not.toMatch(/guarding/);
    expect(sui.attributes('title')).toBeUndefined();
  });
});
