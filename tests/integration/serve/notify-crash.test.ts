import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { World } from '../../../src/sim';
import { tempDir, until } from '../../support/monitor';
import { Processes, runCli, serveApi } from '../../support/processes';
import { Receivers, TELEGRAM_TOKEN, WEBHOOK_SECRET, type Arrival } from '../../support/receivers';
import { busiestOwners } from '../../support/sim';

const SEED = 20_251_125;
const processes = new Processes();
const dir = tempDir();
let rx: Receivers;
afterAll(async () => {
  processes.killAll();
  await rx?.close();
  dir.remove();
});

const KINDS = ['ntfy', 'telegram', 'discord', 'slack', 'webhook'] as const;

/**
 * `serve` is SIGKILLed with alerts in its outbox while every channel fails at random (20 % answer
 * 500, 5 % answer 429 with a retry hint), at production defaults: after the restart every alert
 * reaches every channel, compared by alert id with what `export alerts` shows; an alert arrives
 * twice on a channel only in the message that was in flight at the kill (counted and printed).
 */
describe('alert delivery through a crash', () => {
  it(
    'delivers every alert to every channel after a SIGKILL, repeating only what was in flight',
    { timeout: 720_000 },
    async () => {
      rx = await Receivers.start({ failRate: 0.2, rateLimitRate: 0.05, retryAfterSec: 2 });
      const config = join(dir.dir, 'notify.json');
      writeFileSync(config, JSON.stringify({ channels: rx.channels() }));
      const watch = busiestOwners(new World({ seed: SEED }), 4).flatMap((o) => ['--watch', o]);
      const args = [
        'serve',
        '--port',
        '0',
        '--data-dir',
        join(dir.dir, 'data'),
        '--seed',
        String(SEED),
        '--notify-config',
        config,
        ...watch,
      ];
      let serve = processes.start(args);
      let api = serveApi(await serve.waitFor(/running at (\S+)/));
      await until(() => /alerts go to/.test(serve.err()), 10_000, 'the channels line');
      expect(serve.err()).toMatch(
        /alerts go to ntfy \(ntfy\), telegram \(telegram\), discord \(discord\), slack \(slack\), webhook \(webhook\)/,
      );
      const positions = async (): Promise<number> => {
        const r = (await api.invoke('portfolio')).body?.result?.data;
        return (r?.wallets ?? []).reduce((n: number, w: { positions: unknown[] }) => n + w.positions.length, 0);
      };
      await until(async () => (await positions()) >= 50, 120_000, 'the watched positions');
      // Every position below its warning threshold at once (critical out of reach: nothing repeats).
      const alertCount = async (): Promise<number> =>
        (await api.invoke('alerts', { limit: 1000 })).body.result.data.filter(
          (a: { level: string }) => a.level !== 'info',
        ).length;
      expect(
        (await api.invoke('updateSettings', { warningRatio: 900, criticalRatio: 1.001, nearLiquidationPct: null }))
          .status,
      ).toBe(200);
      await until(async () => (await alertCount()) >= 50, 60_000, '50 alerts');
      await new Promise((r) => setTimeout(r, 700));
      const before = (await api.invoke('notifyChannels')).body.result.pending as number;
      serve.child.kill('SIGKILL');
      const arrivedBeforeKill = rx.arrivals.length;
      await until(() => serve.exited(), 10_000, 'serve to die');

      serve = processes.start(args);
      api = serveApi(await serve.waitFor(/running at (\S+)/));
      // A webhook takes one alert per request, and a streak of failures backs it off (1 s doubling): minutes on a busy machine.
      await until(
        async () => (await api.invoke('notifyChannels')).body.result.pending === 0,
        360_000,
        'the outbox to empty',
      ).catch(async (err: unknown) => {
        const view = (await api.invoke('notifyChannels')).body.result as {
          channels: Array<{ name: string; status: unknown }>;
        };
        console.log(
          `still waiting: ${JSON.stringify(view.channels.map((c) => [c.name, c.status]))}\n${serve.err().split('\n').slice(-20).join('\n')}`,
        );
        throw err;
      });
      serve.child.kill('SIGTERM');
      await until(() => serve.exited(), 30_000, 'serve to stop');

      const exported = await runCli(['export', 'alerts', '--data-dir', join(dir.dir, 'data')]);
      const alerts = exported.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; level: string })
        .filter((a) => a.level !== 'info');
      expect(alerts.length).toBeGreaterThanOrEqual(50);
      const rows: string[] = [];
      let lost = 0;
      let repeated = 0;
      for (const kind of KINDS) {
        const got = new Map<number, Arrival[]>();
        for (const a of rx.of(kind)) for (const id of a.alerts) got.set(id, [...(got.get(id) ?? []), a]);
        const missing = alerts.filter((a) => !got.has(a.id)).length;
        const twice = [...got.values()].filter((x) => x.length > 1);
        // A repeat is the message in flight at the kill, sent again: the same alerts (and id, where the protocol has one).
        for (const x of twice) {
          expect(x, `${kind}: an alert arrived ${x.length} times`).toHaveLength(2);
          expect(x[1]!.alerts).toEqual(x[0]!.alerts);
          if (x[0]!.id !== null) expect(x[1]!.id).toBe(x[0]!.id);
        }
        const messages = new Set(twice.map((x) => x[0]!)).size;
        expect(messages, `${kind}: repeated messages`).toBeLessThanOrEqual(1);
        lost += missing;
        repeated += twice.length;
        rows.push(
          `${kind.padEnd(9)} ${String(alerts.length).padStart(6)} ${String(alerts.length - missing).padStart(9)} ${String(missing).padStart(4)} ${String(twice.length).padStart(10)} ${String(rx.of(kind).length).padStart(8)} ${String(rx.refused[kind] ?? 0).padStart(7)}`,
        );
      }
      console.log(
        `alert delivery through a SIGKILL of serve (${before} deliveries (alert × channel) pending at the kill, ${arrivedBeforeKill} arrived before it):\n` +
          `channel   alerts delivered lost duplicated messages refused\n${rows.join('\n')}`,
      );
      expect(lost).toBe(0);
      // The channels' secrets (the bot token, the signing secret, the webhook URLs) in no log line and no export.
      for (const secret of [
        TELEGRAM_TOKEN,
        WEBHOOK_SECRET,
        '/discord/api/webhooks/1/abc',
        '/slack/services/T0/B0/xyz',
      ]) {
        expect(processes.output() + exported.stdout).not.toContain(secret);
      }
      expect(repeated).toBeLessThanOrEqual(KINDS.length * 20);
      expect(before).toBeGreaterThan(0);
    },
  );
});
