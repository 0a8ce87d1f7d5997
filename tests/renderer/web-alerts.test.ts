// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import type { AlertRecord } from '../../src/shared/contract';
import { setApi } from '../../src/renderer/src/api';
import { useWebAlerts } from '../../src/renderer/src/composables/useWebAlerts';
import { privacy } from '../../src/renderer/src/format';
import { useAlertsStore } from '../../src/renderer/src/stores/alerts';
import { BANNER_DISMISSED_KEY, noticeOf, notifiable, titleFor } from '../../src/renderer/src/web-alerts';
import { fakeApi } from '../support/fake-api';
import { blind, liquidation, riskAlert, SUI, SUI2, SUI3, WAL } from '../support/glance-alerts';
import { T0, MIN, alert } from './support/alerts';
import { settle } from './support/timing';

beforeEach(() => setActivePinia(createPinia()));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  privacy.value = false;
  document.body.innerHTML = '';
});

describe('the browser page alerts (serve)', () => {
  class FakeNotification {
    static permission: NotificationPermission = 'granted';
    static shown: FakeNotification[] = [];
    static requestPermission = vi.fn(async () => (FakeNotification.permission = 'granted'));
    onclick: (() => void) | null = null;
    constructor(
      readonly title: string,
      readonly options: NotificationOptions,
    ) {
      FakeNotification.shown.push(this);
    }
    close(): void {}
  }
  /** The page's beeps: one gain node each (web-alerts.ts `playAlertSound`). */
  class FakeAudioContext {
    static beeps = 0;
    state = 'running';
    currentTime = 0;
    destination = {};
    createGain() {
      FakeAudioContext.beeps++;
      const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain: param, connect() {} };
    }
    createOscillator() {
      return { type: '', frequency: { setValueAtTime() {} }, connect() {}, start() {}, stop() {} };
    }
    resume() {
      return Promise.resolve();
    }
  }
  beforeEach(() => {
    FakeNotification.shown = [];
    FakeAudioContext.beeps = 0;
    vi.stubGlobal('AudioContext', FakeAudioContext);
    FakeNotification.permission = 'granted';
    localStorage.clear();
    document.title = 'Tidewatch';
    vi.stubGlobal('Notification', FakeNotification);
  });

  const Host = defineComponent({
    setup() {
      const web = useWebAlerts();
      return () =>
        h('div', [
          web.askPermission.value ? h('p', { 'data-testid': 'banner' }, 'ask') : null,
          h('button', { onClick: () => web.dismiss() }, 'dismiss'),
        ]);
    },
  });
  const mountHost = (list: AlertRecord[]) => {
    const f = fakeApi({
      alerts: () => ({ data: list, source: 'cache', fetchedAt: 0, stale: false }),
      acknowledgeAlert: ({ id }) => ({ ...list.find((a) => a.id === id)!, acknowledged_at: Date.now() }),
    });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    return { f, store, w: mount(Host) };
  };

  it('notifies only new warning and critical alerts that are still open', () => {
    const known = new Set([1, 2]);
    const now = T0 + 60 * MIN;
    const pushed = [
      alert(1, { level: 'critical', acknowledged_at: now }), // acknowledged through a phone's link: a known id
      alert(2, { level: 'critical' }), // known: a change, not a new alert
      alert(3, { level: 'critical' }),
      alert(4, { level: 'warning' }),
      alert(5, { level: 'info' }),
      alert(6, { level: 'critical', acknowledged_at: now }),
      alert(7, { level: 'warning', snoozed_until: now + MIN }),
      alert(0, { level: 'critical', rule: 'store-write' }), // not saved: every one is new
    ];
    expect(notifiable(pushed, known, now).map((a) => a.id)).toEqual([3, 4, 0]);
    expect(titleFor(0)).toBe('Tidewatch');
    expect(titleFor(3)).toBe('(3) Tidewatch');
  });

  it("says one alert's title and its action, within 120 characters, masked in privacy mode; clicks through to it", () => {
    const one = (a: AlertRecord) => ({ key: 'k', alerts: [a], started: true, rose: true });
    const a = riskAlert(9, WAL, 1.12);
    expect(noticeOf(one(a), false)).toEqual({
      title: 'Long 10,175 WAL on WAL_USDC: 1.12, liquidation at $0.1965, −1.2 %',
      body: 'Deposit 307.4 USDC or repay 70.7 WAL → 1.20.',
      tag: 'k',
      renotify: false,
      requireInteraction: true,
      href: `#/manager/${WAL.manager}`,
    });
    expect(noticeOf(one(a), true)).toMatchObject({
      title: 'Long ••••• WAL on WAL_USDC: 1.12, liquidation at $•••••, −1.2 %',
      body: 'Deposit ••••• USDC or repay ••••• WAL → 1.20.',
    });
    // A long first sentence is cut on a word boundary; the rest of the message waits for the click.
    const long = noticeOf(one(blind(3, { message: `Check ${'the network, '.repeat(12)}the service. More.` })), false);
    expect(long.body.length).toBeLessThanOrEqual(120);
    expect(long.body).toBe(`Check ${'the network, '.repeat(8)}the…`);
    // Another trader's liquidation is market data; an alert without a position opens the Alerts page on it.
    expect(
      noticeOf(one(alert(10, { rule: 'large-liquidation', owner: null, message: 'Liquidated for $120,000.' })), true)
        .body,
    ).toBe('Liquidated for $120,000.');
    const seen = noticeOf(one(blind(11, { level: 'warning' })), false);
    expect([seen.href, seen.requireInteraction]).toEqual(['#/alerts/11', false]);
    // Several positions: the summary title, the worst first, the Alerts page.
    const several = noticeOf(
      { key: 'k', alerts: [riskAlert(1, SUI, 1.19), liquidation(2, SUI2)], started: false, rose: true },
      false,
    );
    expect(several).toMatchObject({
      title: '2 positions on SUI_USDC: 1 liquidated, 1 warning',
      body: 'Short 800 SUI on SUI_USDC liquidated at 1.08\nLong 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %',
      renotify: true,
      href: '#/alerts',
    });
  });

  it('notifies the new alerts of a push together, masked in privacy mode, and none for a replace of a known one', async () => {
    const { f, w } = mountHost([alert(1, { level: 'critical' })]);
    await settle();
    privacy.value = true;
    f.push('alerts', [alert(2, { level: 'critical', message: 'Repay $5,000. Details.' }), alert(3, { level: 'info' })]);
    expect(FakeNotification.shown.map((n) => [n.title, n.options.body, n.options.requireInteraction])).toEqual([
      ['alert 2', 'Repay $•••••.', true],
    ]);
    expect(FakeAudioContext.beeps).toBe(1);
    f.push('alerts', [alert(1, { level: 'critical', acknowledged_at: Date.now() })]);
    f.push('alerts', [alert(2, { level: 'critical' })]);
    expect(FakeNotification.shown).toHaveLength(1);
    FakeNotification.shown[0]!.onclick!();
    expect(window.location.hash).toBe('#/manager/0xaaa1');
    window.location.hash = '';
    w.unmount();
  });

  it('shows one notification per burst, replaced as it grows, and beeps once unless the level rises', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const { f, w } = mountHost([]);
    await settle();
    const at = (s: number, a: AlertRecord): void => {
      vi.setSystemTime(T0 + s * 1000);
      f.push('alerts', [a]);
    };
    at(0, riskAlert(1, SUI, 1.19)); // a warning starts the burst: no beep (the sound is for critical alerts)
    at(10, riskAlert(2, SUI2, 1.12)); // critical: the level rose, one beep, the notification alerts again
    at(25, riskAlert(3, SUI3, 1.13)); // replaces it quietly
    at(55, riskAlert(4, SUI, 1.14)); // 30 s after the previous: still the burst; SUI counts once, at its worst
    at(86, riskAlert(5, WAL, 1.12)); // 31 s after: a new burst, a new notification, a beep
    const shown = FakeNotification.shown.map((n) => ({
      title: n.title,
      tag: n.options.tag,
      renotify: (n.options as { renotify?: boolean }).renotify,
    }));
    const first = shown[0]!.tag;
    const next = shown[4]!.tag;
    expect(shown).toEqual([
      { title: 'Long 1,200 SUI on SUI_USDC: 1.19, liquidation at $0.1965, −1.2 %', tag: first, renotify: false },
      { title: '2 positions on SUI_USDC: 1 critical, 1 warning', tag: first, renotify: true },
      { title: '3 positions on SUI_USDC: 2 critical, 1 warning', tag: first, renotify: false },
      { title: '3 positions critical on SUI_USDC', tag: first, renotify: false },
      { title: 'Long 10,175 WAL on WAL_USDC: 1.12, liquidation at $0.1965, −1.2 %', tag: next, renotify: false },
    ]);
    expect(next).not.toBe(first);
    expect(FakeAudioContext.beeps).toBe(2);
    expect(FakeNotification.shown[3]!.options.body).toBe(
      [
        'Short 800 SUI on SUI_USDC: 1.12, liquidation at $0.1965, −1.2 %',
        'Long 3,050 SUI on SUI_USDC: 1.13, liquidation at $0.1965, −1.2 %',
        'Long 1,200 SUI on SUI_USDC: 1.14, liquidation at $0.1965, −1.2 %',
      ].join('\n'),
    );
    // A click is the trader having seen it: the next alert is a burst of its own.
    FakeNotification.shown.at(-1)!.onclick!();
    expect(window.location.hash).toBe(`#/manager/${WAL.manager}`);
    at(90, riskAlert(6, WAL, 1.11));
    expect(FakeNotification.shown.at(-1)!.options.tag).not.toBe(next);
    window.location.hash = '';
    w.unmount();
  });

  it("turns the trader's 34 alerts in 15 minutes into a notification and a beep per burst", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const { f, w } = mountHost([]);
    await settle();
    // Three bursts 5 minutes apart (12, 12 and 10 alerts, 8 s apart): warnings, then critical, then liquidations.
    const positions = [SUI, SUI2, SUI3, WAL];
    let id = 0;
    for (const [start, count] of [
      [0, 12],
      [300, 12],
      [600, 10],
    ] as const) {
      for (let i = 0; i < count; i++) {
        vi.setSystemTime(T0 + (start + i * 8) * 1000);
        const p = positions[i % 4]!;
        id++;
        f.push('alerts', [i >= 10 ? liquidation(id, p) : riskAlert(id, p, i < 4 ? 1.19 : 1.12)]);
      }
    }
    // 34 replacements of 3 notifications (one tag each), one beep each when the burst turned critical.
    expect(FakeNotification.shown).toHaveLength(34);
    expect(new Set(FakeNotification.shown.map((n) => n.options.tag)).size).toBe(3);
    expect(FakeAudioContext.beeps).toBe(3);
    w.unmount();
  });

  it('notifies an alert whose push comes after a reload of the list already brought it', async () => {
    const list = [alert(1)];
    const { f, store, w } = mountHost(list);
    await settle();
    // A delivery was logged: the list is read again, and its answer holds alert 9 before alert 9's own push arrives.
    list.unshift(alert(9, { level: 'critical' }));
    await store.load();
    expect(store.alerts.map((a) => a.id)).toContain(9);
    f.push('alerts', [alert(9, { level: 'critical' })]);
    expect(FakeNotification.shown.map((n) => n.title)).toEqual(['alert 9']);
    // Once: the same alert pushed again (a change) does not notify again.
    f.push('alerts', [alert(9, { level: 'critical' })]);
    expect(FakeNotification.shown).toHaveLength(1);
    w.unmount();
  });

  it('keeps the count of alerts to act on in the tab title', async () => {
    const { f, store, w } = mountHost([alert(1), alert(2), alert(3, { acknowledged_at: T0 })]);
    await settle();
    expect(document.title).toBe('(2) Tidewatch');
    f.push('alerts', [alert(4, { level: 'critical' })]);
    await nextTick();
    expect(document.title).toBe('(3) Tidewatch');
    await store.acknowledgeMany([1, 2]);
    await nextTick();
    expect(document.title).toBe('(1) Tidewatch');
    f.push('alerts', [alert(4, { level: 'critical', acknowledged_at: Date.now() })]);
    await nextTick();
    expect(document.title).toBe('Tidewatch');
    w.unmount();
  });

  it('asks for the permission once, and remembers a dismissal', async () => {
    FakeNotification.permission = 'default';
    const first = mountHost([]);
    await settle();
    expect(first.w.find('[data-testid="banner"]').exists()).toBe(true);
    await first.w.get('button').trigger('click');
    expect(first.w.find('[data-testid="banner"]').exists()).toBe(false);
    expect(localStorage.getItem(BANNER_DISMISSED_KEY)).not.toBeNull();
    first.w.unmount();
    setActivePinia(createPinia());
    const again = mountHost([]);
    await settle();
    expect(again.w.find('[data-testid="banner"]').exists()).toBe(false);
    again.w.unmount();
  });

  it('does nothing in the desktop app, whose native notifier alerts', async () => {
    const f = fakeApi({ alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }) });
    vi.stubGlobal('tidewatch', f.api);
    setApi(f.api);
    useAlertsStore().start();
    const w = mount(Host);
    await settle();
    f.push('alerts', [alert(2, { level: 'critical' })]);
    expect(FakeNotification.shown).toEqual([]);
    expect(document.title).toBe('Tidewatch');
    w.unmount();
  });
});
