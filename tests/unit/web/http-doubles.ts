import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebHandler } from '../../../src/main/web/answer';

/** A request as the router and WebAuth read it: its address, method and (lower-case) headers. */
export function fakeReq(url: string, headers: Record<string, string> = {}, method = 'GET'): IncomingMessage {
  return { url, method, headers } as unknown as IncomingMessage;
}

/** A response that keeps its status, headers and body. */
export function fakeRes() {
  const r = {
    status: 0,
    headers: {} as Record<string, unknown>,
    body: '',
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    writeHead(status: number, headers: Record<string, unknown> = {}) {
      r.status = status;
      r.headers = { ...headers };
      r.headersSent = true;
      return r;
    },
    write(chunk: string) {
      r.body += chunk;
      return true;
    },
    end(chunk?: string | Buffer) {
      if (chunk !== undefined) r.body += String(chunk);
      r.writableEnded = true;
      return r;
    },
    destroy() {
      r.destroyed = true;
      return r;
    },
    json: () => JSON.parse(r.body) as { error?: { kind: string; message: string; advice?: string }; result?: unknown },
    as: () => r as unknown as ServerResponse,
  };
  return r;
}

/** One handler on a loopback port, handed every request as the router would after admitting it. */
export async function serveHandler(handler: WebHandler): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void handler.handle(req, res, new URL(req.url ?? '/', `http://${req.headers.host}`), performance.now());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A raw request (no normalising of the path, any method and body). */
export function raw(
  base: string,
  path: string,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
