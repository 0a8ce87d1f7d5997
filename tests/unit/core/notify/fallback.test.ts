import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { Notifier } from '../../../../src/main/core/notify/notifier';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import { Store } from '../../../../src/main/core/store/store';

/**
 * A channel's fallback (docs/notify.md#a-failing-channel), on vitest's fake clock: ntfy refuses
 * every connection; its waiting alerts go to the webhook after the fallback's two minutes, each
 * once, and those queued later while the spell lasts go too.
 */
const T0 = Date.UTC(2026, 10, 25, 12, 55);
const MIN = 60_000;

let store: Store;
let notifier: Notifier;
/** The alert ids each webhook POST carried, in order. */
let hooked: number[];
let changed: AlertRecord[];

beforeEach(() => {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  store = Store.openInMemory();
  hooked = [];
  changed = [];
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const fake = (async (url: string | URL, init?: RequestInit) => {
    if (String(url).includes('/ntfy/')) throw new TypeError('fetch failed', { cause: refused });
    const body = JSON.parse(String(init?.body)) as { id: string; rule: string };
    hooked.push(Number(/tidewatch-alert-(\d+)/.exec(body.id)?.[1]));
    return new Response('ok');
  }) as typeof fetch;
  const doc = {
    channels: [
      {
        type: 'ntfy',
        name: 'phone',
        url: 'http://127.0.0.1:9/ntfy/topic',
        fallback: { channel: 'hook', afterMin: 2 },
      },
      // It carries nothing of its own but what goes to every channel: what it gets of liquidations is the fallback's.
      { type: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/hook', rules: ['blind'] },
    ],
  };
  const events = new EventBus<CoreEvents>();
  events.on('alertsUpdated', ({ alerts }) => changed.push(...alerts));
  notifier = new Notifier({
    repo: store.risk,
    stored: new MemorySecretStore(),
    file: { path: 'notify.json', ...parseNotifyConfig(JSON.stringify(doc), {}) },
    privacy: () => false,
    publicUrl: () => null,
    events,
    fetch: fake,
    log: () => {},
    redact: (t) => t,
  });
  store.risk.routeWith(notifier.router);
  notifier.start();
});

afterEach(() => {
  notifier.close();
  store.close();
  vi.useRealTimers();
});

function liquidation(n: number): AlertRecord {
  return store.risk.addAlert({
    dedupe_key: `liquidation:${n}`,
    rule: 'liquidation',
    level: 'critical',
    manager_id: `0x${n}`,
    owner: '0xowner',
    event_id: null,
    title: 'Liquidated: SUI_USDC',
    message: `Margin manager 0x${n} was liquidated.`,
    created_at: Date.now(),
  })!;
}

describe("a channel's fallback", () => {
  it('takes the waiting alerts after its minutes, once each, and those queued later in the spell', async () => {
    const a = liquidation(1);
    const b = liquidation(2);
    await vi.advanceTimersByTimeAsync(MIN + 5_000);
    // A minute: flagged and said (to the webhook: it goes to every channel but the one it is about).
    expect(notifier.reach.unreached.map((u) => u.channel)).toEqual(['phone']);
    const said = changed.filter((x) => x.rule === 'channel');
    expect(said).toHaveLength(1);
    expect(hooked).toEqual([said[0]!.id]);
    expect(store.risk.outbox.rowsOf(said[0]!.id).map((r) => r.channel)).toEqual(['hook']);

    await vi.advanceTimersByTimeAsync(2 * MIN - (MIN + 5_000) - 1_000);
    expect(hooked).not.toContain(a.id);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(hooked).toEqual(expect.arrayContaining([a.id, b.id]));

    // Later in the spell: a new alert goes within a tick.
    const c = liquidation(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(hooked).toContain(c.id);

    // Ten more minutes of refusals and repeats: each alert reached the webhook once.
    await vi.advanceTimersByTimeAsync(10 * MIN);
    for (const x of [a, b, c])
      expect(
        hooked.filter((id) => id === x.id),
        `alert ${x.id}`,
      ).toHaveLength(1);
    expect(changed.filter((x) => x.rule === 'channel')).toHaveLength(1);

    // The delivery lines say so: phone not delivered (its alert went to its fallback), the webhook carried it.
    const log = notifier.deliveryLog([a.id]).get(a.id)!;
    expect(log.find((e) => e.result === 'rerouted')).toMatchObject({
      channel: 'phone',
      detail: 'not reached for 2 min: sent to hook (webhook) instead',
    });
    expect(log.find((e) => e.result === 'fallback')).toMatchObject({
      channel: 'hook',
      detail: 'instead of phone (ntfy), not reached for 2 min',
    });
    expect(log.find((e) => e.channel === 'hook' && e.result === 'sent')).toBeDefined();
    expect(log.at(-1)).toMatchObject({ channel: 'phone', result: 'undelivered' });
    expect(log.at(-1)!.detail).toMatch(/^not reached for 1\d min: connection refused$/);
    // The failing channel kept its own rows: it tries them still.
    expect(store.risk.outbox.rowsOf(a.id).find((r) => r.channel === 'phone')?.state).toBe('pending');
  });
});
