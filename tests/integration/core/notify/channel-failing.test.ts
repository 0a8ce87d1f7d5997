import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord, StatusSnapshot } from '../../../../src/shared/contract';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import type { MonitorHarness } from '../../../support/monitor-harness';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { Receivers } from '../../../support/receivers';
import { refusingPort } from '../../../support/refusing-port';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * A failing channel is loud (docs/notify.md#a-failing-channel): ntfy pointed at a port that
 * refuses connections, a critical alert queued; on the alert channels' own clock, moved by the
 * test, the status flags it a minute after the first failure, one alert says so, and the Alerts
 * page's delivery line reads "not delivered".
 */
let t: TestSim;
let rx: Receivers;
const dirs: Array<{ remove(): void }> = [];
const monitors: MonitorHarness[] = [];

beforeAll(async () => {
  t = await startTestSim({ historyDays: 0.2 });
  rx = await Receivers.start();
});
afterAll(async () => {
  for (const m of monitors.splice(0)) await m.close();
  await rx.close();
  await t.close();
  for (const d of dirs) d.remove();
});

/** A monitor whose alert channels run on a clock the test moves (`skew` ms ahead of the wall). */
function monitorWith(doc: Record<string, unknown>): { m: MonitorHarness; skip: (ms: number) => void } {
  const dir = tempDir();
  dirs.push(dir);
  let skew = 0;
  const parsed = parseNotifyConfig(JSON.stringify(doc), {});
  const m = monitorOn(t, dir.dir, {
    notifyFile: { path: 'test.json', ...parsed },
    notifyClock: () => Date.now() + skew,
  }).start();
  monitors.push(m);
  return { m, skip: (ms) => (skew += ms) };
}

function critical(m: MonitorHarness, n: number, at: number): AlertRecord {
  return m.store.risk.addAlert({
    dedupe_key: `test:refused:${n}:${at}`,
    rule: 'liquidation',
    level: 'critical',
    manager_id: `0x${n.toString(16).padStart(64, '0')}`,
    owner: `0x${'b'.repeat(64)}`,
    event_id: null,
    title: 'Liquidated: SUI_USDC',
    message: `Margin manager ${n} (SUI_USDC) was liquidated.`,
    created_at: at,
  })!;
}

describe('a channel that refuses connections', () => {
  it('is flagged in the status within a minute, said once, and its alerts read "not delivered"', async () => {
    const port = await refusingPort();
    const { m, skip } = monitorWith({
      channels: [{ type: 'ntfy', name: 'phone', url: `http://127.0.0.1:${port}/tidewatch-test` }],
    });
    const pushed: StatusSnapshot[] = [];
    const raised: AlertRecord[] = [];
    m.subscribe('status', (s) => pushed.push(s));
    m.subscribe('alerts', (list) => raised.push(...list.filter((a) => a.rule === 'channel')));
    const a = critical(m, 1, Date.now());
    await until(() => m.alerts.notify.worker.spellOf('phone') !== null, 10_000, 'the first refused send');
    expect(m.alerts.notify.worker.spellOf('phone')!.detail).toMatch(/connection refused/);

    // Under a minute: waiting, not flagged.
    skip(30_000);
    m.alerts.notify.reach.tick();
    expect(m.status().unreached).toEqual([]);
    const early = (await m.invoke('alerts', {})).data.find((x) => x.id === a.id)!;
    expect(early.deliveries?.at(-1)?.result).not.toBe('undelivered');
    expect(m.sight.reasons().join()).not.toContain('alert channel');

    // A minute after the first failure: flagged, pushed, said once.
    skip(31_000);
    m.alerts.notify.reach.tick();
    const [u] = m.status().unreached ?? [];
    expect(u).toMatchObject({ channel: 'phone', words: 'phone (ntfy)', short: 'connection refused', waiting: 1 });
    expect(u!.reason).toMatch(/^ntfy \(phone\) could not be reached: connection refused/);
    await until(() => pushed.some((s) => (s.unreached ?? []).length === 1), 5_000, 'the status push');
    // Its only channel: nothing reaches the trader, which the blind alarm counts (in words).
    expect(m.sight.reasons()).toContain('no alert channel reaches you (phone (ntfy): connection refused)');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ level: 'warning', title: 'Alerts are not reaching phone (ntfy)' });
    expect(raised[0]!.message).toMatch(
      /^Nothing has reached phone \(ntfy\) for 1 min: ntfy \(phone\) could not be reached: connection refused/,
    );
    skip(5_000);
    m.alerts.notify.reach.tick();
    expect(raised).toHaveLength(1);

    // The Alerts page: the critical alert is not delivered to phone (not "waiting").
    const line = (await m.invoke('alerts', {})).data.find((x) => x.id === a.id)!.deliveries!.at(-1)!;
    expect(line).toMatchObject({ channel: 'phone', result: 'undelivered' });
    expect(line.detail).toBe('not reached for 1 min: connection refused');
  }, 30_000);

  it("sends its waiting alerts to its fallback after the fallback's minutes, once each", async () => {
    const port = await refusingPort();
    rx.arrivals.length = 0;
    const hook = rx.channels({ rules: ['blind'] }).find((c) => c['type'] === 'webhook')!;
    const { m, skip } = monitorWith({
      channels: [
        {
          type: 'ntfy',
          name: 'phone',
          url: `http://127.0.0.1:${port}/tidewatch-test`,
          fallback: { channel: 'webhook', afterMin: 2 },
        },
        hook,
      ],
    });
    const a = critical(m, 2, Date.now());
    await until(() => m.alerts.notify.worker.spellOf('phone') !== null, 10_000, 'the first refused send');
    skip(61_000);
    m.alerts.notify.reach.tick();
    expect(m.status().unreached?.[0]?.fallback).toMatchObject({ channel: 'webhook', words: 'the webhook' });
    expect(rx.of('webhook').flatMap((x) => x.alerts)).not.toContain(a.id);
    skip(60_000);
    m.alerts.notify.reach.tick();
    await until(() => rx.of('webhook').some((x) => x.alerts.includes(a.id)), 10_000, 'the fallback message');
    skip(5_000);
    m.alerts.notify.reach.tick();
    skip(5_000);
    m.alerts.notify.reach.tick();
    expect(rx.of('webhook').filter((x) => x.alerts.includes(a.id))).toHaveLength(1);
    // The receiver keeps a message before it answers: the outbox logs it sent just after.
    const logOf = async () => (await m.invoke('alerts', {})).data.find((x) => x.id === a.id)!.deliveries!;
    await until(
      async () => (await logOf()).some((e) => e.channel === 'webhook' && e.result === 'sent'),
      5_000,
      'the fallback logged sent',
    );
    const log = await logOf();
    expect(log.map((e) => [e.channel, e.result])).toEqual(
      expect.arrayContaining([
        ['phone', 'rerouted'],
        ['webhook', 'fallback'],
        ['webhook', 'sent'],
        ['phone', 'undelivered'],
      ]),
    );
  }, 30_000);
});
