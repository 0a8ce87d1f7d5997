// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import type { Router } from 'vue-router';
import type { AlertRecord, DeliveryEntry, NotifyChannelView, NotifyView } from '../../src/shared/contract';
import { ApiError, setApi } from '../../src/renderer/src/api';
import { useWebAlerts } from '../../src/renderer/src/composables/useWebAlerts';
import AlertsView from '../../src/renderer/src/features/alerts/AlertsView.vue';
import { deliveryChips, filterAlerts, threadsOf } from '../../src/renderer/src/features/alerts/threads';
import NotifyChannels from '../../src/renderer/src/features/settings/NotifyChannels.vue';
import { channelOf, formOf, plainError } from '../../src/renderer/src/features/settings/notify-form';
import { privacy } from '../../src/renderer/src/format';
import { DELIVERY_RELOAD_MS, useAlertsStore } from '../../src/renderer/src/stores/alerts';
import { BANNER_DISMISSED_KEY, noticeOf, notifiable, titleFor } from '../../src/renderer/src/web-alerts';
import { fakeApi } from '../support/fake-api';
import { routerAt } from './support/router';

const T0 = Date.UTC(2026, 10, 23, 9, 0);
const MIN = 60_000;

const alert = (id: number, patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  rule: 'risk-threshold',
  level: 'warning',
  manager_id: '0xaaa1',
  owner: '0xo1',
  event_id: null,
  title: `alert ${id}`,
  message: `message ${id}`,
  created_at: T0 + id * MIN,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

/**
 * One wallet's burst: position A went warning, critical, liquidated; position B repeated its
 * warning three times; Tidewatch went blind and saw again (twice); two other traders' large
 * liquidations; one stream key rejected, already acknowledged.
 */
const BURST: AlertRecord[] = [
  alert(1, { level: 'warning' }),
  alert(2, { level: 'critical' }),
  alert(3, { rule: 'liquidation', level: 'critical', title: 'Liquidated', event_id: 'e3' }),
  alert(4, { manager_id: '0xbbb2' }),
  alert(5, { manager_id: '0xbbb2' }),
  alert(6, { manager_id: '0xbbb2' }),
  alert(7, { rule: 'blind', level: 'critical', manager_id: null, owner: null, title: 'Tidewatch cannot see' }),
  alert(8, { rule: 'blind', level: 'info', manager_id: null, owner: null, title: 'Tidewatch sees again' }),
  alert(9, { rule: 'blind', level: 'critical', manager_id: null, owner: null, title: 'Tidewatch cannot see' }),
  alert(10, { rule: 'blind', level: 'info', manager_id: null, owner: null, title: 'Tidewatch sees again' }),
  alert(11, { rule: 'large-liquidation', manager_id: '0xccc3', owner: null, title: 'Large liquidation: $120,000' }),
  alert(12, { rule: 'large-liquidation', manager_id: '0xddd4', owner: null, title: 'Large liquidation: $90,000' }),
  alert(13, {
    rule: 'stream-auth',
    manager_id: null,
    owner: null,
    title: 'API key rejected',
    acknowledged_at: T0 + 14 * MIN,
  }),
];

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
};

beforeEach(() => setActivePinia(createPinia()));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  privacy.value = false;
  document.body.innerHTML = '';
});

describe('alert threads', () => {
  it('makes one thread per watched position and one per rule for the rest, the newest thread first', () => {
    const threads = threadsOf(BURST);
    expect(threads.map((t) => [t.key, t.head.id, t.alerts.length])).toEqual([
      ['r:stream-auth', 13, 1],
      ['r:large-liquidation', 12, 2],
      ['r:blind', 10, 4],
      ['m:0xbbb2', 6, 3],
      ['m:0xaaa1', 3, 3],
    ]);
    const a = threads.find((t) => t.key === 'm:0xaaa1')!;
    // Read as one story: the liquidation heads it, the warning and critical before it are superseded.
    expect(a.alerts.map((x) => x.id)).toEqual([3, 2, 1]);
    expect(a.shown.map((x) => x.id)).toEqual([3]);
    expect(a.folded).toBe(2);
    expect([a.managerId, a.owner, a.rule, a.worst]).toEqual(['0xaaa1', '0xo1', null, 'critical']);
    // Repeats of a rule and level fold; the blind alarm and its all-clear both stay.
    const blind = threads.find((t) => t.key === 'r:blind')!;
    expect(blind.shown.map((x) => x.id)).toEqual([10, 9]);
    expect(blind.folded).toBe(2);
    expect(threads.find((t) => t.key === 'r:large-liquidation')!.folded).toBe(1);
    expect(threads.find((t) => t.key === 'r:stream-auth')!.unacknowledged).toEqual([]);
  });

  it('filters by level, by kind of rule, and to what is still to act on', () => {
    const ids = (f: Parameters<typeof filterAlerts>[1]): number[] =>
      filterAlerts(BURST, f, T0 + 20 * MIN).map((a) => a.id);
    expect(ids({ level: 'critical', rule: null, openOnly: false })).toEqual([2, 3, 7, 9]);
    expect(ids({ level: null, rule: 'liquidation', openOnly: false })).toEqual([3, 11, 12]);
    expect(ids({ level: null, rule: 'other', openOnly: false })).toEqual([13]);
    expect(ids({ level: null, rule: 'other', openOnly: true })).toEqual([]);
    const snoozed = [alert(1, { snoozed_until: T0 + 30 * MIN }), alert(2)];
    expect(filterAlerts(snoozed, { level: null, rule: null, openOnly: true }, T0 + 20 * MIN).map((a) => a.id)).toEqual([
      2,
    ]);
    expect(filterAlerts(snoozed, { level: null, rule: null, openOnly: true }, T0 + 31 * MIN).map((a) => a.id)).toEqual([
      1, 2,
    ]);
  });

  it('sums a delivery log up as one chip per channel with its latest result and the repeats sent', () => {
    const log: DeliveryEntry[] = [
      { channel: 'phone', repeat: 0, at: T0, result: 'failed', detail: 'ntfy (phone) answered 502' },
      { channel: 'mail', repeat: 0, at: T0, result: 'held', detail: 'quiet hours until 07:00' },
      { channel: 'phone', repeat: 0, at: T0 + 1000, result: 'sent', detail: null },
      { channel: 'phone', repeat: 1, at: T0 + 5 * MIN, result: 'sent', detail: null },
      { channel: 'phone', repeat: 2, at: T0 + 10 * MIN, result: 'sent', detail: null },
    ];
    expect(deliveryChips(log)).toEqual([
      { channel: 'phone', result: 'sent', at: T0 + 10 * MIN, detail: null, repeats: 2 },
      { channel: 'mail', result: 'held', at: T0, detail: 'quiet hours until 07:00', repeats: 0 },
    ]);
    expect(deliveryChips(undefined)).toEqual([]);
  });
});

describe('the Alerts page', () => {
  let router: Router;
  beforeEach(async () => {
    router = await routerAt('/alerts');
  });
  const mountAlerts = (list: AlertRecord[], answers: Record<string, (args: any) => unknown> = {}) => {
    let stored = list;
    const f = fakeApi({
      alerts: () => ({ data: stored, source: 'cache', fetchedAt: 0, stale: false }),
      thresholds: () => ({ defaults: { warning: 1.2, critical: 1.15 }, perManager: {} }),
      acknowledgeAlert: ({ id }) => ({ ...stored.find((a) => a.id === id)!, acknowledged_at: Date.now() }),
      ...answers,
    });
    setApi(f.api);
    const w = mount(AlertsView, { attachTo: document.body, global: { plugins: [router] } });
    return { f, w, set: (next: AlertRecord[]) => (stored = next) };
  };
  const threadOf = (w: ReturnType<typeof mount>, key: string) => w.get(`[data-thread="${key}"]`);

  it('shows compact threads, the newest alert heading each with "+N earlier", and unfolds one', async () => {
    const { w } = mountAlerts(BURST);
    await settle();
    // The acknowledged stream-key alert is not shown: unacknowledged only is the default.
    expect(w.findAll('[data-testid="alert-thread"]').map((t) => t.attributes('data-thread'))).toEqual([
      'r:large-liquidation',
      'r:blind',
      'm:0xbbb2',
      'm:0xaaa1',
    ]);
    const a = threadOf(w, 'm:0xaaa1');
    expect(a.findAll('[data-testid="alert-row"]').map((r) => r.find('strong').text())).toEqual(['Liquidated']);
    expect(a.get('[data-testid="alert-row"] .lvl').text()).toBe('Critical');
    expect(a.get('[data-testid="alert-fold"]').text()).toBe('+2 earlier');
    expect(a.get('[data-testid="alert-open-position"]').attributes('href')).toBe('#/manager/0xaaa1');
    await a.get('[data-testid="alert-fold"]').trigger('click');
    expect(
      threadOf(w, 'm:0xaaa1')
        .findAll('[data-testid="alert-item"]')
        .map((r) => r.attributes('id')),
    ).toEqual(['alert-3', 'alert-2', 'alert-1']);
    expect(threadOf(w, 'm:0xaaa1').get('[data-testid="alert-fold"]').text()).toBe('Fold 2 earlier');
    expect(threadOf(w, 'r:blind').findAll('[data-testid="alert-row"]')).toHaveLength(2);
    expect(w.get('[data-testid="alert-summary"]').text()).toBe('12 alerts in 4 threads');
    w.unmount();
  });

  it('filters by level and by rule, and shows acknowledged alerts on demand', async () => {
    const { w } = mountAlerts(BURST);
    await settle();
    const level = w.get('[data-testid="alert-filter-level"]');
    expect(level.findAll('option').map((o) => o.text())).toEqual([
      'All levels',
      'Critical (4)',
      'Warning (6)',
      'Info (2)',
    ]);
    await level.setValue('critical');
    expect(w.findAll('[data-testid="alert-thread"]').map((t) => t.attributes('data-thread'))).toEqual([
      'r:blind',
      'm:0xaaa1',
    ]);
    // The critical crossing is folded under the liquidation, the warning is filtered out.
    expect(threadOf(w, 'm:0xaaa1').get('[data-testid="alert-fold"]').text()).toBe('+1 earlier');
    await level.setValue('');
    await w.get('[data-testid="alert-filter-rule"]').setValue('other');
    expect(w.findAll('[data-testid="alert-thread"]')).toHaveLength(0);
    expect(w.text()).toContain('No alerts match these filters.');
    await w.get('[data-testid="alert-filter-open"]').setValue(false);
    expect(w.findAll('[data-testid="alert-thread"]').map((t) => t.attributes('data-thread'))).toEqual([
      'r:stream-auth',
    ]);
    expect(w.get('[data-testid="alert-row"]').text()).toContain('acknowledged');
    w.unmount();
  });

  it('acknowledges a thread: every open alert of it, one call each', async () => {
    const { f, w } = mountAlerts(BURST);
    await settle();
    const b = threadOf(w, 'm:0xbbb2');
    expect(b.get('[data-testid="alert-ack-thread"]').text()).toBe('Acknowledge 3');
    await b.get('[data-testid="alert-ack-thread"]').trigger('click');
    await settle();
    expect(f.calls.filter(([m]) => m === 'acknowledgeAlert').map(([, a]) => a)).toEqual([
      { id: 6 },
      { id: 5 },
      { id: 4 },
    ]);
    expect(w.find('[data-thread="m:0xbbb2"]').exists()).toBe(false);
    // One alert alone: its own button.
    await threadOf(w, 'm:0xaaa1').get('[data-testid="alert-row"] button.ack').trigger('click');
    await settle();
    expect(f.calls.filter(([m]) => m === 'acknowledgeAlert').at(-1)).toEqual(['acknowledgeAlert', { id: 3 }]);
    w.unmount();
  });

  it("shows each alert's deliveries as chips, the full log unfolded", async () => {
    const now = Date.now();
    const log: DeliveryEntry[] = [
      { channel: 'phone', repeat: 0, at: now - 20 * MIN, result: 'sent', detail: null },
      { channel: 'phone', repeat: 1, at: now - 15 * MIN, result: 'sent', detail: null },
      { channel: 'phone', repeat: 2, at: now - 10 * MIN, result: 'sent', detail: null },
      { channel: 'phone', repeat: 3, at: now - 5 * MIN, result: 'sent', detail: null },
      {
        channel: 'team',
        repeat: 0,
        at: now - 20 * MIN,
        result: 'failed',
        detail: 'Slack (team) answered 404: the webhook is gone',
      },
      { channel: 'mail', repeat: 0, at: now - 20 * MIN, result: 'held', detail: 'quiet hours until 07:00' },
    ];
    const { w } = mountAlerts([alert(1, { level: 'critical', created_at: now - 20 * MIN, deliveries: log })]);
    await settle();
    const chips = w.findAll('[data-testid="alert-delivery"]');
    expect(chips.map((c) => c.text().replace(/\d{1,2}:\d{2}\s?[AP]M/, 'TIME'))).toEqual([
      'phone ✓ TIME · repeated 3×',
      'team ✗ failed',
      'mail · quiet hours until 07:00',
    ]);
    expect(chips[1]!.attributes('title')).toContain('Slack (team) answered 404: the webhook is gone');
    expect(chips[1]!.classes()).toContain('failed');
    expect(w.find('[data-testid="alert-delivery-log"]').exists()).toBe(false);
    await chips[1]!.trigger('click');
    const rows = w.findAll('[data-testid="alert-delivery-log"] tbody tr').map((r) =>
      r
        .findAll('td')
        .slice(1)
        .map((d) => d.text()),
    );
    expect(rows).toContainEqual(['team', 'the alert', 'failed', 'Slack (team) answered 404: the webhook is gone']);
    expect(rows).toContainEqual(['phone', 'repeat 3', 'sent', '']);
    w.unmount();
  });

  it('reads the list again a second after a delivery is logged, only while the page is open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { f, w, set } = mountAlerts([alert(1)]);
    await vi.advanceTimersByTimeAsync(0);
    const reads = (): number => f.calls.filter(([m]) => m === 'alerts').length;
    const before = reads();
    set([alert(1, { deliveries: [{ channel: 'phone', repeat: 0, at: Date.now(), result: 'sent', detail: null }] })]);
    f.push('alerts', []);
    f.push('alerts', []);
    await vi.advanceTimersByTimeAsync(DELIVERY_RELOAD_MS - 100);
    expect(reads()).toBe(before);
    await vi.advanceTimersByTimeAsync(200);
    expect(reads()).toBe(before + 1);
    expect(w.findAll('[data-testid="alert-delivery"]')).toHaveLength(1);
    w.unmount();
    f.push('alerts', []);
    await vi.advanceTimersByTimeAsync(2 * DELIVERY_RELOAD_MS);
    expect(reads()).toBe(before + 1);
  });

  it('replaces an alert acknowledged elsewhere (a link in a phone message), keeping its delivery log', async () => {
    const sent: DeliveryEntry = { channel: 'phone', repeat: 0, at: T0, result: 'sent', detail: null };
    const { f, w } = mountAlerts([alert(1, { level: 'critical', deliveries: [sent] }), alert(2)]);
    await settle();
    const store = useAlertsStore();
    f.push('alerts', [alert(1, { level: 'critical', acknowledged_at: T0 + 5 * MIN })]);
    expect(store.alerts.map((a) => [a.id, a.acknowledged_at, a.deliveries?.length])).toEqual([
      [1, T0 + 5 * MIN, 1],
      [2, null, undefined],
    ]);
    await nextTick();
    expect(w.findAll('[data-testid="alert-item"]').map((i) => i.attributes('id'))).toEqual(['alert-2']);
    w.unmount();
  });

  it('unfolds and marks the alert a notification points at (#/alerts/<id>), even when acknowledged', async () => {
    await router.push('/alerts/1');
    const { w } = mountAlerts(BURST.map((a) => (a.id === 1 ? { ...a, acknowledged_at: T0 } : a)));
    await settle();
    const item = w.get('#alert-1');
    expect(item.classes()).toContain('focused');
    expect((w.get('[data-testid="alert-filter-open"]').element as HTMLInputElement).checked).toBe(false);
    w.unmount();
  });
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

describe('Settings → Alert channels', () => {
  const phone: NotifyChannelView = {
    name: 'phone',
    type: 'telegram',
    source: 'settings',
    minLevel: 'warning',
    rules: null,
    quietHours: { from: '22:00', to: '07:00' },
    hideAmounts: false,
    minIntervalSec: null,
    fields: { chatId: '12345', apiRoot: 'https://api.telegram.org' },
    secrets: { botToken: true },
    status: { pending: 0, lastSentAt: null, failing: null },
  };
  const ops: NotifyChannelView = {
    name: 'ops',
    type: 'webhook',
    source: 'file',
    minLevel: 'critical',
    rules: ['liquidation'],
    quietHours: null,
    hideAmounts: true,
    minIntervalSec: 0,
    fields: {},
    secrets: { url: true, secret: false },
    status: {
      pending: 3,
      lastSentAt: null,
      failing: {
        at: Date.UTC(2026, 10, 25, 15, 20),
        detail: 'the webhook (ops) could not be reached (the host is down, unknown or unreachable); it is tried again.',
      },
    },
  };
  const VIEW: NotifyView = {
    channels: [ops, phone],
    escalateEveryMin: 5,
    blindAfterMin: 3,
    heartbeatSet: true,
    heartbeatEveryMin: 1,
    linkBase: null,
    file: 'notify.yaml',
    pending: 0,
  };
  const mountChannels = (answers: Record<string, (args: any) => unknown> = {}) => {
    const f = fakeApi({
      notifyChannels: () => VIEW,
      saveNotifyChannel: () => VIEW,
      updateNotifyOptions: () => VIEW,
      ...answers,
    });
    setApi(f.api);
    return { f, w: mount(NotifyChannels, { attachTo: document.body }) };
  };

  it('lists the channels, the file\'s read only, secrets only as "set"', async () => {
    const { w } = mountChannels();
    await settle();
    const rows = w.findAll('[data-testid="notify-channel"]');
    expect(rows.map((r) => r.attributes('data-channel'))).toEqual(['ops', 'phone']);
    expect(rows[0]!.text()).toContain('from notify.yaml');
    expect(rows[0]!.text()).toContain('critical only');
    expect(rows[0]!.text()).toContain('only liquidations of your positions');
    expect(rows[0]!.find('[data-testid="notify-edit"]').exists()).toBe(false);
    expect(rows[0]!.find('[data-testid="notify-remove"]').exists()).toBe(false);
    expect(rows[1]!.text()).toContain('22:00–07:00');
    expect(rows[1]!.text()).toContain('chat 12345');
    // A channel that fails says so, and what waits behind it.
    expect(rows[0]!.get('[data-testid="notify-failing"]').text()).toMatch(
      /^✗ failing since .*: the webhook \(ops\) could not be reached/,
    );
    expect(rows[0]!.text()).toContain('3 waiting');
    expect(w.get('[data-testid="notify-file"]').text()).toContain('tidewatch serve --notify-config notify.yaml');
    // The heartbeat URL is a secret too: "set", never its value.
    expect(w.get('[data-testid="notify-options"]').text()).toContain('set');
    expect((w.get('[data-testid="notify-heartbeat"]').element as HTMLInputElement).value).toBe('');
    expect((w.get('[data-testid="notify-heartbeat"]').element as HTMLInputElement).placeholder).toBe(
      'set — leave empty to keep',
    );
    w.unmount();
  });

  it('edits a channel without its secret: the input stays empty, says "set", and an empty one is not sent', async () => {
    const { f, w } = mountChannels();
    await settle();
    await w.findAll('[data-testid="notify-channel"]')[1]!.get('[data-testid="notify-edit"]').trigger('click');
    const token = w.get('[data-testid="notify-field-botToken"]');
    expect(token.attributes('type')).toBe('password');
    expect((token.element as HTMLInputElement).value).toBe('');
    expect(token.attributes('placeholder')).toBe('set — leave empty to keep');
    expect((w.get('[data-testid="notify-field-chatId"]').element as HTMLInputElement).value).toBe('12345');
    await w.get('[data-testid="notify-field-chatId"]').setValue('67890');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    const [, args] = f.calls.find(([m]) => m === 'saveNotifyChannel')! as [
      string,
      { channel: Record<string, unknown>; replaces?: string },
    ];
    expect(args.replaces).toBe('phone');
    expect(args.channel).toEqual({
      type: 'telegram',
      name: 'phone',
      minLevel: 'warning',
      quietHours: { from: '22:00', to: '07:00' },
      hideAmounts: false,
      chatId: '67890',
      apiRoot: 'https://api.telegram.org',
    });
    expect('botToken' in args.channel).toBe(false);
    expect(w.find('[data-testid="notify-form"]').exists()).toBe(false);
    w.unmount();
  });

  it('adds a channel, saying in plain words what main refused, next to the form', async () => {
    const { f, w } = mountChannels({
      saveNotifyChannel: () => {
        throw new ApiError('bad-argument', 'saveNotifyChannel: channels[1] (ntfy): url: must be an http(s) URL');
      },
    });
    await settle();
    await w.get('[data-testid="notify-add"]').trigger('click');
    await w.get('[data-testid="notify-save"]').trigger('submit');
    // A new ntfy channel needs its topic: said before anything is sent.
    expect(w.get('[data-testid="notify-form-error"]').text()).toBe('Enter the topic URL.');
    expect(w.get('[data-testid="notify-field-url"]').attributes('placeholder')).toBe(
      'https://ntfy.sh/your-secret-topic',
    );
    await w.get('[data-testid="notify-name"]').setValue('pager');
    await w.get('[data-testid="notify-field-url"]').setValue('ftp://ntfy.sh/x');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'saveNotifyChannel')![1]).toEqual({
      channel: { type: 'ntfy', name: 'pager', minLevel: 'warning', hideAmounts: false, url: 'ftp://ntfy.sh/x' },
    });
    expect(w.get('[data-testid="notify-form-error"]').text()).toBe('The topic URL must be an http(s) URL.');
    w.unmount();
  });

  it('sends a test on one channel or all, each result in its own words, green or red', async () => {
    const { f, w } = mountChannels({
      notifyTest: ({ channel }) => ({
        results: [
          { channel: 'phone', type: 'telegram', ok: true, message: 'Sent: check that it arrived.', ms: 420 },
          ...(channel
            ? []
            : [{ channel: 'ops', type: 'webhook', ok: false, message: 'the webhook (ops) answered 500', ms: 80 }]),
        ],
      }),
    });
    await settle();
    await w.findAll('[data-testid="notify-test"]')[1]!.trigger('click');
    await settle();
    expect(f.calls.find(([m]) => m === 'notifyTest')![1]).toEqual({ channel: 'phone' });
    expect(w.findAll('[data-testid="notify-test-result"]').map((r) => [r.text(), r.classes('ok-text')])).toEqual([
      ['✓ Sent: check that it arrived.', true],
    ]);
    await w.get('[data-testid="notify-test-all"]').trigger('click');
    await settle();
    expect(w.findAll('[data-testid="notify-test-result"]').map((r) => [r.text(), r.classes('bad-text')])).toEqual([
      ['✗ the webhook (ops) answered 500', true],
      ['✓ Sent: check that it arrived.', false],
    ]);
    w.unmount();
  });

  it('builds the e-mail channel, one recipient or several, and keeps the password unless typed', () => {
    const mail: NotifyChannelView = {
      name: 'mail',
      type: 'email',
      source: 'settings',
      minLevel: 'critical',
      rules: ['liquidation', 'risk-threshold'],
      quietHours: null,
      hideAmounts: true,
      minIntervalSec: 30,
      fields: {
        'smtp.host': 'smtp.example.com',
        'smtp.port': 587,
        'smtp.security': 'starttls',
        'smtp.user': 'me',
        from: 'tw@example.com',
        to: ['a@example.com', 'b@example.com'],
      },
      secrets: { 'smtp.password': true },
      status: { pending: 0, lastSentAt: null, failing: null },
    };
    const form = formOf(mail);
    expect(form.values['to']).toBe('a@example.com, b@example.com');
    expect(form.values['smtp.password']).toBe('');
    expect(channelOf(form, mail)).toEqual({
      channel: {
        type: 'email',
        name: 'mail',
        minLevel: 'critical',
        rules: ['liquidation', 'risk-threshold'],
        hideAmounts: true,
        minIntervalSec: 30,
        smtp: { host: 'smtp.example.com', port: 587, security: 'starttls', user: 'me' },
        from: 'tw@example.com',
        to: ['a@example.com', 'b@example.com'],
      },
    });
    form.values['to'] = 'a@example.com';
    form.values['smtp.password'] = 'hunter2';
    expect((channelOf(form, mail) as { channel: Record<string, any> }).channel['smtp']).toEqual({
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      user: 'me',
      password: 'hunter2',
    });
    expect((channelOf(form, mail) as { channel: Record<string, any> }).channel['to']).toBe('a@example.com');
    form.quietFrom = '22:00';
    expect(channelOf(form, mail)).toEqual({ problem: 'Quiet hours need both a start and an end (or neither).' });
  });

  it("words main's refusals without the method, the index or the field path", () => {
    expect(plainError('saveNotifyChannel: channels[2] (email): to: must be an e-mail address or a list of them')).toBe(
      "The recipient's address must be an e-mail address or a list of them.",
    );
    expect(
      plainError(
        'saveNotifyChannel: channels[0] (telegram): chatId: Invalid type: Expected (string | number) but received undefined',
      ),
    ).toBe('The chat id must be (string | number).');
    expect(
      plainError('saveNotifyChannel: a channel named "ops" comes from the notify config file; choose another name'),
    ).toBe('A channel named "ops" comes from the notify config file; choose another name.');
    expect(plainError('saveNotifyChannel: the channel: two channels are named "x"; give each its own name.')).toBe(
      'Two channels are named "x"; give each its own name.',
    );
    expect(plainError('updateNotifyOptions: heartbeatUrl: heartbeatUrl must be an http(s) URL')).toBe(
      'The heartbeat URL must be an http(s) URL.',
    );
  });
});
