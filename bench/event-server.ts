/**
 * A data service for ingest benchmarks: the margin stream as N deposit events made before the
 * clock starts and written in 64 KB chunks as fast as the socket takes them (a real service's
 * own cost is not the client's), `last-id` honoured, and empty answers for every REST list, so a
 * `serve` pointed at it does nothing but ingest.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export function marginEvent(i: number): { id: string; json: string } {
  const ms = 1_800_000_000_000 + Math.floor(i / 3);
  const id = `${ms}-${i % 3}`;
  const json = JSON.stringify({
    type: 'dex_margin_manager_updates_deposit',
    timestamp_ms: ms,
    checkpoint_id: 100_000_000 + i,
    tx_hash: `tx${i}`,
    data: {
      margin_manager_id: `0x${(i % 500).toString(16).padStart(64, '0')}`,
      base_asset_amount: 0,
      quote_asset_amount: 1_000_000 + i,
      timestamp: ms,
    },
  });
  return { id, json };
}

/** The SSE bytes of events [from, n): `id` and `data` lines, 405 bytes an event. */
export function ssePayload(n: number, from = 0): Buffer {
  const parts: string[] = [];
  for (let i = from; i < n; i++) {
    const e = marginEvent(i);
    parts.push(`id: ${e.id}\ndata: ${e.json}\n\n`);
  }
  return Buffer.from(parts.join(''));
}

export interface EventServer {
  url: string;
  /** When the margin stream's first byte was written (performance.now()), if it was. */
  firstByteAt(): number | undefined;
  close(): Promise<void>;
}

const EMPTY_PAGE = JSON.stringify({ items: [], isLastPage: true, currentPage: 0, perPage: 10 });

export async function startEventServer(n: number): Promise<EventServer> {
  const payload = ssePayload(n);
  // Byte offset of the event after each id, for a resume.
  const after = new Map<string, number>();
  let at = 0;
  for (let i = 0; i < n; i++) {
    const e = marginEvent(i);
    at += Buffer.byteLength(`id: ${e.id}\ndata: ${e.json}\n\n`);
    after.set(e.id, at);
  }
  let first: number | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.endsWith('/manager-updates')) {
      const last = url.searchParams.get('last-id') ?? req.headers['last-event-id']?.toString() ?? '$';
      const from = last === '0' ? 0 : (after.get(last) ?? payload.length);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      first ??= performance.now();
      let pos = from;
      const pump = (): void => {
        while (pos < payload.length) {
          const chunk = payload.subarray(pos, pos + 65_536);
          pos += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
      const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
      res.on('close', () => clearInterval(ping));
      return;
    }
    // The margin lists under either naming (`/dex-margin/`, `/deepbook-margin/`) are empty pages and
    // the pool lists are empty, so serve's asset book loads (empty) instead of failing and retrying
    // every 10 s through the whole run; the pools' risk parameters are not published (404).
    const list = /^\/(dex|deepbook)-margin\/(?!pools$|registered-)/.test(url.pathname);
    const pools = url.pathname.includes('get_pools') || /-margin\/pools$/.test(url.pathname);
    res.writeHead(list || pools ? 200 : 404, { 'content-type': 'application/json' });
    res.end(list ? EMPTY_PAGE : pools ? '[]' : '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstByteAt: () => first,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
