import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { NotifyConfigError, parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { Notifier, type NotifierDeps } from '../../../../src/main/core/notify/notifier';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import type { NewAlert } from '../../../../src/main/core/store/risk-alert-repo';
import { Store } from '../../../../src/main/core/store/store';
import type { AlertRecord } from '../../../../src/shared/contract';
import { Receivers, TELEGRAM_TOKEN, WEBHOOK_SECRET } from '../../../support/receivers';
import { refusingPort } from '../../../support/refusing-port';
import { Watch } from '../../../support/watch';

/**
 * The Notifier on vitest's fake clock (12:00 UTC; the tests read local time as UTC), with its
 * real collaborators: a store in memory, the outbox worker, the channel reach, the real senders
 * over fetch, and real receivers on 127.0.0.1 (tests/support/receivers.ts); the secret store is
 * the in-memory one the shells' tests use. Time moves only when a test moves it, and a message in
 * flight is waited for through the Notifier's own callbacks, never through the clock.
 */
const T0 = Date.UTC(2026, 10, 25, 12, 0);
const S = 1_000;
const MIN = 60_000;

let rx: Receivers;
let closed: number;
let store: Store;
let notifier: Notifier | undefined;
let stored: MemorySecretStore;
let changed: AlertRecord[][];
let lines: string[];
let reachChanged: number;
let watch: Watch;

beforeAll(async () => {
  rx = await Receivers.start();
  closed = await refusingPort();
});
afterAll(() => rx.close());

beforeEach(() => {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  rx.arrivals.length = 0;
  rx.requests.length = 0;
  rx.opts = {};
  store = Store.openInMemory();
  stored = new MemorySecretStore();
  changed = [];
  lines = [];
  reachChanged = 0;
  watch = new Watch();
  rx.onAnswered = watch.poke;
});

afterEach(() => {
  notifier?.close();
  notifier = undefined;
  store.close();
  vi.useRealTimers();
});

const ntfy = (name = 'phone', over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'ntfy',
  name,
  url: `${rx.url}/ntfy/${name}`,
  ...over,
});
const hook = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'webhook',
  name: 'hook',
  url: `${rx.url}/hook`,
  secret: WEBHOOK_SECRET,
  ...over,
});
const deadHook = (): Record<string, unknown> => hook({ url: `http://127.0.0.1:${closed}/hook` });

/** A Notifier on the store; `file` is `serve --notify-config`'s document, `settings` the one saved in Settings. */
function make(
  o: { file?: Record<string, unknown>; settings?: Record<string, unknown> } & Partial<Omit<NotifierDeps, 'file'>> = {},
): Notifier {
  const { file, settings, ...deps } = o;
  if (settings) stored.set(JSON.stringify(settings));
  const events = new EventBus<CoreEvents>();
  events.on('alertsUpdated', ({ alerts }) => {
    changed.push(alerts);
    watch.poke();
  });
  events.on('reachChanged', () => reachChanged++);
  notifier = new Notifier({
    repo: store.risk,
    stored,
    file: file ? { path: '/etc/tidewatch/notify.json', ...parseNotifyConfig(JSON.stringify(file), {}) } : null,
    privacy: () => false,
    publicUrl: () => null,
    events,
    log: (line) => {
      lines.push(line);
      watch.poke();
    },
    redact: (t) => t,
    ...deps,
  });
  store.risk.routeWith(notifier.router);
  return notifier;
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
    message: `Margin manager ${seq} fell below the warning threshold. Assets $3,000, debt 2,521 USDC ($2,521).`,
    created_at: Date.now(),
    ...over,
  })!;
}
const liquidation = (over: Partial<NewAlert> = {}): AlertRecord =>
  alert({ rule: 'liquidation', level: 'critical', title: 'Liquidated', message: 'It was liquidated.', ...over });

/** An alert as the router sees it, not stored. */
const record = (over: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 1,
  rule: 'risk-threshold',
  level: 'warning',
  manager_id: null,
  owner: null,
  event_id: null,
  title: 'x',
  message: 'x',
  created_at: T0,
  acknowledged_at: null,
  snoozed_until: null,
  ...over,
});

/**
 * Moves the fake clock in steps of `step`, first letting what is due now go; each message the
 * worker starts is answered before the clock moves on.
 */
async function advance(ms: number, step = S): Promise<void> {
  const idle = (): Promise<void> => watch.when(() => notifier!.worker.idle);
  await vi.advanceTimersByTimeAsync(0);
  await idle();
  for (let done = 0; done < ms; done += step) {
    await vi.advanceTimersByTimeAsync(Math.min(step, ms - done));
    await idle();
  }
}

const logOf = (a: AlertRecord): string[] =>
  (notifier!.deliveryLog([a.id]).get(a.id) ?? []).map((e) => `${e.channel}:${e.result}@${e.at - T0}`);

describe('Notifier: where an alert goes', () => {
  it('routes by each channel’s level and rules, sends what it routed, and says the log changed', async () => {
    const n = make({
      file: {
        channels: [
          ntfy(),
          { type: 'discord', name: 'desk', url: `${rx.url}/discord/api/webhooks/1/abc`, minLevel: 'critical' },
          { type: 'slack', name: 'team', url: `${rx.url}/slack/services/T0/B0/xyz`, rules: ['liquidation'] },
          hook(),
          { type: 'desktop' },
        ],
      },
    });
    const names = (a: AlertRecord): string[] => n.router.route(a).map((e) => e.channel);
    expect(names(record())).toEqual(['phone', 'hook']);
    expect(names(record({ rule: 'liquidation', level: 'critical' }))).toEqual(['phone', 'desk', 'team', 'hook']);
    expect(names(record({ rule: 'history-gap', level: 'info' }))).toEqual([]);
    // About delivery itself: every channel but the desktop's, whatever its level and rules.
    expect(names(record({ rule: 'blind', level: 'info' }))).toEqual(['phone', 'desk', 'team', 'hook']);
    expect(n.router.route(record({ created_at: T0 + 5 }))).toEqual([
      { channel: 'phone', dueAt: T0 + 5 },
      { channel: 'hook', dueAt: T0 + 5 },
    ]);

    n.start();
    const a = alert();
    await advance(0);
    expect(rx.arrivals.map((x) => [x.kind, x.alerts])).toEqual(
      expect.arrayContaining([
        ['ntfy', [a.id]],
        ['webhook', [a.id]],
      ]),
    );
    expect(rx.arrivals).toHaveLength(2);
    expect(store.risk.outbox.rowsOf(a.id).map((r) => `${r.channel}:${r.state}`)).toEqual(['hook:sent', 'phone:sent']);
    // Each logged send told the Alerts page to read again.
    expect(changed.filter((c) => c.length === 0).length).toBeGreaterThanOrEqual(2);
  });

  it('holds a warning for quiet hours, and lets a critical alert and the blind alarm through', async () => {
    const n = make({
      file: { channels: [ntfy('phone', { quietHours: { from: '11:00', to: '13:00' } })], escalateEveryMin: 0 },
    });
    expect(n.router.route(record())).toEqual([
      { channel: 'phone', dueAt: T0 + 60 * MIN, held: 'quiet hours until 1:00 PM UTC' },
    ]);
    expect(n.router.route(record({ level: 'critical' }))).toEqual([{ channel: 'phone', dueAt: T0 }]);
    expect(n.router.route(record({ rule: 'blind', level: 'info' }))).toEqual([{ channel: 'phone', dueAt: T0 }]);

    n.start();
    const w = alert();
    const c = liquidation();
    await advance(0);
    expect(rx.of('ntfy').map((x) => x.alerts)).toEqual([[c.id]]);
    await advance(60 * MIN - S, 10 * S);
    expect(rx.of('ntfy')).toHaveLength(1);
    await advance(S);
    expect(rx.of('ntfy')[1]).toMatchObject({ alerts: [w.id], at: T0 + 60 * MIN });
    expect(logOf(w)).toEqual(['phone:held@0', `phone:sent@${60 * MIN}`]);
  });

  it('masks amounts on every channel in privacy mode', async () => {
    make({ file: { channels: [ntfy()] }, privacy: () => true }).start();
    alert();
    await advance(0);
    const text = rx.of('ntfy')[0]!.text;
    expect(text).not.toMatch(/3,000|2,521/);
    expect(text).toContain('(Amounts hidden on this channel.)');
  });

  it('says which alerts the desktop notification carries: its own rules when set, the usual ones when not', () => {
    const none = make();
    expect(none.desktopCarries(record({ rule: 'liquidation' }))).toBe(true);
    expect(none.desktopCarries(record({ rule: 'credit-budget' }))).toBe(false);
    expect(none.desktopCarries(record({ rule: 'risk-threshold', level: 'info' }))).toBe(false);
    expect(none.desktopCarries(record({ rule: 'blind', level: 'info' }))).toBe(true);
    none.close();

    const quiet = make({
      file: {
        channels: [{ type: 'desktop', rules: ['liquidation', 'blind'], quietHours: { from: '11:00', to: '13:00' } }],
      },
    });
    expect(quiet.desktopCarries(record({ rule: 'liquidation' }))).toBe(false);
    expect(quiet.desktopCarries(record({ rule: 'liquidation', level: 'critical' }))).toBe(true);
    expect(quiet.desktopCarries(record({ rule: 'liquidation' }), T0 + 2 * 60 * MIN)).toBe(true);
    expect(quiet.desktopCarries(record({ rule: 'credit-budget', level: 'critical' }))).toBe(false);
    // The blind alarm goes to every channel, but an info waits out quiet hours on the desktop too.
    expect(quiet.desktopCarries(record({ rule: 'blind', level: 'info' }))).toBe(false);
    expect(quiet.desktopCarries(record({ rule: 'blind', level: 'critical' }))).toBe(true);
  });
});

describe('Notifier: configuration', () => {
  const fileDoc = (): Record<string, unknown> => ({
    channels: [ntfy('phone', { token: 'tk_file_secret' })],
    escalateEveryMin: 2,
    linkBase: 'https://tw.example',
  });
  const settingsDoc = (): Record<string, unknown> => ({
    channels: [{ type: 'telegram', botToken: TELEGRAM_TOKEN, chatId: 4242, apiRoot: rx.url }],
    escalateEveryMin: 9,
  });

  it('puts the file’s channels first and its options in force; every secret of both is listed', () => {
    const n = make({ file: fileDoc(), settings: settingsDoc() });
    expect(n.channels().map((c) => c.name)).toEqual(['phone', 'telegram']);
    expect(n.config()).toMatchObject({ escalateEveryMin: 2, linkBase: 'https://tw.example' });
    expect(n.secrets()).toEqual(expect.arrayContaining([`${rx.url}/ntfy/phone`, 'tk_file_secret', TELEGRAM_TOKEN]));
    n.close();
    // Without a file, the options saved in Settings.
    expect(make({ settings: settingsDoc() }).config()).toMatchObject({ escalateEveryMin: 9, linkBase: null });
  });

  it('leaves out channels saved in a form it cannot read, and says so', () => {
    stored.set('{"channels": [{"type": "pager"}]}');
    const n = make();
    expect(n.channels()).toEqual([]);
    expect(lines).toEqual([
      'alert channels: channels[0] (pager): type must be one of ntfy, telegram, discord, slack, email, webhook, desktop; they are left out until saved again',
    ]);
  });

  it('shows each channel without its secrets, with where it comes from and how sending goes', async () => {
    rx.opts = { decide: (kind) => (kind === 'ntfy' ? 'fail' : 'ok') };
    const n = make({ file: fileDoc(), settings: settingsDoc() }).start();
    alert();
    await advance(0);
    const v = n.view();
    expect(v).toMatchObject({ escalateEveryMin: 2, file: 'notify.json', pending: 1, heartbeatSet: false });
    expect(v.channels[0]).toMatchObject({
      name: 'phone',
      type: 'ntfy',
      source: 'file',
      secrets: { url: true, token: true },
      status: { pending: 1, lastSentAt: null, failing: { since: T0, at: T0 } },
    });
    expect(v.channels[1]).toMatchObject({
      name: 'telegram',
      source: 'settings',
      secrets: { botToken: true },
      fields: { chatId: 4242, apiRoot: rx.url },
      status: { pending: 0, lastSentAt: T0, failing: null },
    });
    const text = JSON.stringify(v);
    for (const secret of n.secrets()) expect(text).not.toContain(secret);
  });

  it('saves a channel in Settings keeping a secret left out, and tries its failed messages at once', async () => {
    const n = make().start();
    n.saveChannel({ type: 'telegram', name: 'tg', botToken: TELEGRAM_TOKEN, chatId: '999', apiRoot: rx.url });
    const a = liquidation();
    await advance(0);
    // "chat not found": retrying cannot help until the channel changes (15 minutes).
    expect(store.risk.outbox.rowsOf(a.id)[0]).toMatchObject({ state: 'pending', due_at: T0 + 15 * MIN });
    await advance(MIN, 10 * S);

    // The chat id is corrected; the token, left out, is kept.
    const v = n.saveChannel({ type: 'telegram', name: 'tg', chatId: '4242', apiRoot: rx.url }, 'tg');
    expect(v.channels.map((c) => [c.name, c.secrets])).toEqual([['tg', { botToken: true }]]);
    expect(JSON.parse(stored.get()!)).toMatchObject({
      channels: [{ name: 'tg', botToken: TELEGRAM_TOKEN, chatId: '4242' }],
    });
    await advance(0);
    expect(rx.of('telegram')).toEqual([expect.objectContaining({ alerts: [a.id], at: T0 + MIN })]);
  });

  it('refuses a channel that clashes with the file’s or does not parse, and keeps what was saved', () => {
    const n = make({ file: fileDoc(), settings: settingsDoc() });
    const before = stored.get();
    expect(() => n.saveChannel(ntfy('phone'))).toThrow(
      new RangeError('a channel named "phone" comes from the notify config file; choose another name'),
    );
    expect(() => n.saveChannel({ type: 'ntfy', name: 'pager', url: 'not a url' })).toThrow(NotifyConfigError);
    expect(stored.get()).toBe(before);
    expect(n.channels().map((c) => c.name)).toEqual(['phone', 'telegram']);
  });

  it('removes a channel saved in Settings, dropping what waited on it, unless another falls back to it', async () => {
    rx.opts = { decide: (kind) => (kind === 'ntfy' ? 'fail' : 'ok') };
    const n = make({ settings: { channels: [ntfy('phone', { fallback: { channel: 'hook' } }), hook()] } }).start();
    expect(() => n.removeChannel('nope')).toThrow(new RangeError('no channel named "nope" is saved in Settings'));
    expect(() => n.removeChannel('hook')).toThrow(
      new RangeError('"hook" is the fallback of "phone": choose another fallback there first'),
    );
    const a = alert();
    await advance(0);
    const tried = (): number => rx.requests.filter((r) => r.kind === 'ntfy').length;
    expect(tried()).toBe(1);

    const v = n.removeChannel('phone');
    expect(v.channels.map((c) => c.name)).toEqual(['hook']);
    expect(store.risk.outbox.rowsOf(a.id).map((r) => `${r.channel}:${r.state}`)).toEqual([
      'hook:sent',
      'phone:dropped',
    ]);
    expect(
      notifier!
        .deliveryLog([a.id])
        .get(a.id)!
        .find((e) => e.result === 'dropped'),
    ).toMatchObject({
      channel: 'phone',
      detail: 'the channel was removed',
    });
    await advance(10 * MIN, 10 * S);
    expect(tried()).toBe(1);
  });

  it('updates the options, and refuses a value out of range without changing anything', () => {
    const n = make({ settings: settingsDoc() });
    const v = n.updateOptions({
      escalateEveryMin: 1,
      heartbeatUrl: `${rx.url}/ping/abc`,
      linkBase: 'https://tw.example',
    });
    expect(v).toMatchObject({ escalateEveryMin: 1, heartbeatSet: true, linkBase: 'https://tw.example' });
    // The heartbeat URL is a secret: listed for redaction, never shown.
    expect(n.secrets()).toContain(`${rx.url}/ping/abc`);
    expect(JSON.stringify(v)).not.toContain('/ping/abc');
    expect(() => n.updateOptions({ escalateEveryMin: -1 })).toThrow(NotifyConfigError);
    expect(n.config().escalateEveryMin).toBe(1);
  });

  it('sends a test on every channel but the desktop, or on one, outside the outbox', async () => {
    const n = make({ file: { channels: [ntfy(), deadHook(), { type: 'desktop' }] } });
    const results = await n.test();
    expect(results).toEqual([
      { channel: 'phone', type: 'ntfy', ok: true, message: 'Sent: check that it arrived.', ms: 0 },
      {
        channel: 'hook',
        type: 'webhook',
        ok: false,
        message: 'the webhook (hook) could not be reached: connection refused (nothing listens at that address).',
        ms: 0,
      },
    ]);
    expect(rx.of('ntfy')).toEqual([
      expect.objectContaining({ id: `tidewatch-test-${T0}-phone`, title: 'Tidewatch test message' }),
    ]);
    expect(store.risk.outbox.pendingCount()).toBe(0);
    expect((await n.test('phone')).map((r) => r.channel)).toEqual(['phone']);
    await expect(n.test('nope')).rejects.toThrow(new RangeError('no channel is named "nope"'));
  });
});

describe('Notifier: acknowledging and repeating', () => {
  it('puts a one-time acknowledge link in a critical alert’s message, and the link acknowledges it once', async () => {
    const n = make({ file: { channels: [ntfy()] }, publicUrl: () => 'http://127.0.0.1:4321/' }).start();
    const w = alert();
    await advance(0);
    const c = liquidation();
    await advance(5 * S);
    const [first, second] = rx.of('ntfy');
    expect(first!.text).not.toContain('Acknowledge');
    const link = /Acknowledge \(stops the repeats\): (\S+)/.exec(second!.text)![1]!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:4321\/ack\/[A-Za-z0-9_-]{24}$/);
    expect(second!.headers['actions']).toBe(`http, Acknowledge, ${link}, method=POST, clear=true`);
    const token = link.split('/').pop()!;

    // Looking does not spend it (a chat app's preview fetches links).
    expect(n.alertOfToken(token)?.id).toBe(c.id);
    expect(n.alertOfToken(token)?.id).toBe(c.id);
    await advance(S);
    const acked = n.acknowledgeByToken(token);
    expect(acked).toMatchObject({ id: c.id, acknowledged_at: T0 + 6 * S });
    expect(changed.at(-1)).toEqual([acked]);
    expect(n.acknowledgeByToken(token)).toBeUndefined();
    expect(n.alertOfToken(token)).toBeUndefined();
    expect(n.alertOfToken('not a token!')).toBeUndefined();
    expect(n.acknowledgeByToken('short')).toBeUndefined();
    expect(store.risk.alert(w.id)!.acknowledged_at).toBeNull();
  });

  it('repeats the newest critical alert of a manager on each channel that took it, not one snoozed, answered or a week old', async () => {
    const n = make({ file: { channels: [ntfy()], escalateEveryMin: 1 } });
    const manager = `0x${'1'.repeat(64)}`;
    const crossing = alert({ level: 'critical', manager_id: manager, title: 'Critical: SUI_USDC' });
    const old = liquidation({ created_at: T0 - 8 * 24 * 60 * MIN });
    const snoozed = liquidation();
    store.risk.snooze(snoozed.id, T0 + 10 * MIN);
    await advance(S);
    const liq = liquidation({ manager_id: manager });
    await advance(5 * S);
    expect(
      rx
        .of('ntfy')
        .flatMap((x) => x.alerts)
        .sort(),
    ).toEqual([crossing.id, old.id, snoozed.id, liq.id].sort());

    expect(n.escalate(T0 + 30 * S)).toBe(0);
    expect(n.escalate(Date.now() + MIN)).toBe(1);
    expect(store.risk.outbox.rowsOf(liq.id).map((r) => `${r.repeat}:${r.state}`)).toEqual(['0:sent', '1:pending']);
    await advance(MIN);
    expect(rx.of('ntfy').at(-1)).toMatchObject({
      id: `tidewatch-alert-${liq.id}-r1`,
      title: 'Repeat 1, not acknowledged yet: Liquidated',
      alerts: [liq.id],
      repeats: [1],
    });
    // Not again before its interval; the snoozed one once its snooze ends. Acknowledging the
    // liquidation answers the crossing before it, left unacknowledged: that one does not repeat.
    expect(n.escalate()).toBe(0);
    store.risk.acknowledge(liq.id);
    expect(n.escalate(T0 + 11 * MIN)).toBe(1);
    expect(store.risk.outbox.rowsOf(snoozed.id).map((r) => r.repeat)).toEqual([0, 1]);
    expect(store.risk.outbox.rowsOf(crossing.id).map((r) => r.repeat)).toEqual([0]);
    expect(store.risk.alert(crossing.id)!.acknowledged_at).toBeNull();
  });

  it('stops repeating a critical crossing once its position is out of danger', async () => {
    const n = make({ file: { channels: [ntfy()], escalateEveryMin: 1 } });
    const manager = `0x${'2'.repeat(64)}`;
    const crossing = alert({ level: 'critical', manager_id: manager, title: 'Critical: SUI_USDC' });
    await advance(5 * S);
    expect(n.escalate(Date.now() + MIN)).toBe(1);
    await advance(MIN);
    const out = alert({ rule: 'recovered', level: 'info', manager_id: manager, title: 'Out of danger' });
    await advance(5 * S);
    // It went where the crossing went (the phone takes warnings and above), and ended its repeats.
    expect(store.risk.outbox.rowsOf(out.id).map((r) => `${r.channel}:${r.state}`)).toEqual(['phone:sent']);
    expect(n.escalate(Date.now() + 10 * MIN)).toBe(0);
    expect(store.risk.outbox.rowsOf(crossing.id).map((r) => r.repeat)).toEqual([0, 1]);
  });

  it('repeats on its own schedule once started; a failing channel holds back only its own repeats', async () => {
    make({ file: { channels: [ntfy(), deadHook()], escalateEveryMin: 1 } }).start();
    const liq = liquidation();
    await advance(2 * MIN + 40 * S);
    // The hook not reached is said on ntfy as well; the liquidation's own messages are these.
    const mine = rx.of('ntfy').filter((x) => x.alerts.includes(liq.id));
    expect(mine.map((x) => x.repeats[x.alerts.indexOf(liq.id)])).toEqual([0, 1, 2]);
    expect(mine[0]!.at).toBe(T0);
    for (let i = 1; i < mine.length; i++) expect(mine[i]!.at - mine[i - 1]!.at).toBeGreaterThanOrEqual(MIN);
    expect(store.risk.outbox.rowsOf(liq.id).filter((r) => r.channel === 'hook')).toEqual([
      expect.objectContaining({ repeat: 0, state: 'pending' }),
    ]);
  });

  it('repeats nothing when repeats are off', () => {
    const n = make({ file: { channels: [ntfy()], escalateEveryMin: 0 } });
    liquidation();
    expect(n.escalate(T0 + 60 * MIN)).toBe(0);
    expect(n.escalate(T0 + 24 * 60 * MIN)).toBe(0);
  });
});

describe('Notifier: failures', () => {
  it('sends an alert the store could not keep once, straight to its channels, and never retries it', async () => {
    const n = make({ file: { channels: [ntfy(), deadHook()] } });
    n.deliverUnstored(record({ id: 0, rule: 'store-write', level: 'critical', title: 'Tidewatch cannot save data' }));
    await watch.when(() => rx.of('ntfy').length === 1 && lines.length === 1);
    expect(rx.of('ntfy')[0]).toMatchObject({
      id: `tidewatch-unstored-store-write-critical-${T0}`,
      title: 'Tidewatch cannot save data',
    });
    expect(lines).toEqual([
      'alert delivery: the webhook (hook) could not be reached: connection refused (nothing listens at that address); it is tried again. (an alert the store could not keep: not retried)',
    ]);
    // A stored alert is the outbox's; nothing else is sent.
    n.deliverUnstored(record({ id: 7 }));
    n.deliverUnstored(undefined);
    await advance(30 * MIN, MIN);
    expect(rx.requests).toHaveLength(1);
    expect(store.risk.outbox.pendingCount()).toBe(0);
  });

  it('says once that a channel is not reached, and sends its waiting alerts to its fallback', async () => {
    const n = make({
      file: {
        channels: [
          { type: 'ntfy', name: 'phone', url: `http://127.0.0.1:${closed}/ntfy/x`, fallback: { channel: 'hook' } },
          hook({ rules: ['blind'] }),
        ],
      },
    }).start();
    const a = liquidation();
    await advance(MIN + 5 * S);
    expect(n.reach.unreached.map((u) => u.channel)).toEqual(['phone']);
    expect(reachChanged).toBe(1);
    const said = changed.flat().filter((x) => x.rule === 'channel');
    expect(said).toHaveLength(1);
    expect(said[0]!.title).toBe('Alerts are not reaching phone (ntfy)');
    // Said on every channel but the one it is about.
    expect(rx.of('webhook').map((x) => x.alerts)).toEqual([[said[0]!.id]]);
    expect(store.risk.outbox.rowsOf(said[0]!.id).map((r) => r.channel)).toEqual(['hook']);

    await advance(MIN);
    expect(rx.of('webhook').map((x) => x.alerts)).toEqual([[said[0]!.id], [a.id]]);
    const log = n.deliveryLog([a.id]).get(a.id)!;
    expect(log.map((e) => `${e.channel}:${e.result}`)).toEqual(
      expect.arrayContaining(['phone:failed', 'phone:rerouted', 'hook:fallback', 'hook:sent', 'phone:undelivered']),
    );
    await advance(10 * MIN, 10 * S);
    expect(rx.of('webhook').filter((x) => x.alerts.includes(a.id))).toHaveLength(1);
    expect(changed.flat().filter((x) => x.rule === 'channel')).toHaveLength(1);
  });

  it('sends, repeats and judges nothing once closed', async () => {
    const n = make({ file: { channels: [ntfy()], escalateEveryMin: 1 } }).start();
    n.close();
    liquidation();
    await vi.advanceTimersByTimeAsync(30 * MIN);
    expect(rx.requests).toHaveLength(0);
    expect(reachChanged).toBe(0);
  });
});
