import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorHarness } from '../../support/monitor-harness';
import { secretForms } from '../../../src/main/core/client/errors';
import { MemorySecretStore } from '../../../src/main/core/settings';
import { startWebShell, type WebShell } from '../../../src/main/web/server';
import { HostileServer } from '../../support/hostile-server';
import { tempDir, until } from '../../support/monitor';
import { BIN, serveApi } from '../../support/processes';

/**
 * A service that echoes the api-key back in every encoding (raw, URL-encoded in either case,
 * twice, form-encoded, JSON, base64, base64url, as api-key=): the key must reach no error answer,
 * stream status, status push, alert, log line, stored row or export.
 */
const KEY = 'k+y/Z=9 s3cr&t~x';
let hostile: HostileServer;
let m: MonitorHarness;
let web: WebShell;
const dir = tempDir();
const logs: string[] = [];
const pushes: string[] = [];

/** Every form of the key that must not appear anywhere. */
const leaks = (text: string): string[] =>
  [KEY, ...secretForms(KEY), encodeURIComponent(KEY).toLowerCase()].filter((f) => text.includes(f));

beforeAll(async () => {
  hostile = new HostileServer();
  const url = await hostile.listen();
  hostile.modes.set('/manager-updates', 'echo-key');
  hostile.modes.set('/get_pools', 'echo-key-200');
  hostile.modes.set('/dex-margin', 'echo-key');
  m = new MonitorHarness({
    dataDir: dir.dir,
    secrets: new MemorySecretStore(KEY),
    overrides: { network: 'custom', baseUrl: url, streamUrl: url },
    log: (line) => logs.push(line),
    watch: [`0x${'b'.repeat(64)}`],
  }).start();
  for (const topic of ['status', 'alerts', 'margin'] as const)
    m.subscribe(topic, (p) => pushes.push(JSON.stringify(p)));
  web = await startWebShell({ api: m, port: 0, rendererDir: '/nonexistent' });
});

afterAll(async () => {
  await web.close();
  await m.close();
  await hostile.close();
  dir.remove();
});

describe('a service that echoes the key in every encoding', () => {
  it('reaches no answer, error, status, alert, log, stored row or export', async () => {
    const api = serveApi(web.url);
    const pools = await api.invoke('pools');
    expect(pools.status).toBe(200);
    expect(JSON.stringify(pools.body)).toContain('***');
    const loans = await api.invoke('activeLoans', { owner: `0x${'a'.repeat(64)}` });
    expect(loans.status).toBe(502);
    expect(loans.body.error.message).toContain('The service answered 401');

    // The margin stream is refused with the key in its error: stopped, an alert raised.
    await until(
      () => m.status().streams.some((s) => s.state === 'stopped-auth'),
      20_000,
      'the stream stopped on the key',
    );
    await until(() => m.store.risk.alerts().some((a) => a.rule === 'stream-auth'), 10_000, 'the key alert');
    const status = await api.invoke('streamStatus');
    expect(status.body.result.streams[0].lastError).toContain('***');
    const alerts = await api.invoke('alerts');
    await m.refreshRisk(); // fails on the echoing 401, and logs why
    await new Promise((r) => setTimeout(r, 300)); // the status push is coalesced over 100 ms

    const everything = [
      JSON.stringify(pools.body),
      JSON.stringify(loans.body),
      JSON.stringify(status.body),
      JSON.stringify(alerts.body),
      ...pushes,
      ...logs,
    ].join('\n');
    expect(leaks(everything)).toEqual([]);
    expect(pushes.some((p) => p.includes('stopped-auth'))).toBe(true);
    expect(logs.length).toBeGreaterThan(0);

    // What is stored, read back by `export` in another process.
    await m.close();
    for (const what of ['alerts', 'margin-events', 'risk']) {
      const r = spawnSync(process.execPath, [BIN, 'export', what, '--data-dir', dir.dir], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(leaks(r.stdout + r.stderr)).toEqual([]);
      if (what === 'alerts') expect(r.stdout).toContain('API key rejected');
    }
  }, 40_000);
});
