// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { Router } from 'vue-router';
import { parseArgs, type AlertRecord, type DeliveryEntry, type Thresholds } from '../../../../src/shared/contract';
import { fromWire, toWire } from '../../../../src/shared/wire';
import { watchCommands } from '../../../../src/main/core/contract/watch-commands';
import { setApi } from '../../../../src/renderer/src/api';
import AlertsView from '../../../../src/renderer/src/features/alerts/AlertsView.vue';
import { privacy, shortId } from '../../../../src/renderer/src/format';
import { DELIVERY_RELOAD_MS, useAlertsStore } from '../../../../src/renderer/src/stores/alerts';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { T0, MIN, alert, BURST } from '../../support/alerts';
import { settle } from '../../support/timing';
import { position } from '../../support/manager';

beforeEach(() => setActivePinia(createPinia()));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  privacy.value = false;
  document.body.innerHTML = '';
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

  it("gives each pool's borrow rate a thread of its own, headed by its asset, with a way to the pool health", async () => {
    const rate = (id: number, title: string, owner: string | null = null) =>
      alert(id, { rule: 'rate', manager_id: null, owner, title, message: `${title}: the pool is 86 % used` });
    const { w } = mountAlerts([
      rate(1, 'USDC borrow rate 37.20 % (was 12.40 %)'),
      rate(2, 'SUI borrow rate 41.00 % (was 9.80 %)', '0xo1'),
      rate(3, 'USDC borrow rate 62.10 % (was 37.20 %)'),
    ]);
    await settle();
    expect(w.findAll('[data-testid="alert-thread"]').map((t) => t.attributes('data-thread'))).toEqual([
      'r:rate:USDC',
      'r:rate:SUI',
    ]);
    const usdc = threadOf(w, 'r:rate:USDC');
    expect(usdc.get('.subject').text()).toBe('USDC borrow rate');
    expect(usdc.get('[data-testid="alert-open-pools"]').attributes('href')).toBe('#/margin');
    expect(usdc.get('[data-testid="alert-fold"]').text()).toBe('+1 earlier');
    w.unmount();
  });

  it("says beside a position's thread where it stands now: a Critical alert's position back at Warning", async () => {
    // Review (speed 20): a thread headed "Critical 1.160" while the Portfolio showed 1.193 Warning;
    // improving from Critical to Warning raises no alert, so the thread alone kept saying Critical.
    const now = { ...position({ id: '0xaaa1' }), risk_ratio: 1.193, level: 'warning' as const };
    const { w } = mountAlerts([alert(1, { level: 'critical', title: 'Critical — 1.160' })], {
      portfolio: () => ({
        data: { wallets: [{ owner: '0xo1', positions: [now] }], prices: [], computed_at: T0 },
        source: 'network',
        fetchedAt: T0,
        stale: false,
      }),
    });
    await settle();
    const thread = threadOf(w, 'm:0xaaa1');
    expect(thread.classes()).toContain('critical');
    expect(thread.get('[data-testid="alert-thread-now"]').text()).toMatch(/^now 1\.193\s+Warning/);
    w.unmount();
  });

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
    expect(chips.map((c) => c.text().replace(/\d{1,2}:\d{2}\s?[AP]M UTC/, 'TIME'))).toEqual([
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

  it('says "not delivered to phone" for an alert waiting on a channel not reached, and marks what a fallback carried', async () => {
    const now = Date.now();
    const log: DeliveryEntry[] = [
      { channel: 'phone', repeat: 0, at: now - 3 * MIN, result: 'failed', detail: 'ntfy (phone) could not be reached' },
      {
        channel: 'phone',
        repeat: 0,
        at: now - MIN,
        result: 'rerouted',
        detail: 'not reached for 2 min: sent to email instead',
      },
      { channel: 'email', repeat: 0, at: now - MIN, result: 'fallback', detail: 'instead of phone (ntfy)' },
      { channel: 'email', repeat: 0, at: now - MIN + 1000, result: 'sent', detail: '180 ms' },
      {
        channel: 'phone',
        repeat: 0,
        at: now,
        result: 'undelivered',
        detail: 'not reached for 3 min: connection refused',
      },
    ];
    const waiting: DeliveryEntry[] = [
      {
        channel: 'phone',
        repeat: 0,
        at: now,
        result: 'undelivered',
        detail: 'not reached for 1 min: connection refused',
      },
    ];
    const { w } = mountAlerts([
      alert(1, { level: 'critical', created_at: now - 3 * MIN, deliveries: log }),
      alert(2, { level: 'critical', created_at: now - MIN, manager_id: '0xother', deliveries: waiting }),
    ]);
    await settle();
    const chips = w
      .findAll('[data-testid="alert-delivery"]')
      .map((c) => c.text().replace(/\d{1,2}:\d{2}\s?[AP]M UTC/, 'TIME'));
    expect(chips).toContain('✗ not delivered to phone · sent to its fallback');
    expect(chips).toContain('email ✓ TIME · as fallback');
    expect(chips).toContain('✗ not delivered to phone');
    expect(chips.join('\n')).not.toContain('waiting to be sent');
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

  it('refuses thresholds for a malformed id or a manager of no watched wallet, says why and what to do, saves nothing', async () => {
    // main's own handler behind the page: the contract's check, its refusal as the wire carries it.
    const watched = `0x${'7c'.repeat(32)}`;
    const saved = new Map<string, Thresholds>();
    const handlers = watchCommands({
      watch: { managers: new Map([[watched, '0xowner']]) },
      stored: {
        thresholds: () => Object.fromEntries(saved),
        setThreshold: (id: string, t: Thresholds) => saved.set(id, t),
      },
      settings: { effective: () => ({ warningRatio: 1.2, criticalRatio: 1.15 }) },
    } as never);
    const { f, w } = mountAlerts([], {
      setThreshold: (a) => {
        try {
          return handlers.setThreshold(parseArgs('setThreshold', a));
        } catch (err) {
          throw fromWire(toWire(err)!);
        }
      },
    });
    await settle();
    const editor = w.get('[data-testid="thresholds-editor"]');
    const setFor = async (id: string) => {
      await editor.get('input[aria-label="Manager"]').setValue(id);
      await editor.findAll('form')[1]!.trigger('submit');
      await settle();
    };
    const refusal = () => editor.find('[data-testid="threshold-refusal"]');

    // Malformed: said at once, without asking main.
    await setFor('0xnothex');
    expect(refusal().text()).toBe(
      '"0xnothex" is not a manager id: a manager id is 0x followed by up to 64 hexadecimal digits (0-9, a-f). ' +
        'Copy the id from the Portfolio or the manager page.',
    );
    expect(refusal().attributes('role')).toBe('alert');
    expect(f.calls.filter(([m]) => m === 'setThreshold')).toEqual([]);

    // Well formed but no watched wallet's: main refuses, the page says why and what to do.
    await setFor(`0x${'ab'.repeat(32)}`);
    expect(refusal().text()).toBe(
      'The manager id is not a manager of a watched wallet (0xababab…abab), so nothing was saved. Watch the wallet that owns it on the Portfolio page, wait for its positions to show, then set its thresholds.',
    );
    expect(refusal().text()).not.toMatch(/setThreshold|managerId|https?:|at \w+ \(/);
    expect(saved.size).toBe(0);
    expect(editor.find('table').exists()).toBe(false);

    // A watched manager's are saved, listed, and the refusal is gone.
    await setFor(watched.toUpperCase().replace('0X', '0x'));
    expect(refusal().exists()).toBe(false);
    expect([...saved.keys()]).toEqual([watched]);
    expect(editor.get('[role="status"]').text()).toBe(`Thresholds saved for ${shortId(watched)}.`);
    expect(editor.findAll('tbody tr')).toHaveLength(1);
    w.unmount();
  });
});
