import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Monitor } from '../../../src/main/core/monitor';
import { startWebShell, type WebShell } from '../../../src/main/web/server';
import { monitorOn, tempDir, until } from '../../support/monitor';
import { startTestSim, type TestSim } from '../../support/sim';
import { openSse } from '../../support/sse';

let t: TestSim;
let m: Monitor;
let web: WebShell;
const dir = tempDir();

beforeAll(async () => {
  t = await startTestSim({ speed: 600, historyDays: 0.3 });
  m = monitorOn(t, dir.dir).start();
  web = await startWebShell({
    api: m,
    port: 0,
    rendererDir: '/nonexistent',
    initial: (topic) => (topic === 'status' ? m.status() : undefined),
  });
});
afterAll(async () => {
  await web.close();
  await m.close();
  await t.close();
  dir.remove();
});

/** A raw request, so Host and Origin can be set to anything. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
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

  it('trades the printed token for a session cookie and a 303 to /, so the token leaves the address bar', async () => {
    const entry = await raw(`/?token=${web.token}`, { host: host() });
    expect(entry.status).toBe(303);
    expect(entry.headers['location']).toBe('/');
    expect(entry.headers['referrer-policy']).toBe('no-referrer');
    const cookie = String(entry.headers['set-cookie']);
    // Its own value (not the token), named with this port, HttpOnly and SameSite=Strict.
    expect(cookie).toMatch(
      new RegExp(`^tidewatch_session_${web.port}=[A-Za-z0-9_-]{20,}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    expect(cookie).not.toContain(web.token);
    const session = cookie.split(';')[0]!;
    const page = await raw('/', { host: host(), cookie: session });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await raw('/', { host: host() })).status).toBe(401);
    expect((await raw('/?token=wrong', { host: host() })).status).toBe(401);
    // The bearer token as a cookie value is worth nothing, and so is the session under another port's name.
    expect((await raw('/', { host: host(), cookie: `tidewatch_session_${web.port}=${web.token}` })).status).toBe(401);
    expect(
      (await raw('/', { host: host(), cookie: session.replace(String(web.port), String(web.port + 1)) })).status,
    ).toBe(401);
  });

  it('a command with the session cookie needs our Origin; without one it needs the header token', async () => {
    const session = String((await raw(`/?token=${web.token}`, { host: host() })).headers['set-cookie']).split(';')[0]!;
    const own = `http://${host()}`;
    expect(
      (
        await raw(
          '/api/invoke/pools',
          { host: host(), cookie: session, origin: own, 'content-type': 'application/json' },
          'POST',
          '{}',
        )
      ).status,
    ).toBe(200);
    const noOrigin = await raw(
      '/api/invoke/updateSettings',
      { host: host(), cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
      'POST',
      'privacyMode=true',
    );
    expect(noOrigin.status).toBe(401);
    expect(JSON.parse(noOrigin.body).error.message).toContain('x-tidewatch-token');
    const crossSite = await raw(
      '/api/invoke/pools',
      { host: host(), cookie: session, 'sec-fetch-site': 'same-site' },
      'POST',
      '{}',
    );
    expect(crossSite.status).toBe(403);
    // The query token opens the page; it is no key to the API.
    expect((await raw(`/api/invoke/pools?token=${web.token}`, { host: host() }, 'POST', '{}')).status).toBe(401);
    // Subscriptions are reads: the cookie alone does.
    const sub = await openSse(`http://${host()}/api/subscribe/status`, { cookie: session });
    await sub.until((r) => r.messages.length > 0);
    sub.close();
  });

  it('answers a malformed %-escape with a 400, never a 500', async () => {
    for (const path of ['/%', '/%ff%fe', '/api/subscribe/%E0%A4%A', '/api/invoke/%']) {
      const r = await raw(
        path,
        { host: host(), 'x-tidewatch-token': web.token },
        path.startsWith('/api/invoke') ? 'POST' : 'GET',
        path.startsWith('/api/invoke') ? '{}' : undefined,
      );
      expect([400, 404], `${path}: ${r.body}`).toContain(r.status);
    }
  });

  it('refuses a foreign Host (DNS rebinding) or Origin', async () => {
    expect((await raw(`/?token=${web.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect(
      (await raw(`/`, { host: `localhost.evil.example:${web.port}`, 'x-tidewatch-token': web.token })).status,
    ).toBe(403);
    const foreign = await raw(
      `/api/invoke/pools`,
      { host: host(), origin: 'https://evil.example', 'x-tidewatch-token': web.token },
      'POST',
      '{}',
    );
    expect(foreign.status).toBe(403);
    const own = await raw(
      `/api/invoke/pools`,
      { host: host(), origin: `http://${host()}`, 'x-tidewatch-token': web.token },
      'POST',
      '{}',
    );
    expect(own.status).toBe(200);
  });

  it('invokes contract methods, with clear errors for bad arguments and unknown methods', async () => {
    const post = (method: string, body: string) =>
      raw(
        `/api/invoke/${method}`,
        { host: host(), 'x-tidewatch-token': web.token, 'content-type': 'application/json' },
        'POST',
        body,
      );
    const asked = performance.now();
    const pools = await post('pools', '{}');
    const took = performance.now() - asked;
    expect(JSON.parse(pools.body).result.data.length).toBeGreaterThanOrEqual(4);
    // Its time in the shell, as developer tools read it: part of the call's whole time.
    const timing = /^app;dur=(\d+\.\d{2})$/.exec(String(pools.headers['server-timing']));
    expect(timing).not.toBeNull();
    expect(Number(timing![1])).toBeLessThanOrEqual(took);
    const bad = await post('walletNfts', '{"owner":"nope"}');
    expect(bad.status).toBe(400);
    expect(String(bad.headers['server-timing'])).toMatch(/^app;dur=\d+\.\d{2}$/);
    expect(JSON.parse(bad.body).error.message).toContain('owner');
    expect((await post('walletNfts', '{not json')).status).toBe(400);
    expect((await post('dropTables', '{}')).status).toBe(404);
    const settings = JSON.parse((await post('settings', '{}')).body).result;
    expect(JSON.stringify(settings)).not.toContain('test-key');
  });

  it('pushes subscriptions over SSE', async () => {
    const status = await openSse(`http://${host()}/api/subscribe/status`, { 'x-tidewatch-token': web.token });
    await status.until((r) => r.messages.length > 0);
    expect(JSON.parse(status.messages[0]!.data).network).toBe('demo');
    status.close();
    const pool = await openSse(`http://${host()}/api/subscribe/pool:SUI_USDC`, { 'x-tidewatch-token': web.token });
    await pool.until((r) => r.messages.some((x) => JSON.parse(x.data).depth !== null), 15_000);
    pool.close();
    const bad = await raw(`/api/subscribe/nope`, { host: host(), 'x-tidewatch-token': web.token });
    expect(bad.status).toBe(404);
  }, 40_000);

  it('reaps 1,000 half-open connections (slowloris) while the UI still answers', { timeout: 60_000 }, async () => {
    const sockets: Socket[] = [];
    const closedAt: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 1_000; i++) {
      const sock = connect(web.port, '127.0.0.1');
      sock.on('error', () => {});
      sock.resume(); // read the 408 the server sends before it closes
      sock.on('close', () => closedAt.push(Date.now() - start));
      // Half the headers of a page request, or a command whose body never finishes.
      sock.write(
        i % 2 === 0
          ? `GET / HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: `
          : `POST /api/invoke/pools HTTP/1.1\r\nHost: ${host()}\r\nx-tidewatch-token: ${web.token}\r\nContent-Length: 1000\r\n\r\n{`,
      );
      sockets.push(sock);
    }
    // The UI answers meanwhile.
    const during = Date.now();
    const ok = await raw('/api/invoke/settings', { host: host(), 'x-tidewatch-token': web.token }, 'POST', '{}');
    expect(ok.status).toBe(200);
    const answerMs = Date.now() - during;
    await until(() => closedAt.length === 1_000, 30_000, 'every half-open connection closed');
    const last = Math.max(...closedAt);
    console.log(`slowloris: 1,000 half-open connections; UI answered in ${answerMs} ms; all reaped after ${last} ms`);
    expect(answerMs).toBeLessThan(2_000);
    // headersTimeout 5 s / requestTimeout 10 s, checked every second.
    expect(last).toBeLessThan(15_000);
    for (const sock of sockets) sock.destroy();
  });
});
