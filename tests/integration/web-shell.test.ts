import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Monitor } from '../../src/main/core/monitor';
import { startWebShell, type WebShell } from '../../src/main/web/server';
import { monitorOn, tempDir } from '../support/monitor';
import { startTestSim, type TestSim } from '../support/sim';
import { openSse } from '../support/sse';

let t: TestSim;
let m: Monitor;
let web: WebShell;
const dir = tempDir();

beforeAll(async () => {
  t = await startTestSim({ speed: 600, historyDays: 0.3 });
  m = monitorOn(t, dir.dir).start();
  web = await startWebShell({ api: m, port: 0, rendererDir: '/nonexistent', initial: (topic) => (topic === 'status' ? m.status() : undefined) });
});
afterAll(async () => {
  await web.close();
  await m.close();
  await t.close();
  dir.remove();
});

/** A raw request, so Host and Origin can be set to anything. */
function raw(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const host = (): string => `127.0.0.1:${web.port}`;

describe('the headless shell', () => {
  it('prints a loopback URL with a random token', () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
  });

  it('serves the page with the token and sets a cookie; refuses it without', async () => {
    const ok = await raw(`/?token=${web.token}`, { host: host() });
    expect(ok.status).toBe(200);
    expect(String(ok.headers['set-cookie'])).toContain('HttpOnly');
    expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await raw('/', { host: host() })).status).toBe(401);
    expect((await raw('/?token=wrong', { host: host() })).status).toBe(401);
    const viaCookie = await raw('/', { host: host(), cookie: `tidewatch_token=${web.token}` });
    expect(viaCookie.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin', async () => {
    expect((await raw(`/?token=${web.token}`, { host: 'evil.example:80' })).status).toBe(403);
    const foreign = await raw(`/api/invoke/pools`, { host: host(), origin: 'https://evil.example', 'x-tidewatch-token': web.token }, 'POST', '{}');
    expect(foreign.status).toBe(403);
    const own = await raw(`/api/invoke/pools`, { host: host(), origin: `http://${host()}`, 'x-tidewatch-token': web.token }, 'POST', '{}');
    expect(own.status).toBe(200);
  });

  it('invokes contract methods, with clear errors for bad arguments and unknown methods', async () => {
    const post = (method: string, body: string) =>
      raw(`/api/invoke/${method}`, { host: host(), 'x-tidewatch-token': web.token, 'content-type': 'application/json' }, 'POST', body);
    const pools = await post('pools', '{}');
    expect(JSON.parse(pools.body).result.data.length).toBeGreaterThanOrEqual(4);
    const bad = await post('walletNfts', '{"owner":"nope"}');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toContain('owner');
    expect((await post('walletNfts', '{not json')).status).toBe(400);
    expect((await post('dropTables', '{}')).status).toBe(404);
    const settings = JSON.parse((await post('settings', '{}')).body).result;
    expect(JSON.stringify(settings)).not.toContain('test-key');
  });

  it('pushes subscriptions over SSE', async () => {
    const status = await openSse(`http://${host()}/api/subscribe/status?token=${web.token}`);
    await status.until((r) => r.messages.length > 0);
    expect(JSON.parse(status.messages[0]!.data).network).toBe('demo');
    status.close();
    const pool = await openSse(`http://${host()}/api/subscribe/pool:SUI_USDC?token=${web.token}`);
    await pool.until((r) => r.messages.some((x) => JSON.parse(x.data).depth !== null), 15_000);
    pool.close();
    const bad = await raw(`/api/subscribe/nope?token=${web.token}`, { host: host() });
    expect(bad.status).toBe(404);
  });
});
