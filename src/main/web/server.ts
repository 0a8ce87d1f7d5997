import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TidewatchApi, Topic } from '../../shared/contract';
import type { AckLinks } from './ack-page';
import { InvokeHandler } from './invoke-handler';
import { WebRouter } from './router';
import { FileHandler } from './static-files';
import { SubscribeHandler } from './subscribe-handler';
import { WebAuth } from './web-auth';

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

/**
 * The headless shell: the built renderer and the contract over loopback HTTP (queries and
 * commands as POST /api/invoke/<method>, subscriptions as SSE at /api/subscribe/<topic>).
 * WebRouter hands each request to its concern: WebAuth (who may ask), InvokeHandler,
 * SubscribeHandler and FileHandler. Slow or half-open connections are cut after a few seconds.
 */
export async function startWebShell(opts: WebShellOptions): Promise<WebShell> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const log = opts.log ?? ((line: string) => console.error(`tidewatch serve: ${line}`));
  let port = 0;
  const subscriptions = new SubscribeHandler(opts.api, opts.initial);
  const router = new WebRouter({
    auth: new WebAuth(token, () => port),
    invoke: new InvokeHandler(opts.api, log),
    subscribe: subscriptions,
    files: new FileHandler(opts.rendererDir),
    ack: opts.ack,
    log,
  });

  // Slow and half-open connections (slowloris) are cut: a page on loopback sends its headers in
  // milliseconds. Long-lived subscriptions are answers, which these limits do not touch.
  const server = createServer({
    connectionsCheckingInterval: 1_000,
    headersTimeout: 5_000,
    requestTimeout: 10_000,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 16 * 1024,
  });
  router.register(server);
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
        subscriptions.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
