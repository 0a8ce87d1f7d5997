import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../../src/sim/rng';

/**
 * A deliberately unreliable margin stream: it refuses some connections (503 with Retry-After,
 * 429), cuts others in the middle of a message, repeats events, names some events with
 * `event:`, sends one that is not JSON, and honours `last-id`. It records every id it sent in
 * full, so a test can compare what the client stored with what was sent.
 */
export class FaultyStreamServer {
  readonly server: Server;
  readonly log: Array<{ id: string; ms: number; seq: number; data: string }> = [];
  /** Ids of messages sent completely (blank line included), on any connection. */
  readonly sentIds = new Set<string>();
  connections = 0;
  refused = 0;
  cut = 0;
  private readonly open = new Set<ServerResponse>();
  private readonly rng: Rng;
  private producer: NodeJS.Timeout | undefined;
  private lastMs = 0;
  private seq = 0;

  constructor(seed = 1) {
    this.rng = new Rng(seed);
    this.server = createServer((req, res) => this.handle(req.url ?? '/', res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Produce `perTick` events every 20 ms until stopProducing. */
  produce(perTick = 3): void {
    this.producer = setInterval(() => {
      for (let i = 0; i < perTick; i++) this.append();
    }, 20);
  }

  stopProducing(): void {
    if (this.producer) clearInterval(this.producer);
  }

  private append(): void {
    const ms = Math.max(Date.now(), this.lastMs);
    this.seq = ms === this.lastMs ? this.seq + 1 : 0;
    this.lastMs = ms;
    const n = this.log.length;
    const id = `${ms}-${this.seq}`;
    const data =
      n % 50 === 7
        ? '{"type": "dex_margin_manager_updates_deposit", "data": {not json'
        : JSON.stringify({
            type: n % 5 === 0 ? 'dex_margin_manager_updates_withdraw' : 'dex_margin_manager_updates_deposit',
            timestamp_ms: ms,
            checkpoint_id: 200_000_000 + n,
            tx_hash: `tx${n}`,
            data: {
              margin_manager_id: `0x${(n % 17).toString(16).padStart(64, '0')}`,
              base_asset_amount: n,
              quote_asset_amount: 0,
              timestamp: ms,
            },
          });
    const entry = { id, ms, seq: this.seq, data };
    this.log.push(entry);
    for (const res of this.open) this.write(res, entry);
  }

  private write(res: ServerResponse, e: { id: string; data: string }, n = this.log.length): void {
    const named = n % 4 === 0 ? 'event: dex_margin_manager_updates\n' : '';
    if (res.writableEnded || res.destroyed) return;
    res.write(`${named}id: ${e.id}\ndata: ${e.data}\n\n`);
    this.sentIds.add(e.id);
    // Sometimes the same event again, as a flaky upstream would.
    if (this.rng.chance(0.05)) res.write(`id: ${e.id}\ndata: ${e.data}\n\n`);
  }

  private handle(url: string, res: ServerResponse): void {
    this.connections++;
    const u = new URL(url, 'http://x');
    const roll = this.rng.next();
    if (roll < 0.15) {
      this.refused++;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end('{"error":{"message":"upstream unavailable"}}');
      return;
    }
    if (roll < 0.2) {
      this.refused++;
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
    const lastId = u.searchParams.get('last-id') ?? '$';
    let start = this.log.length;
    if (lastId === '0') start = 0;
    else if (lastId !== '$') {
      const [ms, seq] = lastId.split('-').map(Number);
      start = this.log.findIndex((e) => e.ms > ms! || (e.ms === ms && e.seq > seq!));
      if (start < 0) start = this.log.length;
    }
    for (let i = start; i < this.log.length; i++) this.write(res, this.log[i]!, i + 1);
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    // Cut the connection after a while, in the middle of a message.
    const life = setTimeout(
      () => {
        this.cut++;
        res.write('id: 99999999999999-0\ndata: {"type":"dex_margin_manager_updates_dep');
        res.destroy();
      },
      100 + this.rng.int(0, 300),
    );
    res.on('close', () => clearTimeout(life));
  }

  async close(): Promise<void> {
    this.stopProducing();
    for (const r of this.open) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
