import { INTERNAL, WIRE_ERRORS } from '../../../src/shared/wire';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { WebHandler } from '../../../src/main/web/answer';
import { WebRouter } from '../../../src/main/web/router';
import { WebAuth } from '../../../src/main/web/web-auth';
import type { AlertRecord } from '../../../src/shared/contract';
import { fakeReq, fakeRes } from './http-doubles';

const PORT = 4321;
const HOST = `127.0.0.1:${PORT}`;
const TOKEN = 'a-token-of-twenty-four-chars';

/** A handler that says who it is, or throws what the test gives it. */
function handler(name: string, fails?: () => Error): WebHandler & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    handle(_req: IncomingMessage, res: ServerResponse, url: URL) {
      seen.push(`${url.pathname}${url.search}`);
      if (fails) {
        const err = fails();
        if (err.message === 'after headers') res.writeHead(200);
        throw err;
      }
      res.writeHead(200);
      res.end(name);
    },
  };
}

function router(opts: { fails?: () => Error; ack?: boolean } = {}) {
  const auth = new WebAuth(TOKEN, () => PORT);
  const handlers = {
    invoke: handler('invoke', opts.fails),
    subscribe: handler('subscribe', opts.fails),
    files: handler('files', opts.fails),
  };
  const log = vi.fn();
  const alert = { id: 7, title: 'SUI_USDC liquidated', message: 'm', created_at: 0 } as AlertRecord;
  const ack = opts.ack ? { peek: () => alert, spend: () => alert } : undefined;
  const r = new WebRouter({ auth, ...handlers, ack, log });
  const ask = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = fakeRes();
    await r.handle(fakeReq(path, { host: HOST, ...headers }, method), res.as());
    return res;
  };
  const session = async () => String((await ask(`/?token=${TOKEN}`)).headers['set-cookie']).split(';')[0]!;
  return { ask, session, handlers, log };
}

describe('the web shell router', () => {
  it('hands each path to its concern', async () => {
    const { ask, handlers } = router();
    const token = { 'x-tidewatch-token': TOKEN };
    const routes: Array<[string, string]> = [
      ['/api/invoke/pools', 'invoke'],
      ['/api/invoke/nope', 'invoke'],
      ['/api/subscribe/status', 'subscribe'],
      ['/api/subscribe?topics=alerts,risk', 'subscribe'],
      ['/api/subscribe', 'subscribe'],
      ['/', 'files'],
      ['/assets/app.js', 'files'],
      ['/api/invoke', 'files'],
      ['/api/subscribers', 'files'],
    ];
    for (const [path, concern] of routes) {
      const res = await ask(path, token, concern === 'invoke' ? 'POST' : 'GET');
      expect(res.body, path).toBe(concern);
    }
    expect(handlers.invoke.seen).toEqual(['/api/invoke/pools', '/api/invoke/nope']);
  });

  it('refuses before any handler runs: a foreign Host, no credential, a cookie command without Origin', async () => {
    const { ask, session, handlers } = router();
    const cookie = await session();
    const refused: Array<[string, Record<string, string>, string, number]> = [
      ['/', { host: 'evil.example', 'x-tidewatch-token': TOKEN }, 'GET', 403],
      ['/api/invoke/pools', { origin: 'https://evil.example', 'x-tidewatch-token': TOKEN }, 'POST', 403],
      ['/', {}, 'GET', 401],
      ['/api/subscribe/status', {}, 'GET', 401],
      ['/api/invoke/pools', { cookie }, 'POST', 401],
      [`/api/invoke/pools?token=${TOKEN}`, {}, 'POST', 401],
    ];
    for (const [path, headers, method, status] of refused) {
      const res = await ask(path, headers, method);
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(res.json().error?.kind).toBe(status === 403 ? 'forbidden' : 'unauthorized');
    }
    expect([...handlers.invoke.seen, ...handlers.subscribe.seen, ...handlers.files.seen]).toEqual([]);
  });

  it('lets the session cookie read, and command with our own Origin', async () => {
    const { ask, session } = router();
    const cookie = await session();
    expect((await ask('/', { cookie })).body).toBe('files');
    expect((await ask('/api/subscribe/status', { cookie })).body).toBe('subscribe');
    expect((await ask('/api/invoke/pools', { cookie, origin: `http://${HOST}` }, 'POST')).body).toBe('invoke');
  });

  it('answers an acknowledge link before any Host or session check, when the shell has them', async () => {
    const withAck = router({ ack: true });
    const page = await withAck.ask('/ack/abcdefghijklmnop', { host: 'phone.example' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('SUI_USDC liquidated');
    const without = router();
    expect((await without.ask('/ack/abcdefghijklmnop', { host: 'phone.example' })).status).toBe(403);
  });

  it('answers a malformed %-escape with a 400 bad-request', async () => {
    const { ask } = router({ fails: () => new URIError('URI malformed') });
    const res = await ask('/api/subscribe/%E0%A4%A', { 'x-tidewatch-token': TOKEN });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      error: {
        kind: 'bad-request',
        message: 'the address is not valid (a malformed %-escape)',
        advice: WIRE_ERRORS['bad-request'].advice,
      },
    });
  });

  it('logs what it did not expect, and answers only that it happened', async () => {
    const { ask, log } = router({ fails: () => new Error('ENOENT: /home/me/out/renderer/x') });
    const res = await ask('/', { 'x-tidewatch-token': TOKEN });
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      error: INTERNAL,
    });
    expect(res.body).not.toContain('ENOENT');
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^internal error serving a request: Error: ENOENT/));
  });

  it('cuts a connection whose answer had begun when it failed', async () => {
    const { ask } = router({ fails: () => new Error('after headers') });
    const res = await ask('/', { 'x-tidewatch-token': TOKEN });
    expect(res.destroyed).toBe(true);
    expect(res.body).toBe('');
  });
});
