import { WIRE_ERRORS } from '../../../src/shared/wire';
import { describe, expect, it } from 'vitest';
import { WebAuth, type Visitor } from '../../../src/main/web/web-auth';
import { fakeReq, fakeRes } from './http-doubles';

const PORT = 4321;
const HOST = `127.0.0.1:${PORT}`;
const OWN = `http://${HOST}`;
const TOKEN = 'a-token-of-twenty-four-chars';

function admit(auth: WebAuth, url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = fakeRes();
  const who = auth.admit(fakeReq(url, { host: HOST, ...headers }, method), res.as());
  return { who, res };
}

/** The session cookie a browser gets for the printed address. */
function session(auth: WebAuth): string {
  const { res } = admit(auth, `/?token=${TOKEN}`);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

describe('who may ask the web shell', () => {
  const auth = new WebAuth(TOKEN, () => PORT);

  it('refuses a foreign Host (DNS rebinding), a foreign Origin and another site, as forbidden', () => {
    for (const [headers, says] of [
      [{ host: 'evil.example' }, 'only http://127.0.0.1 on its own port'],
      [{ host: `localhost.evil.example:${PORT}` }, 'only http://127.0.0.1 on its own port'],
      [{ host: `127.0.0.1:${PORT + 1}` }, 'only http://127.0.0.1 on its own port'],
      [{ origin: 'https://evil.example' }, 'requests from other pages are refused'],
      [{ 'sec-fetch-site': 'cross-site' }, 'requests from other sites are refused'],
      [{ 'sec-fetch-site': 'same-site' }, 'requests from other sites are refused'],
    ] as const) {
      const { who, res } = admit(auth, '/', { 'x-tidewatch-token': TOKEN, ...headers });
      expect(who).toBeUndefined();
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({
        error: { kind: 'forbidden', message: expect.stringContaining(says), advice: WIRE_ERRORS.forbidden.advice },
      });
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('admits our own address by either name, our Origin, and a same-origin or typed-in request', () => {
    expect(admit(auth, '/', { host: `localhost:${PORT}`, origin: `http://localhost:${PORT}` }).who).toMatchObject({
      ownOrigin: true,
    });
    expect(admit(auth, '/', { 'sec-fetch-site': 'same-origin' }).who).toMatchObject({ ownOrigin: false });
    expect(admit(auth, '/', { 'sec-fetch-site': 'none' }).who).toBeDefined();
  });

  it('trades the printed token for a session cookie and a 303 to the address without it', () => {
    const { who, res } = admit(auth, `/markets?token=${TOKEN}&pool=SUI_USDC`);
    expect(who).toBeUndefined();
    expect(res.status).toBe(303);
    expect(res.headers['location']).toBe('/markets?pool=SUI_USDC');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      new RegExp(`^tidewatch_session_${PORT}=[A-Za-z0-9_-]{20,}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    expect(cookie).not.toContain(TOKEN);
    expect(auth.cookieName).toBe(`tidewatch_session_${PORT}`);
  });

  it('refuses a wrong token in the address, and takes no token from the address of a POST', () => {
    const wrong = admit(auth, '/?token=wrong');
    expect(wrong.who).toBeUndefined();
    expect(wrong.res.status).toBe(401);
    expect(wrong.res.json().error).toEqual({
      kind: 'unauthorized',
      message: 'this address carries a wrong token: open the one `tidewatch serve` printed',
      advice: WIRE_ERRORS.unauthorized.advice,
    });
    const post = admit(auth, `/api/invoke/pools?token=${TOKEN}`, {}, 'POST');
    expect(post.res.status).toBe(0);
    expect(auth.refusal(post.who!, 'command')).toMatchObject({ kind: 'unauthorized' });
  });

  it('lets the header token do anything, and the session cookie read, or command with our Origin', () => {
    const cookie = session(auth);
    const visitor = (headers: Record<string, string>): Visitor => admit(auth, '/api/invoke/pools', headers).who!;
    const byHeader = visitor({ 'x-tidewatch-token': TOKEN });
    expect([auth.refusal(byHeader, 'read'), auth.refusal(byHeader, 'command')]).toEqual([undefined, undefined]);
    const bySession = visitor({ cookie: `other=1; ${cookie}` });
    expect(bySession).toMatchObject({ bySession: true, byHeader: false, ownOrigin: false });
    expect(auth.refusal(bySession, 'read')).toBeUndefined();
    expect(auth.refusal(bySession, 'command')).toEqual({
      kind: 'unauthorized',
      message: 'a command without an Origin needs the x-tidewatch-token header',
    });
    expect(auth.refusal(visitor({ cookie, origin: OWN }), 'command')).toBeUndefined();
  });

  it('refuses a request that shows nothing, the token as a cookie, or the session under another name', () => {
    const cookie = session(auth);
    const shows: Array<Record<string, string>> = [
      {},
      { cookie: `tidewatch_session_${PORT}=${TOKEN}` },
      { cookie: cookie.replace(String(PORT), String(PORT + 1)) },
      { 'x-tidewatch-token': `${TOKEN}x` },
      { 'x-tidewatch-token': cookie.split('=')[1]! },
    ];
    for (const headers of shows) {
      const who = admit(auth, '/', headers).who!;
      expect(auth.refusal(who, 'read'), JSON.stringify(headers)).toEqual({
        kind: 'unauthorized',
        message: 'open the address printed by `tidewatch serve` (it carries the token)',
      });
    }
  });

  it("does not take another run's session", () => {
    const cookie = session(new WebAuth(TOKEN, () => PORT));
    expect(admit(auth, '/', { cookie }).who).toMatchObject({ bySession: false });
  });
});
