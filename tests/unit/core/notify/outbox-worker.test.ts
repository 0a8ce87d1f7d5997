import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseNotifyConfig, type ChannelConfig } from '../../../../src/main/core/notify/config';
import { OutboxWorker, type OutboxWorkerDeps } from '../../../../src/main/core/notify/outbox-worker';
import { sendOn } from '../../../../src/main/core/notify/senders';
import type { NewAlert } from '../../../../src/main/core/store/risk-alert-repo';
import { Store } from '../../../../src/main/core/store/store';
import type { AlertRecord } from '../../../../src/shared/contract';
import { Receivers, WEBHOOK_SECRET } from '../../../support/receivers';
import { refusingPort } from '../../../support/refusing-port';
import { Watch } from '../../../support/watch';

/**
 * The outbox worker on vitest's fake clock, with its real collaborators: a store in memory, the
 * real senders (fetch) and real receivers on 127.0.0.1 (tests/support/receivers.ts). Time moves
 * only when a test moves it; a send in flight is waited for by its callback (`onLogged`), never
 * by the clock. The backoff's jitter is pinned at its middle (`random: () => 0.5`), so each
 * delay is the policy's own figure: 1 s doubling to 10 minutes.
 */
const T0 = Date.UTC(2026, 10, 25, 12, 0);
const S = 1_000;
const MIN = 60_000;

let rx: Receivers;
let store: Store;
let worker: OutboxWorker | undefined;
let channels: ChannelConfig[];
let logged: number;
let lines: string[];
let watch: Watch;

beforeAll(async () => {
  rx = await Receivers.start();
});
afterAll(() => rx.close());

beforeEach(() => {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  rx.arrivals.length = 0;
  rx.requests.length = 0;
  rx.opts = {};
  store = Store.openInMemory();
  logged = 0;
  lines = [];
  watch = new Watch();
  rx.onAnswered = watch.poke;
});

afterEach(() => {
  worker?.close();
  worker = undefined;
  store.close();
  vi.useRealTimers();
});

const parse = (list: Array<Record<string, unknown>>): ChannelConfig[] =>
  parseNotifyConfig(JSON.stringify({ channels: list }), {}).config.channels;

/** A worker over the store's outbox, every new alert queued on every channel. */
function start(list: Array<Record<string, unknown>>, over: Partial<OutboxWorkerDeps> = {}): OutboxWorker {
  channels = parse(list);
  const w = new OutboxWorker({
    outbox: store.risk.outbox,
    alerts: store.risk,
    channels: {
      channels: () => channels,
      composeOptions: (c) => ({ linkBase: null, hideAmounts: c.hideAmounts }),
      ackUrl: () => null,
    },
    sender: { send: (c, d) => sendOn(c, d) },
    onLogged: () => {
      logged++;
      watch.poke();
    },
    redact: (t) => t,
    log: (line) => lines.push(line),
    random: () => 0.5,
    ...over,
  });
  store.risk.routeWith({
    route: (a) => channels.map((c) => ({ channel: c.name, dueAt: a.created_at })),
    queued: () => w.kick(),
  });
  worker = w;
  return w;
}

let seq = 0;
function alert(over: Partial<NewAlert> = {}): AlertRecord {
  seq++;
  return store.risk.addAlert({
    dedupe_key: `test:${seq}`,
    rule: 'risk-threshold',
    level: 'warning',
    manager_id: `0x${seq.toString(16).padStart(64, '0')}`,
    owner: `0x${'b'.repeat(64)}`,
    event_id: null,
    title: `Warning: position ${seq}`,
    message: `Margin manager ${seq} fell below the warning threshold.`,
    created_at: Date.now(),
    ...over,
  })!;
}

const critical = (over: Partial<NewAlert> = {}): AlertRecord =>
  alert({ rule: 'liquidation', level: 'critical', title: 'Liquidated', message: 'It was liquidated.', ...over });

/** Moves the fake clock, then waits for what that started to be answered (`logged` reaching `count`). */
async function tick(ms: number, count?: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  if (count !== undefined) await watch.when(() => logged >= count);
}

const ntfy = (): Record<string, unknown> => ({ type: 'ntfy', url: `${rx.url}/ntfy/worker` });
const results = (a: AlertRecord): string[] =>
  (store.risk.outbox.log([a.id]).get(a.id) ?? []).map((e) => `${e.result}@${e.at - T0}`);

describe('OutboxWorker', () => {
  it('delivers a queued alert once, logs it sent and goes idle', async () => {
    const w = start([ntfy()]);
    const a = alert();
    expect(w.idle).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    // The message is on its way: the channel is busy until the receiver answers.
    expect(w.idle).toBe(false);
    await tick(0, 1);
    expect(w.idle).toBe(true);
    expect(rx.of('ntfy')).toEqual([
      expect.objectContaining({ id: `tidewatch-alert-${a.id}`, title: a.title, alerts: [a.id], at: T0 }),
    ]);
    expect(store.risk.outbox.rowsOf(a.id)).toEqual([
      expect.objectContaining({ state: 'sent', sent_at: T0, attempts: 1, group_id: `tidewatch-alert-${a.id}` }),
    ]);
    expect(results(a)).toEqual(['sent@0']);
    expect(w.spellOf('ntfy')).toBeNull();
    // An hour on, nothing went twice.
    await tick(60 * MIN);
    expect(rx.requests).toHaveLength(1);
  });

  it('sends what is due critical first, then the oldest (a webhook: one message per alert)', async () => {
    start([{ type: 'webhook', url: `${rx.url}/hook`, secret: WEBHOOK_SECRET }]);
    const w1 = alert();
    const w2 = alert();
    const c3 = critical();
    for (let n = 1; n <= 3; n++) await tick(0, n);
    expect(rx.of('webhook').map((x) => x.alerts[0])).toEqual([c3.id, w1.id, w2.id]);
    expect(rx.of('webhook').map((x) => x.id)).toEqual([c3, w1, w2].map((a) => `tidewatch-alert-${a.id}`));
  });

  it('gathers a burst into one message within the minimum interval, and lets a critical alert go a second after the last', async () => {
    start([ntfy()]);
    const first = alert();
    await tick(0, 1);
    expect(rx.of('ntfy').map((x) => x.alerts)).toEqual([[first.id]]);

    // A second on: two warnings wait out ntfy's 5 s, then go as one message.
    await tick(S);
    const w2 = alert();
    const w3 = alert();
    await tick(4 * S - 1);
    expect(rx.requests).toHaveLength(1);
    expect(results(w2)).toEqual([`queued@${S}`]);
    await tick(1, 2);
    expect(rx.of('ntfy')[1]).toMatchObject({ alerts: [w2.id, w3.id], at: T0 + 5 * S });

    // A critical alert does not wait the interval out: it goes 1 s after the last message, with what else is due.
    await tick(200);
    const w4 = alert();
    const c5 = critical();
    await tick(799);
    expect(rx.requests).toHaveLength(2);
    await tick(1, 3);
    const third = rx.of('ntfy')[2]!;
    expect(third.at).toBe(T0 + 6 * S);
    expect([...third.alerts].sort()).toEqual([w4.id, c5.id].sort());
  });

  it('retries a failed message as it was (same id, same alerts) on a doubling backoff, and never twice once sent', async () => {
    let n = 0;
    rx.opts = { decide: () => (++n <= 3 ? 'fail' : 'ok') };
    const w = start([ntfy()]);
    const a1 = alert();
    const a2 = alert();
    const group = `tidewatch-alert-${a1.id}-and-1`;
    await tick(0, 1);
    expect(store.risk.outbox.rowsOf(a1.id)[0]).toMatchObject({
      state: 'pending',
      attempts: 1,
      group_id: group,
      due_at: T0 + S,
      last_error: 'ntfy (ntfy) failed (500); it is tried again.',
    });
    expect(w.spellOf('ntfy')).toEqual({ since: T0, at: T0, detail: 'ntfy (ntfy) failed (500); it is tried again.' });
    expect(lines.at(-1)).toBe('alert delivery: ntfy (ntfy) failed (500); it is tried again. (attempt 1; next in 1 s)');

    // Queued while the message waits for its retry: it does not join the message formed before it.
    await tick(S / 2);
    const a3 = alert();
    await tick(S / 2 - 1);
    expect(rx.requests).toHaveLength(1);
    await tick(1, 2);
    expect(lines.at(-1)).toMatch(/\(attempt 2; next in 2 s\)$/);
    expect(w.spellOf('ntfy')).toMatchObject({ since: T0, at: T0 + S });
    await tick(2 * S - 1);
    expect(rx.requests).toHaveLength(2);
    await tick(1, 3);
    expect(lines.at(-1)).toMatch(/\(attempt 3; next in 4 s\)$/);
    await tick(4 * S, 4);
    expect(rx.requests.map((r) => [r.id, r.at - T0])).toEqual([
      [group, 0],
      [group, S],
      [group, 3 * S],
      [group, 7 * S],
    ]);
    expect(rx.of('ntfy')).toEqual([expect.objectContaining({ id: group, alerts: [a1.id, a2.id] })]);
    expect(results(a1)).toEqual(['failed@0', `failed@${S}`, `failed@${3 * S}`, `sent@${7 * S}`]);
    expect(w.spellOf('ntfy')).toBeNull();

    // The alert queued meanwhile goes next, after the minimum interval; the sent ones never again.
    await tick(5 * S, 5);
    expect(rx.of('ntfy').map((x) => x.alerts)).toEqual([[a1.id, a2.id], [a3.id]]);
    await tick(30 * MIN);
    expect(rx.requests).toHaveLength(5);
  });

  it('waits what a 429 asks rather than its own backoff, and a second at least', async () => {
    let n = 0;
    rx.opts = { retryAfterSec: 7, decide: () => (++n === 1 ? 'limit' : 'ok') };
    start([{ type: 'telegram', botToken: '123456:test-bot-token', chatId: '4242', apiRoot: rx.url }]);
    const a = alert();
    await tick(0, 1);
    expect(store.risk.outbox.rowsOf(a.id)[0]!.due_at).toBe(T0 + 7 * S);
    expect(lines.at(-1)).toBe(
      'alert delivery: Telegram (telegram) asked to slow down (429); it is sent again when it allows. (attempt 1; next in 7 s)',
    );
    await tick(7 * S - 1);
    expect(rx.requests).toHaveLength(1);
    await tick(1, 2);
    expect(rx.of('telegram')).toEqual([expect.objectContaining({ alerts: [a.id], at: T0 + 7 * S })]);

    // "Retry-After: 0" is not taken as "at once".
    n = 0;
    rx.opts = { retryAfterSec: 0, decide: () => (++n === 1 ? 'limit' : 'ok') };
    channels = parse([ntfy()]);
    const b = alert();
    await tick(0, 3);
    expect(store.risk.outbox.rowsOf(b.id).find((r) => r.channel === 'ntfy')!.due_at).toBe(T0 + 8 * S);
  });

  it('holds a refusal that retrying cannot help for 15 minutes, and tries at once when the channel is fixed', async () => {
    const wrong = 'whsec_' + Buffer.from('another-signing-secret').toString('base64');
    const w = start([{ type: 'webhook', url: `${rx.url}/hook`, secret: wrong }]);
    const a = alert();
    await tick(0, 1);
    expect(lines.at(-1)).toBe(
      "alert delivery: the webhook (webhook) refused the credentials (401): check the channel's token or secret. (attempt 1; next in 900 s)",
    );
    expect(store.risk.outbox.rowsOf(a.id)[0]!.due_at).toBe(T0 + 15 * MIN);
    await tick(14 * MIN);
    expect(rx.requests).toHaveLength(1);
    // A warning held for quiet hours on the same channel, never tried.
    store.risk.routeWith({
      route: () => [{ channel: 'webhook', dueAt: T0 + 120 * MIN, held: 'quiet hours until 14:00' }],
      queued: () => w.kick(),
    });
    const held = alert();

    // The secret is corrected (Settings saved the channel): its pace starts afresh, and what failed goes now.
    channels = parse([{ type: 'webhook', url: `${rx.url}/hook`, secret: WEBHOOK_SECRET }]);
    w.reset('webhook');
    await tick(0, 2);
    expect(rx.of('webhook')).toEqual([expect.objectContaining({ alerts: [a.id], at: T0 + 14 * MIN })]);
    // The held one keeps its time.
    expect(store.risk.outbox.rowsOf(held.id)[0]).toMatchObject({ state: 'pending', due_at: T0 + 120 * MIN });
    await tick(120 * MIN - 14 * MIN - 1);
    expect(rx.requests).toHaveLength(2);
    await tick(1, 3);
    expect(rx.of('webhook')[1]).toMatchObject({ alerts: [held.id], at: T0 + 120 * MIN });
  });

  it('never gives up on a channel: the backoff grows to ten minutes and stays there', async () => {
    const port = await refusingPort();
    const w = start([{ type: 'ntfy', url: `http://127.0.0.1:${port}/ntfy/gone` }]);
    const a = critical();
    const gaps: number[] = [];
    let at = T0;
    await tick(0, 1);
    for (let n = 2; n <= 13; n++) {
      const due = store.risk.outbox.rowsOf(a.id)[0]!.due_at;
      gaps.push(due - at);
      at = due;
      await tick(due - Date.now(), n);
    }
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600].map((s) => s * S));
    const row = store.risk.outbox.rowsOf(a.id)[0]!;
    expect(row).toMatchObject({ state: 'pending', attempts: 13 });
    expect(row.last_error).toBe(
      'ntfy (ntfy) could not be reached: connection refused (nothing listens at that address); it is tried again.',
    );
    expect(w.spellOf('ntfy')).toMatchObject({ since: T0, at });
    // A restart reads the spell back from the delivery log.
    const again = new OutboxWorker({
      outbox: store.risk.outbox,
      alerts: store.risk,
      channels: {
        channels: () => channels,
        composeOptions: () => ({ linkBase: null, hideAmounts: false }),
        ackUrl: () => null,
      },
      sender: { send: () => Promise.resolve() },
      onLogged: () => {},
      redact: (t) => t,
      log: () => {},
    });
    expect(again.spellOf('ntfy')).toEqual(w.spellOf('ntfy'));
    again.close();
  });

  it('sends a message formed before a restart first, as it was, before anything due since', async () => {
    channels = parse([ntfy()]);
    store.risk.routeWith({
      route: (a) => channels.map((c) => ({ channel: c.name, dueAt: a.created_at })),
      queued: () => {},
    });
    const a1 = alert();
    const a2 = alert();
    // The last run bound the two into a message and stopped before the answer (a crash).
    const group = `tidewatch-alert-${a1.id}-and-1`;
    store.risk.outbox.bind([...store.risk.outbox.rowsOf(a1.id), ...store.risk.outbox.rowsOf(a2.id)], group);
    const c3 = critical();
    const w = start([ntfy()]);
    w.kick();
    await tick(0, 1);
    expect(rx.of('ntfy')).toEqual([expect.objectContaining({ id: group, alerts: [a1.id, a2.id] })]);
    await tick(S, 2);
    expect(rx.of('ntfy')[1]).toMatchObject({ id: `tidewatch-alert-${c3.id}`, alerts: [c3.id], at: T0 + S });
  });

  it('fits a burst to what Discord shows: several messages, every alert once', async () => {
    start([{ type: 'discord', url: `${rx.url}/discord/api/webhooks/1/abc`, minIntervalSec: 0 }]);
    const burst = Array.from({ length: 20 }, (_, i) =>
      alert({
        manager_id: `0x${'c'.repeat(63)}${i % 10}`,
        title: `Warning — Long 10,175 WAL on WAL_USDC ${i}: 1.240, liquidation at $0.1965, −3.1 %`,
        message: `Deposit 307.41 USDC or repay 70.71 USDC → 1.275. ${'Its ratio 1.240 fell below the warning threshold 1.275. '.repeat(4)}`,
      }),
    );
    let sent = 0;
    while (store.risk.outbox.pendingCount() > 0) await tick(0, ++sent);
    expect(sent).toBeGreaterThan(1);
    const carried = rx.of('discord').flatMap((m) => m.alerts);
    expect([...carried].sort((x, y) => x - y)).toEqual(burst.map((a) => a.id));
    // Each message ends with the numbers of the alerts it carries: none was cut off at 2,000 characters.
    expect(rx.of('discord').every((m) => m.alerts.length > 0 && m.text.length < 2_000)).toBe(true);
  });

  it('reads the outbox again in 30 s when the store cannot be read', async () => {
    const outbox = store.risk.outbox;
    let failing = true;
    const flaky = new Proxy(outbox, {
      get(target, key, receiver) {
        if (key === 'openGroup' && failing)
          return () => {
            failing = false;
            throw new Error('disk I/O error');
          };
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...x: unknown[]) => unknown).bind(target) : value;
      },
    });
    start([ntfy()], { outbox: flaky });
    const a = alert();
    await tick(0);
    expect(lines).toEqual(['alert delivery: the outbox cannot be read (disk I/O error); trying again in 30 s']);
    // The alert queued on the way kicked the worker, whose next look was set 30 s on: nothing was lost meanwhile.
    await tick(30 * S - 1);
    expect(rx.requests).toHaveLength(0);
    await tick(1, 1);
    expect(rx.of('ntfy')).toEqual([expect.objectContaining({ alerts: [a.id], at: T0 + 30 * S })]);
  });

  it('sends nothing once closed', async () => {
    const w = start([ntfy()]);
    w.close();
    alert();
    w.kick();
    await tick(60 * MIN);
    expect(rx.requests).toHaveLength(0);
    expect(store.risk.outbox.pendingCount()).toBe(1);
  });
});
