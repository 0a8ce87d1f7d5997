import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isContractMethod, isTopic, type TidewatchApi, type Topic } from '../../shared/contract';
import { CSP } from '../../shared/csp';
import { INTERNAL, toWire, WIRE_ERRORS } from '../../shared/wire';
import { PushWriter } from './push-writer';
import { NOT_BUILT_PAGE, staticFile } from './static-files';
import { ACK_PATH, answerAck, type AckLinks } from './ack-page';

export interface WebShellOptions {
  api: TidewatchApi;
  port: number;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  token?: string;
  /** Initial payload for a topic's new subscriber (e.g. the current status). */
  initial?: (topic: Topic) => unknown;
  /** Where internal errors are logged (one line, redacted by the caller); default: stderr. */
  log?: (line: string) => void;
  /** The acknowledge links of messages sent away from the desk (`/ack/<token>`). */
  ack?: AckLinks;
}

export interface WebShell {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** The browser session's cookie, named with the port (cookies ignore ports; the name does not). */
const cookieName = (port: number): string => `tidewatch_session_${port}`;
const MAX_BODY = 1024 * 1024;
/** Headers every answer carries: no Referer to anywhere, no framing, no sniffing. */
const BASE_HEADERS = {
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * A JSON answer. Given when its request came (`startedAt`), it says in a `Server-Timing` header
 * how long it took here, from the request to its JSON (a browser's developer tools show it):
 * the rest of a call's time, the transport's and the caller's, is then told apart from outside.
 */
function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  startedAt?: number,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(startedAt === undefined ? {} : { 'server-timing': `app;dur=${(performance.now() - startedAt).toFixed(2)}` }),
    ...BASE_HEADERS,
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body over 1 MiB'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
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

/**
 * The headless shell: the built renderer and the contract over loopback HTTP (queries and
 * commands as POST /api/invoke/<method>, subscriptions as SSE at /api/subscribe/<topic>).
 *
 * Who may ask: programs send the token in `x-tidewatch-token`. A browser opens the printed
 * address once: `?token=T` is exchanged for a session cookie (a value of its own, HttpOnly,
 * SameSite=Strict, named with this port) and a 303 to `/`, so the token leaves the address bar
 * and history. The cookie is good for the page, its subscriptions and, with our own Origin, its
 * commands; a request that changes state without an Origin needs the header token. Host and
 * Origin are checked against DNS rebinding and foreign pages; slow or half-open connections are
 * cut after a few seconds.
 */
export async function startWebShell(opts: WebShellOptions): Promise<WebShell> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const sessionBuf = Buffer.from(randomBytes(24).toString('base64url'));
  const streams = new Set<ServerResponse>();
  const log = opts.log ?? ((line: string) => console.error(`tidewatch serve: ${line}`));
  let port = 0;

  // Slow and half-open connections (slowloris) are cut: a page on loopback sends its headers in
  // milliseconds. Long-lived subscriptions are answers, which these limits do not touch.
  const server = createServer(
    {
      connectionsCheckingInterval: 1_000,
      headersTimeout: 5_000,
      requestTimeout: 10_000,
      keepAliveTimeout: 5_000,
      maxHeaderSize: 16 * 1024,
    },
    async (req, res) => {
      const startedAt = performance.now();
      try {
        // An acknowledge link carries its own one-time authority (web/ack-page.ts): any Host, no session.
        const ack = opts.ack ? ACK_PATH.exec(new URL(req.url ?? '/', 'http://x').pathname) : null;
        if (ack && opts.ack) {
          await answerAck(req, res, ack[1]!, opts.ack);
          return;
        }
        const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
        if (!hosts.includes(req.headers.host ?? '')) {
          send(res, 403, {
            error: { kind: 'forbidden', message: 'this server answers only http://127.0.0.1 on its own port' },
          });
          return;
        }
        const origin = req.headers.origin;
        const ownOrigin = origin !== undefined && hosts.map((h) => `http://${h}`).includes(origin);
        if (origin !== undefined && !ownOrigin) {
          send(res, 403, { error: { kind: 'forbidden', message: 'requests from other pages are refused' } });
          return;
        }
        const site = req.headers['sec-fetch-site'];
        if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
          send(res, 403, { error: { kind: 'forbidden', message: 'requests from other sites are refused' } });
          return;
        }
        const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
        const byHeader = same(req.headers['x-tidewatch-token'] as string | undefined, tokenBuf);
        const bySession = same(cookieValue(req, cookieName(port)), sessionBuf);

        // The printed address: trade the token for a session cookie, and take the token out of the URL.
        if (url.searchParams.has('token') && (req.method === 'GET' || req.method === 'HEAD')) {
          if (!same(url.searchParams.get('token'), tokenBuf)) {
            send(res, 401, {
              error: {
                kind: 'unauthorized',
                message: 'this address carries a wrong token: open the one `tidewatch serve` printed',
              },
            });
            return;
          }
          url.searchParams.delete('token');
          res.writeHead(303, {
            location: `${url.pathname}${url.search}`,
            'set-cookie': `${cookieName(port)}=${sessionBuf.toString()}; HttpOnly; SameSite=Strict; Path=/`,
            'cache-control': 'no-store',
            ...BASE_HEADERS,
          });
          res.end();
          return;
        }
        const isCommand = url.pathname.startsWith('/api/invoke/');
        // A command from the page carries our Origin; without one (a program, or a forged form), only the header token will do.
        const authorised = byHeader || (bySession && (!isCommand || ownOrigin));
        if (!authorised) {
          const message = bySession
            ? 'a command without an Origin needs the x-tidewatch-token header'
            : 'open the address printed by `tidewatch serve` (it carries the token)';
          send(res, 401, { error: { kind: 'unauthorized', message } });
          return;
        }

        if (url.pathname.startsWith('/api/invoke/')) {
          if (req.method !== 'POST') {
            send(
              res,
              405,
              { error: { kind: 'method', message: 'use POST with a JSON body of arguments' } },
              { allow: 'POST' },
            );
            return;
          }
          const method = url.pathname.slice('/api/invoke/'.length);
          if (!isContractMethod(method)) {
            send(res, 404, { error: { kind: 'unknown-method', message: `no contract method "${method}"` } });
            return;
          }
          let args: unknown;
          try {
            const text = await readBody(req);
            args = text.length > 0 ? JSON.parse(text) : {};
          } catch (err) {
            send(res, 400, {
              error: {
                kind: 'bad-argument',
                message: `the body must be a JSON object of arguments (${(err as Error).message})`,
              },
            });
            return;
          }
          // The page went away or asked again: stop the work it asked for (range fetches included).
          const cancel = new AbortController();
          res.on('close', () => {
            if (!res.writableEnded) cancel.abort();
          });
          try {
            const result = await opts.api.invoke(method, args as never, { signal: cancel.signal });
            send(res, 200, { result }, {}, startedAt);
          } catch (err) {
            if (res.destroyed) return;
            const told = toWire(err);
            if (told) send(res, WIRE_ERRORS[told.kind].status, { error: told }, {}, startedAt);
            else {
              log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
              send(res, 500, { error: INTERNAL });
            }
          }
          return;
        }

        // Subscriptions: /api/subscribe/<topic>, or /api/subscribe?topics=a,b,c for several on one
        // connection (a browser keeps only six connections per host), each push named by its topic.
        if (url.pathname === '/api/subscribe' || url.pathname.startsWith('/api/subscribe/')) {
          const single = url.pathname.length > '/api/subscribe/'.length;
          const topics = single
            ? [decodeURIComponent(url.pathname.slice('/api/subscribe/'.length))]
            : (url.searchParams.get('topics') ?? '').split(',').filter(Boolean);
          const unknown = topics.filter((t) => !isTopic(t));
          if (topics.length === 0 || unknown.length > 0) {
            send(res, 404, {
              error: {
                kind: 'unknown-topic',
                message: `no topic "${unknown[0] ?? ''}" (status, margin, alerts, risk, pool:<name>)`,
              },
            });
            return;
          }
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            connection: 'keep-alive',
            ...BASE_HEADERS,
          });
          res.write(': subscribed\n\n');
          streams.add(res);
          const writer = new PushWriter(res, single);
          const offs = (topics as Topic[]).map((topic) => {
            const first = opts.initial?.(topic);
            if (first !== undefined) writer.push(topic, first);
            return opts.api.subscribe(topic, (payload) => writer.push(topic, payload));
          });
          const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
          req.on('close', () => {
            clearInterval(ping);
            writer.close();
            for (const off of offs) off();
            streams.delete(res);
          });
          return;
        }

        if (req.method !== 'GET' && req.method !== 'HEAD') {
          send(res, 405, { error: { kind: 'method', message: 'only GET here' } });
          return;
        }
        const file = staticFile(opts.rendererDir, url.pathname === '/' ? '/index.html' : url.pathname);
        const html = file?.type.startsWith('text/html') ?? true;
        res.writeHead(200, {
          'content-type': file?.type ?? 'text/html; charset=utf-8',
          ...BASE_HEADERS,
          ...(html ? { 'content-security-policy': CSP, 'cache-control': 'no-store' } : {}),
        });
        res.end(file?.body ?? NOT_BUILT_PAGE);
      } catch (err) {
        if (res.headersSent) res.destroy();
        // A malformed percent-escape (`/%`, `/%ff%fe`) is the caller's mistake, not ours.
        else if (err instanceof URIError)
          send(res, 400, {
            error: { kind: 'bad-request', message: 'the address is not valid (a malformed %-escape)' },
          });
        else {
          log(`internal error serving a request: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          send(res, 500, { error: { kind: 'internal', message: 'Tidewatch hit an internal error; it was logged.' } });
        }
      }
    },
  );
  server.maxHeadersCount = 64;
  server.maxConnections = 1_024;
  // A request that timed out or could not be parsed: answer if we still can, and close the socket.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (socket.writable && !socket.destroyed) {
      const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
