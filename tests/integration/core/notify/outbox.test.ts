import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { clockText, CORE_LOCALE } from '../../../../src/shared/format';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { MonitorHarness } from '../../../support/monitor-harness';
import type { NewAlert } from '../../../../src/main/core/store/risk-alert-repo';
import { startServe, type Serving } from '../../../../src/main/web/serve';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { Receivers } from '../../../support/receivers';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * The outbox and its worker against real receivers (tests/support/receivers.ts): every channel
 * gets each alert once, a burst as one message, through failures and 429s, quiet hours hold a
 * warning and pass a critical, and a critical alert repeats until its link acknowledges it.
 */
let t: TestSim;
let rx: Receivers;
const dirs: Array<{ remove(): void }> = [];
const monitors: MonitorHarness[] = [];

beforeAll(async () => {
  t = await startTestSim({ historyDays: 0.2 });
  rx = await Receivers.start();
});
afterEach(async () => {
  for (const m of monitors.splice(0)) await m.close();
});
afterAll(async () => {
  await rx.close();
  await t.close();
  for (const d of dirs) d.remove();
});

/** A monitor on the test sim with every channel pointed at the receivers. */
function monitorWith(doc: Record<string, unknown>): MonitorHarness {
  const dir = tempDir();
  dirs.push(dir);
  const parsed = parseNotifyConfig(JSON.stringify(doc), {});
  const m = monitorOn(t, dir.dir, { notifyFile: { path: 'test.json', ...parsed } }).start();
  monitors.push(m);
  return m;
}

let seq = 0;
function alert(m: MonitorHarness, over: Partial<NewAlert> = {}): AlertRecord {
  seq++;
  return m.store.risk.addAlert({
    dedupe_key: `test:${seq}:${Date.now()}`,
    rule: 'risk-threshold',
    level: 'warning',
    manager_id: `0x${seq.toString(16).padStart(64, '0')}`,
    owner: `0x${'b'.repeat(64)}`,
    event_id: null,
    title: 'Warning: SUI_USDC risk ratio 1.190',
    message: `Margin manager ${seq} (SUI_USDC) fell below the warning threshold (1.2). Assets $3,000, debt 2,521 USDC ($2,521): ratio 1.190.`,
    created_at: Date.now(),
    ...over,
  })!;
}

const delivered = (kind: Parameters<Receivers['of']>[0], ids: number[]): boolean => {
  const got = new Set(rx.of(kind).flatMap((a) => a.alerts));
  return ids.every((id) => got.has(id));
};

describe('the outbox, against real receivers', () => {
  it('sends a burst as one message per chat channel and one signed webhook per alert, each alert once', async () => {
    rx.arrivals.length = 0;
    rx.opts = {};
    const m = monitorWith({ channels: rx.channels() });
    const burst = Array.from({ length: 9 }, () => alert(m));
    const ids = burst.map((a) => a.id);
    await until(
      () => (['ntfy', 'telegram', 'discord', 'slack', 'webhook'] as const).every((k) => delivered(k, ids)),
      20_000,
      'every channel',
    );
    for (const kind of ['ntfy', 'telegram', 'discord', 'slack'] as const) {
      expect(rx.of(kind), kind).toHaveLength(1);
      expect(rx.of(kind)[0]!.title).toBe('9 positions at warning on SUI_USDC');
      expect(rx.of(kind)[0]!.alerts).toEqual(ids);
    }
    expect(rx.of('webhook').map((a) => a.id)).toEqual(ids.map((id) => `tidewatch-alert-${id}`));
    // The delivery log the Alerts page shows: one "sent" per channel (logged once the answer is in).
    await until(() => (m.store.risk.outbox.log(ids).get(ids[0]!) ?? []).length === 5, 10_000, 'the delivery log');
    const log = m.store.risk.outbox.log(ids).get(ids[0]!)!;
    expect(log.map((e) => `${e.channel}:${e.result}`).sort()).toEqual([
      'discord:sent',
      'ntfy:sent',
      'slack:sent',
      'telegram:sent',
      'webhook:sent',
    ]);
  }, 40_000);

  it('retries through failures and 429s with the same message id, and honours Retry-After', async () => {
    rx.arrivals.length = 0;
    let calls = 0;
    // The first two answers of every kind fail (500, then 429 with retry after 2 s), then all is taken.
    const seen: Record<string, number> = {};
    rx.opts = {
      retryAfterSec: 2,
      decide: (kind) => (
        (seen[kind] = (seen[kind] ?? 0) + 1),
        calls++,
        seen[kind] === 1 ? 'fail' : seen[kind] === 2 ? 'limit' : 'ok'
      ),
    };
    const m = monitorWith({ channels: rx.channels() });
    const a = alert(m, {
      level: 'critical',
      rule: 'liquidation',
      title: 'Liquidated',
      message: 'Margin manager 0x1 of 0x2 was liquidated.',
    });
    const started = Date.now();
    await until(
      () => (['ntfy', 'telegram', 'discord', 'slack', 'webhook'] as const).every((k) => delivered(k, [a.id])),
      60_000,
      'every channel after retries',
    );
    // 1 s backoff (±20 %) after the 500, then the receivers' 2 s after the 429.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_800);
    expect(rx.arrivals.filter((x) => x.kind !== 'heartbeat')).toHaveLength(5);
    // A receiver has the message before the worker has its answer and logs "sent": wait for the log.
    const channels = ['ntfy', 'telegram', 'discord', 'slack', 'webhook'];
    const sentOn = (): number =>
      (m.store.risk.outbox.log([a.id]).get(a.id) ?? []).filter((e) => e.result === 'sent').length;
    await until(() => sentOn() === channels.length, 10_000, 'a "sent" entry per channel');
    const log = m.store.risk.outbox.log([a.id]).get(a.id)!;
    for (const ch of channels) {
      expect(log.filter((e) => e.channel === ch).map((e) => e.result)).toEqual(['failed', 'failed', 'sent']);
    }
    expect(
      log.find((e) => e.channel === 'telegram' && e.result === 'failed' && /slow down/.test(e.detail ?? '')),
    ).toBeDefined();
    expect(calls).toBe(15);
  }, 80_000);

  it('gathers warnings for the minimum interval, but does not hold a critical alert to it', async () => {
    rx.arrivals.length = 0;
    rx.opts = {};
    const m = monitorWith({ channels: [{ type: 'ntfy', url: `${rx.url}/ntfy/pace`, minIntervalSec: 30 }] });
    const first = alert(m);
    await until(() => delivered('ntfy', [first.id]), 10_000, 'the first warning');
    const sentAt = rx.of('ntfy')[0]!.at;
    const warning = alert(m);
    const critical = alert(m, {
      level: 'critical',
      rule: 'liquidation',
      title: 'Liquidated',
      message: 'Margin manager 0x1 of 0x2 was liquidated.',
    });
    await until(() => delivered('ntfy', [critical.id]), 10_000, 'the critical alert');
    // It went about a second after the previous message (the floor), not 30 s; the warning due went with it.
    expect(rx.of('ntfy')[1]!.at - sentAt).toBeLessThan(3_000);
    expect(rx.of('ntfy')[1]!.alerts.sort()).toEqual([warning.id, critical.id].sort());
    const later = alert(m);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(delivered('ntfy', [later.id])).toBe(false);
    expect(m.store.risk.outbox.log([later.id]).get(later.id)).toEqual([
      expect.objectContaining({ channel: 'ntfy', result: 'queued' }),
    ]);
  }, 40_000);

  it('holds a warning in quiet hours and lets a critical alert through', async () => {
    rx.arrivals.length = 0;
    rx.opts = {};
    const now = new Date();
    const hhmm = (d: Date): string =>
      `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const quietHours = {
      from: hhmm(new Date(now.getTime() - 3_600_000)),
      to: hhmm(new Date(now.getTime() + 3_600_000)),
    };
    const m = monitorWith({
      channels: [{ type: 'ntfy', url: `${rx.url}/ntfy/quiet`, minLevel: 'warning', quietHours }],
    });
    const warning = alert(m);
    const critical = alert(m, { level: 'critical', title: 'Critical: SUI_USDC risk ratio 1.140' });
    await until(() => delivered('ntfy', [critical.id]), 15_000, 'the critical alert');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.of('ntfy').flatMap((a) => a.alerts)).toEqual([critical.id]);
    const held = m.store.risk.outbox.rowsOf(warning.id)[0]!;
    expect(held.state).toBe('pending');
    expect(held.due_at).toBeGreaterThan(Date.now() + 3_000_000);
    expect(m.store.risk.outbox.log([warning.id]).get(warning.id)![0]).toMatchObject({
      result: 'held',
      // The quiet hours' end, its zone named (shared/format.ts).
      detail: `quiet hours until ${clockText(held.due_at, CORE_LOCALE)}`,
    });
  });
});

describe('escalation', () => {
  let serving: Serving<MonitorHarness>;
  const dir = tempDir();
  afterAll(async () => {
    await serving?.close();
    dir.remove();
  });

  it(
    'repeats a critical alert until the link in the message acknowledges it, then stops',
    { timeout: 120_000 },
    async () => {
      rx.arrivals.length = 0;
      rx.opts = {};
      // A webhook nobody answers fails beside it: it must hold back only its own repeats.
      const doc = {
        channels: [
          { type: 'ntfy', url: `${rx.url}/ntfy/escalate` },
          { type: 'webhook', url: 'http://127.0.0.1:9/hook' },
        ],
        escalateEveryMin: 0.05,
      };
      serving = await startServe({
        port: 0,
        dataDir: dir.dir,
        demo: { speed: 1 },
        notifyFile: { path: 'escalate.json', ...parseNotifyConfig(JSON.stringify(doc), {}) },
        buildMonitor: (options) => new MonitorHarness(options),
      });
      const a = alert(serving.monitor, {
        level: 'critical',
        rule: 'liquidation',
        title: 'Liquidated',
        message: 'Margin manager 0x28f3…fbf6 of 0x2…b was liquidated.',
      });
      await until(() => rx.of('ntfy').length >= 3, 60_000, 'two repeats');
      const msgs = rx.of('ntfy');
      expect(msgs.map((x) => x.repeats[0])).toEqual([0, 1, 2]);
      expect(msgs[1]!.title).toBe('Repeat 1, not acknowledged yet: Liquidated');
      expect(new Set(msgs.map((x) => x.id)).size).toBe(3);
      // The link: a GET shows the alert and asks (a chat app's preview acknowledges nothing), a POST acknowledges.
      const link = /Acknowledge \(stops the repeats\): (\S+)/.exec(msgs.at(-1)!.text)![1]!;
      // ntfy shows it as a button on the notification too.
      expect(msgs.at(-1)!.headers['actions']).toBe(`http, Acknowledge, ${link}, method=POST, clear=true`);
      expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${serving.web.port}/ack/[A-Za-z0-9_-]{20,}$`));
      expect(link).not.toContain(serving.web.token);
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Acknowledge this alert?');
      expect(serving.monitor.store.risk.alert(a.id)!.acknowledged_at).toBeNull();
      const posted = await fetch(link, { method: 'POST' });
      expect(posted.status).toBe(200);
      expect(await posted.text()).toContain('Acknowledged');
      expect(serving.monitor.store.risk.alert(a.id)!.acknowledged_at).not.toBeNull();
      // Spent: every link of that alert.
      expect((await fetch(link, { method: 'POST' })).status).toBe(410);
      // Acknowledged: no repeat, however long after (asked of the escalation at ten intervals on,
      // rather than waited for), and none on the wire.
      const count = rx.of('ntfy').length;
      expect(serving.monitor.alerts.notify.escalate(Date.now() + 10 * 3_000)).toBe(0);
      expect(rx.of('ntfy').length).toBe(count);
    },
  );
});
