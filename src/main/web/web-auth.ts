import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WireError } from '../../shared/wire';
import { BASE_HEADERS, sendError } from './answer';

/** What a route lets a request do: read (the page, its files, its subscriptions), or command (a contract call). */
export type Access = 'read' | 'command';

/** A request that came by our own address and from no other page or site, and what it shows. */
export interface Visitor {
  url: URL;
  /** It carries our own Origin (the page's fetch does; a program or a forged form does not). */
  ownOrigin: boolean;
  /** It shows the token in the `x-tidewatch-token` header. */
  byHeader: boolean;
  /** It carries this run's session cookie. */
  bySession: boolean;
}

/**
 * Who may ask the web shell. Programs send the token in `x-tidewatch-token`. A browser opens the
 * printed address once: `?token=T` is exchanged for a session cookie (a value of its own,
 * HttpOnly, SameSite=Strict, named with the port) and a 303 to the same address without the
 * token, so the token leaves the address bar and history. The cookie is good for the page, its
 * subscriptions and, with our own Origin, its commands; a command without an Origin needs the
 * header token. Host and Origin are checked against DNS rebinding and foreign pages. Tokens are
 * compared in constant time.
 */
export class WebAuth {
  private readonly tokenBuf: Buffer;
  private readonly sessionBuf = Buffer.from(randomBytes(24).toString('base64url'));

  constructor(
    readonly token: string,
    /** The port the shell listens on, once it does. */
    private readonly port: () => number,
  ) {
    this.tokenBuf = Buffer.from(token);
  }

  /** The session cookie's name, with the port in it (cookies ignore ports; the name does not). */
  get cookieName(): string {
    return `tidewatch_session_${this.port()}`;
  }

  /**
   * Screen a request: a foreign Host, Origin or site is refused (403), and the printed address
   * trades its token for the session cookie (a 303; a 401 for a wrong token). Those are answered
   * here, and undefined returned; any other request comes back with what it shows.
   */
  admit(req: IncomingMessage, res: ServerResponse): Visitor | undefined {
    const hosts = [`127.0.0.1:${this.port()}`, `localhost:${this.port()}`];
    if (!hosts.includes(req.headers.host ?? '')) {
      sendError(res, { kind: 'forbidden', message: 'this server answers only http://127.0.0.1 on its own port' });
      return undefined;
    }
    const origin = req.headers.origin;
    const ownOrigin = origin !== undefined && hosts.map((h) => `http://${h}`).includes(origin);
    if (origin !== undefined && !ownOrigin) {
      sendError(res, { kind: 'forbidden', message: 'requests from other pages are refused' });
      return undefined;
    }
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
      sendError(res, { kind: 'forbidden', message: 'requests from other sites are refused' });
      return undefined;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.searchParams.has('token') && (req.method === 'GET' || req.method === 'HEAD')) {
      this.exchange(res, url);
      return undefined;
    }
    return {
      url,
      ownOrigin,
      byHeader: same(req.headers['x-tidewatch-token'] as string | undefined, this.tokenBuf),
      bySession: same(cookieValue(req, this.cookieName), this.sessionBuf),
    };
  }

  /** Why an admitted request may not do what its route does; undefined when it may. */
  refusal(who: Visitor, access: Access): WireError | undefined {
    // A command from the page carries our Origin; without one (a program, or a forged form), only
    // the header token will do.
    if (who.byHeader || (who.bySession && (access === 'read' || who.ownOrigin))) return undefined;
    const message = who.bySession
      ? 'a command without an Origin needs the x-tidewatch-token header'
      : 'open the address printed by `tidewatch serve` (it carries the token)';
    return { kind: 'unauthorized', message };
  }

  /** The printed address: trade the token for a session cookie, and take the token out of the URL. */
  private exchange(res: ServerResponse, url: URL): void {
    if (!same(url.searchParams.get('token'), this.tokenBuf)) {
      sendError(res, {
        kind: 'unauthorized',
        message: 'this address carries a wrong token: open the one `tidewatch serve` printed',
      });
      return;
    }
    url.searchParams.delete('token');
    res.writeHead(303, {
      location: `${url.pathname}${url.search}`,
      'set-cookie': `${this.cookieName}=${this.sessionBuf.toString()}; HttpOnly; SameSite=Strict; Path=/`,
      'cache-control': 'no-store',
      ...BASE_HEADERS,
    });
    res.end();
  }
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return rest.join('=');
  }
  return undefined;
}

/** Equal in constant time. */
function same(a: string | undefined | null, b: Buffer): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  return x.length === b.length && timingSafeEqual(x, b);
}
