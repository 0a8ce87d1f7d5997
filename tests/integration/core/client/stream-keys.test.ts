import { afterAll, describe, expect, it } from 'vitest';
import { MonitorHarness } from '../../../support/monitor-harness';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import { runCli } from '../../../support/processes';
import { tempDir, until } from '../../../support/monitor';
import { startTestSim, TEST_KEY } from '../../../support/sim';

const STREAM_KEY = 'stream-key-0123456789';
const DEEP_KEY = 'deep-stream-key-42';
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('stream keys: streams take their own key, REST the api-key', () => {
  // Its waits, each named, add up to 90 s: the test's own budget is not the default 20 s below them.
  it(
    'a stream refused with the api-key opens once a stream key is set; a pool with its own key uses it; nothing else changes',
    { timeout: 120_000 },
    async () => {
      // The Demo network as the real service has it: streams refuse the api-key, DEEP_USDC takes its own key.
      const t = await startTestSim({
        historyDays: 0.2,
        speed: 60,
        streamKeys: [STREAM_KEY],
        poolStreamKeys: { DEEP_USDC: [DEEP_KEY] },
      });
      const dir = tempDir();
      const m = new MonitorHarness({
        dataDir: dir.dir,
        secrets: new MemorySecretStore(TEST_KEY),
        // The margin stream's first start asks for the retained history (`last-id=0`), so it has data
        // the moment it opens: live margin events here come minutes of sim time apart (up to 71 s of
        // wall time at speed 60), and a wait on the next one failed CI.
        marginFirstStart: '0',
        // Builder's three streams: the margin stream and both pool pages at once.
        overrides: { network: 'custom', baseUrl: t.sim.url, streamUrl: t.sim.url, plan: 'builder', streamBudget: 3 },
      }).start();
      cleanups.push(
        () => dir.remove(),
        () => t.close(),
        () => m.close(),
      );
      const state = (id: string) => m.streams.supervisor.statuses().find((s) => s.id === id);
      const offSui = m.subscribe('pool:SUI_USDC', () => {});
      const offDeep = m.subscribe('pool:DEEP_USDC', () => {});
      cleanups.push(offSui, offDeep);

      // Only the api-key: REST works, every stream is refused, and says which key it sent.
      await until(
        () => ['margin', 'pool:SUI_USDC', 'pool:DEEP_USDC'].every((id) => state(id)?.state === 'stopped-auth'),
        15_000,
        'streams refused',
      );
      expect(state('margin')!.lastError).toMatch(/rejected the API key/);
      expect((await m.invoke('pools', {})).data.length).toBeGreaterThan(0);

      // The stream key: margin and SUI_USDC open at once (no 5-minute wait); DEEP_USDC still refuses it.
      const s = await m.invoke('setStreamKey', { pool: null, streamKey: STREAM_KEY });
      expect(s).toMatchObject({ hasStreamKey: true, streamKeyPools: [] });
      await until(
        () => state('margin')?.state === 'open' && state('pool:SUI_USDC')?.state === 'open',
        15_000,
        'streams open with the stream key',
      );
      await until(
        () =>
          state('pool:DEEP_USDC')?.state === 'stopped-auth' &&
          /the stream key/.test(state('pool:DEEP_USDC')!.lastError ?? ''),
        15_000,
        'DEEP_USDC refused',
      );
      const alerts = (await m.invoke('alerts', {})).data;
      expect(alerts.map((a) => a.title)).toContain('Stream key rejected');

      // DEEP_USDC's own key.
      expect((await m.invoke('setStreamKey', { pool: 'DEEP_USDC', streamKey: DEEP_KEY })).streamKeyPools).toEqual([
        'DEEP_USDC',
      ]);
      await until(() => state('pool:DEEP_USDC')?.state === 'open', 15_000, 'DEEP_USDC open with its own key');
      await until(
        () => m.store.market.count('DEEP_USDC') > 0 && m.store.margin.count() > 0,
        30_000,
        'data from both streams',
      );
      // REST still goes with the api-key (a stream key there is refused by the service).
      expect((await m.invoke('depth', { pool: 'SUI_USDC' })).data.bids.length).toBeGreaterThan(0);
      // No key in anything the contract answers or logs.
      const settings = JSON.stringify(await m.invoke('settings', {}));
      const status = JSON.stringify(m.status());
      for (const k of [STREAM_KEY, DEEP_KEY]) {
        expect(settings).not.toContain(k);
        expect(status).not.toContain(k);
        expect(m.redact(`url?api-key=x&k=${k}`)).not.toContain(k);
      }
    },
  );

  it('doctor checks each key against what it is used for', async () => {
    const t = await startTestSim({
      historyDays: 0.1,
      streamKeys: [STREAM_KEY],
      poolStreamKeys: { DEEP_USDC: [DEEP_KEY] },
    });
    const data = tempDir();
    cleanups.push(
      () => t.close(),
      () => data.remove(),
    );
    const env = {
      TIDEWATCH_API_KEY: TEST_KEY,
      TIDEWATCH_STREAM_KEY: STREAM_KEY,
      TIDEWATCH_POOL_STREAM_KEYS: `DEEP_USDC=${DEEP_KEY}`,
    };
    const ok = await runCli(['doctor', '--base-url', t.sim.url, '--data-dir', data.dir], { env });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/the margin stream .*the stream key accepted/);
    expect(ok.stdout).toMatch(/the pool stream \(DEEP_USDC\).*DEEP_USDC's stream key accepted/);
    // A wrong pool key: that one check fails, and says which key.
    const bad = await runCli(['doctor', '--base-url', t.sim.url, '--data-dir', data.dir], {
      env: { ...env, TIDEWATCH_POOL_STREAM_KEYS: 'DEEP_USDC=wrong-key' },
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/the pool stream \(DEEP_USDC\).*DEEP_USDC's stream key was rejected/);
    for (const r of [ok, bad])
      expect(r.stdout + r.stderr).not.toMatch(new RegExp(`${STREAM_KEY}|${DEEP_KEY}|wrong-key`));
    // Without stream keys the streams are refused and the api-key named.
    const none = await runCli(['doctor', '--base-url', t.sim.url, '--data-dir', data.dir], {
      env: { TIDEWATCH_API_KEY: TEST_KEY },
    });
    expect(none.stdout).toMatch(/the margin stream .*the API key was rejected/);
  }, 60_000);
});
