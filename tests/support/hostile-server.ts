import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

/** How the hostile service answers a REST path or the margin stream. */
export type HostileMode =
  | 'ok'
  | 'never'
  | 'retry-after-hour'
  | 'retry-after-date'
  | 'huge-error'
  | 'gzip-bomb'
  | 'big-json'
  | 'dense-trades'
  | 'endless-line'
  /** Echo the api-key of the request in many encodings: in a 401 error message. */
  | 'echo-key'
  /** Echo it inside a valid answer (a pool's name). */
  | 'echo-key-200'
  /** A valid answer sent one byte every `trickleMs` after its headers: it takes minutes to arrive. */
  | 'trickle';

/** The key in every encoding a careless service or proxy might echo it. */
export function echoes(key: string): string {
  const uri = encodeURIComponent(key);
  return [
    key,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    encodeURIComponent(uri),
    new URLSearchParams({ k: key }).toString().slice(2),
    JSON.stringify(key).slice(1, -1),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    `api-key=${uri}`,
  ].join(' | ');
}

export const POOL = {
  pool_id: `0x${'1'.repeat(64)}`,
  pool_name: 'SUI_USDC',
  base_asset_id: '0x2::sui::SUI',
  base_asset_decimals: 9,
  base_asset_symbol: 'SUI',
  base_asset_name: 'Sui',
  quote_asset_id: '0xa::usdc::USDC',
  quote_asset_decimals: 6,
  quote_asset_symbol: 'USDC',
  quote_asset_name: 'USDC',
  min_size: 1,
  lot_size: 1,
  tick_size: 1,
};

export function trade(i: number, ms: number): Record<string, unknown> {
  return {
    event_digest: `e${i}`,
    digest: `d${i}`,
    sender: '0x1',
    checkpoint: i,
    checkpoint_timestamp_ms: ms,
    package: '0x2',
    pool_id: POOL.pool_id,
    maker_order_id: '1',
    taker_order_id: '2',
    maker_client_order_id: '0',
    taker_client_order_id: '0',
    price: 3_380_500,
    taker_fee: 0,
    taker_fee_is_token: false,
    maker_fee: 0,
    maker_fee_is_token: false,
    taker_is_bid: true,
    base_quantity: 1,
    quote_quantity: 1,
    maker_balance_manager_id: '0x3',
    taker_balance_manager_id: '0x4',
    onchain_timestamp: ms,
  };
}

/**
 * A data service that answers as badly as a real one can: never, with hour-long Retry-After,
 * megabytes of error text, gzip bombs, oversized JSON, a second denser than one answer, and an
 * SSE line that never ends. `modes` picks the behaviour per path (first matching substring).
 */
export class HostileServer {
  readonly server: Server;
  readonly modes = new Map<string, HostileMode>();
  readonly requests = new Map<string, number>();
  private readonly hanging = new Set<ServerResponse>();
  /** The second every dense trade shares. */
  denseSecond = Math.floor(Date.now() / 1000) - 600;
  /** How often a trickling answer sends its next byte. */
  trickleMs = 2_000;

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests held open without an answer right now. */
  hangingCount(): number {
    return this.hanging.size;
  }

  count(path: string): number {
    return this.requests.get(path) ?? 0;
  }

  private modeOf(path: string): HostileMode {
    for (const [part, mode] of this.modes) if (path.includes(part)) return mode;
    return 'ok';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    this.requests.set(url.pathname, (this.requests.get(url.pathname) ?? 0) + 1);
    const mode = this.modeOf(url.pathname);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const key = url.searchParams.get('api-key') ?? '';
    switch (mode) {
      case 'echo-key':
        return json(401, { error: { message: `key not valid: ${echoes(key)}` } });
      case 'echo-key-200':
        return json(200, [{ ...POOL, base_asset_name: `Sui ${echoes(key)}` }]);
      case 'trickle': {
        // An empty page behind a kilobyte of white space: valid JSON, once it has all arrived.
        const body = Buffer.from(`${' '.repeat(1024)}{"items":[],"isLastPage":true,"currentPage":0,"perPage":10}`);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        let sent = 0;
        const timer = setInterval(() => {
          res.write(body.subarray(sent, ++sent));
          if (sent < body.length) return;
          clearInterval(timer);
          res.end();
        }, this.trickleMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'never':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      case 'retry-after-hour':
        return json(429, { error: { message: 'slow down' } }, { 'retry-after': '3600' });
      case 'retry-after-date':
        return json(
          429,
          { error: { message: 'slow down' } },
          { 'retry-after': new Date(Date.now() + 86_400_000).toUTCString() },
        );
      case 'huge-error':
        return json(500, { error: { message: `broken ${'e'.repeat(5 * 1024 * 1024)}` } });
      case 'gzip-bomb': {
        // 2 GB of zeros, about 2 MB on the wire.
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        const gz = createGzip({ level: 9 });
        gz.pipe(res);
        const zeros = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 2048 && !res.destroyed; i++) {
          if (!gz.write(zeros)) await new Promise((r) => gz.once('drain', r));
        }
        gz.end();
        return;
      }
      case 'big-json': {
        // A valid answer of 10 MB.
        const pools = Array.from({ length: 30_000 }, (_, i) => ({
          ...POOL,
          pool_name: `P${i}`,
          base_asset_name: 'x'.repeat(100),
        }));
        return json(200, pools);
      }
      case 'dense-trades': {
        const from = Number(url.searchParams.get('from'));
        const to = Number(url.searchParams.get('to'));
        const inside = this.denseSecond >= from && this.denseSecond <= to;
        // 100 trades (one full answer) in the dense second, however narrow the window.
        return json(200, inside ? Array.from({ length: 100 }, (_, i) => trade(i, this.denseSecond * 1000 + i)) : []);
      }
      case 'endless-line': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 1-0\ndata: {"type":"dex_margin_manager_updates_deposit","data":"');
        // 300 MB without a newline, then the end of that event and one normal event.
        const mb = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 300 && !res.destroyed; i++) {
          if (!res.write(mb)) await new Promise((r) => res.once('drain', r));
        }
        res.write('"}\n\n');
        res.write(
          `id: 2-0\ndata: ${JSON.stringify({ type: 'dex_margin_manager_updates_deposit', timestamp_ms: Date.now(), checkpoint_id: 2, tx_hash: 't2', data: { margin_manager_id: '0xm', base_asset_amount: 1, quote_asset_amount: 0, timestamp: Date.now() } })}\n\n`,
        );
        return; // stays open
      }
      case 'ok':
      default:
        if (url.pathname.endsWith('/manager-updates')) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': hello\n\n');
          return;
        }
        if (url.pathname.endsWith('/get_pools')) return json(200, [POOL]);
        return json(404, { error: { message: 'not here' } });
    }
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
