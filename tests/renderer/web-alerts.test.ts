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
  beforeEach(() => {
    FakeNotification.shown = [];
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

  it('says a notification in the words of the alert, masked in privacy mode, and clicks through to the position', () => {
    const a = alert(9, {
      level: 'critical',
      title: 'Critical: SUI_USDC risk ratio 1.120',
      message: 'Assets $12,345.67, debt 9,000 USDC ($9,000): ratio 1.120',
    });
    expect(noticeOf(a, false)).toEqual({
      title: 'Critical: SUI_USDC risk ratio 1.120',
      body: 'Assets $12,345.67, debt 9,000 USDC ($9,000): ratio 1.120',
      tag: 'tidewatch-alert-9',
      requireInteraction: true,
      href: '#/manager/0xaaa1',
    });
    expect(noticeOf(a, true).body).toBe('Assets $•••••, debt ••••• USDC ($•••••): ratio 1.120');
    // Another trader's liquidation is market data; an alert without a position opens the Alerts page on it.
    expect(noticeOf(alert(10, { rule: 'large-liquidation', owner: null, message: 'for $120,000' }), true).body).toBe(
      'for $120,000',
    );
    const blind = noticeOf(alert(11, { rule: 'blind', manager_id: null, owner: null, level: 'warning' }), false);
    expect([blind.href, blind.requireInteraction]).toEqual(['#/alerts/11', false]);
  });

  it('shows a notification for each new alert of a push, and none for a replace of a known one', async () => {
    const { f, w } = mountHost([alert(1, { level: 'critical' })]);
    await settle();
    privacy.value = true;
    f.push('alerts', [alert(2, { level: 'critical', message: 'debt $5,000' }), alert(3, { level: 'info' })]);
    expect(
      FakeNotification.shown.map((n) => [n.title, n.options.body, n.options.tag, n.options.requireInteraction]),
    ).toEqual([['alert 2', 'debt $•••••', 'tidewatch-alert-2', true]]);
    f.push('alerts', [alert(1, { level: 'critical', acknowledged_at: Date.now() })]);
    f.push('alerts', [alert(2, { level: 'critical' })]);
    expect(FakeNotification.shown).toHaveLength(1);
    FakeNotification.shown[0]!.onclick!();
    expect(window.location.hash).toBe('#/manager/0xaaa1');
    window.location.hash = '';
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
    expect(FakeNotification.shown.map((n) => n.options.tag)).toEqual(['tidewatch-alert-9']);
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
