import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../../support/monitor';
import { Processes, watchingServe } from '../../support/processes';
import { Receivers } from '../../support/receivers';

const KEY = 'blind-key';
const SEED = 7;
const processes = new Processes();
const dir = tempDir();
let rx: Receivers;
afterAll(async () => {
  processes.killAll();
  await rx?.close();
  dir.remove();
});

/**
 * The monitor watches itself, at production defaults (a 3-minute grace, a heartbeat a minute):
 * the Demo network runs as its own process and is SIGKILLed for 4 minutes under a watching
 * `serve`. One "cannot see" message goes out after the grace, one "sees again" with the
 * catch-up's summary when it is back, and the heartbeat URL is not called while blind.
 */
describe('the blind alarm', () => {
  it(
    'says once that it cannot see, once that it sees again, and stops the heartbeat between',
    { timeout: 600_000 },
    async () => {
      rx = await Receivers.start();
      const config = join(dir.dir, 'notify.yaml');
      // YAML, as a user may write it.
      writeFileSync(
        config,
        `channels:\n  - type: ntfy\n    url: ${rx.url}/ntfy/blind\n  - type: telegram\n    botToken: env:TW_TG_TOKEN\n    chatId: "4242"\n    apiRoot: ${rx.url}\nheartbeatUrl: ${rx.url}/ping/tidewatch-blind\n`,
      );
      const { demo, sim, serve } = await watchingServe(processes, {
        key: KEY,
        seed: SEED,
        speed: 60,
        dataDir: dir.dir,
        extra: ['--notify-config', config],
        env: { TW_TG_TOKEN: '123456:test-bot-token' },
      });
      await until(() => rx.of('heartbeat').length >= 1, 30_000, 'a heartbeat');
      const blindMessages = () =>
        rx.arrivals.filter((a) => a.kind !== 'heartbeat' && /Tidewatch (cannot see|sees again)/.test(a.title));

      sim.child.kill('SIGKILL');
      const killedAt = Date.now();
      await until(() => sim.exited(), 10_000, 'the sim to die');
      await new Promise((r) => setTimeout(r, 240_000));
      const beatsWhileBlind = rx.of('heartbeat').filter((h) => h.at > killedAt + 10_000);
      const blind = blindMessages();
      await demo.start();
      const restartedAt = Date.now();
      await until(
        () => blindMessages().filter((m) => /sees again/.test(m.title)).length >= 2,
        180_000,
        'the all-clear on both channels',
      );
      const back = blindMessages().filter((m) => /sees again/.test(m.title));
      const beatsAfter = () => rx.of('heartbeat').filter((h) => h.at > restartedAt);
      await until(() => beatsAfter().length >= 1, 90_000, 'the heartbeat again');

      const first = blind.filter((m) => m.kind === 'ntfy')[0]!;
      console.log(
        `blind alarm: raised ${((first.at - killedAt) / 1000).toFixed(0)} s after the kill (grace 180 s); ` +
          `all-clear ${((back[0]!.at - restartedAt) / 1000).toFixed(0)} s after the Demo network was back; ` +
          `heartbeats while blind: ${beatsWhileBlind.length}; all-clear: "${back[0]!.text.split('\n')[0]}"`,
      );
      // One "cannot see" per channel, after the grace and not long after.
      expect(blind.map((m) => `${m.kind}:${m.title}`).sort()).toEqual([
        'ntfy:Tidewatch cannot see',
        'telegram:Tidewatch cannot see',
      ]);
      expect(first.at - killedAt).toBeGreaterThanOrEqual(180_000);
      expect(first.at - killedAt).toBeLessThan(180_000 + 30_000);
      expect(first.text).toMatch(/the service cannot be reached|the margin stream is down/);
      // One "sees again" per channel, with what the catch-up found.
      expect(back.map((m) => m.kind).sort()).toEqual(['ntfy', 'telegram']);
      expect(back[0]!.text).toMatch(
        /Blind for \d+ min \(\d{1,2}:\d\d [AP]M \S+ to \d{1,2}:\d\d [AP]M \S+\)\. While you were away: /,
      );
      expect(blindMessages()).toHaveLength(4);
      expect(beatsWhileBlind).toEqual([]);
      expect(serve.exited()).toBe(false);
    },
  );
});
