import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../src/sim/rng';

export interface FaultPlan {
  /** Events produced in all, at `perSecond`. */
  events: number;
  perSecond: number;
  /** Connections cut by the server; `midEventShare` of them in the middle of an event. */
  drops: number;
  midEventShare: number;
  /** A connection lives this long (ms, uniform) before it is cut, while drops remain. */
  lifeMs: [number, number];
  /** Every `episodeEveryMs`, all connections are refused for `episodeMs`: 503 and 429 in turn. */
  episodeEveryMs: number;
  episodeMs: number;
  /** Events kept for a replay; an older `last-id` replays from the oldest kept (as the reference service does). */
  retention: number;
  /** Every Nth event's data is not JSON: it must be kept, marked invalid. */
  malformedEvery: number;
  seed: number;
}

export const DEFAULT_PLAN: FaultPlan = {
  events: 100_000,
  perSecond: 1_000,
  drops: 1_000,
  midEventShare: 1 / 3,
  lifeMs: [15, 80],
  episodeEveryMs: 12_000,
  episodeMs: 1_500,
  retention: 10_000,
  malformedEvery: 500,
  seed: 42,
};

interface Entry {
  id: string;
  ms: number;
  seq: number;
  text: string;
}

/**
 * The margin stream as a bad day on the real service: it produces events at a steady rate, cuts
 * connections often (a third in the middle of an event), refuses all of them in 503 and 429
 * episodes (with and without Retry-After), keeps only `retention` events for replays, and sends
 * some events that are not JSON. It remembers every id it produced, to compare with the store.
 */
export class FaultStreamServer {
  readonly server: Server;
  readonly produced: Entry[] = [];
  readonly malformedIds = new Set<string>();
  readonly stats = { connections: 0, drops: 0, midEvent: 0, refused503: 0, refused429: 0, replayedFromOldest: 0 };
  lastProducedAt = 0;
  private readonly open = new Map<ServerResponse, { next: number }>();
  private readonly rng: Rng;
  private producer: NodeJS.Timeout | undefined;
  private started = 0;
  private lastMs = 0;
  private seq = 0;

  constructor(readonly plan: FaultPlan = DEFAULT_PLAN) {
    this.rng = new Rng(plan.seed);
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get done(): boolean {
    return this.produced.length >= this.plan.events;
  }

  /** Produce at the planned rate, in 20 ms ticks, until `events` exist. */
  start(): void {
    this.started = Date.now();
    this.producer = setInterval(() => {
      const due = Math.min(this.plan.events, Math.floor(((Date.now() - this.started) / 1000) * this.plan.perSecond));
      while (this.produced.length < due) this.append();
      for (const [res, c] of this.open) this.flush(res, c);
      if (this.done) {
        clearInterval(this.producer);
        this.lastProducedAt = Date.now();
      }
    }, 20);
  }

  private append(): void {
    const ms = Math.max(Date.now(), this.lastMs);
    this.seq = ms === this.lastMs ? this.seq + 1 : 0;
    this.lastMs = ms;
    const n = this.produced.length;
    const id = `${ms}-${this.seq}`;
    let data: string;
    if (n % this.plan.malformedEvery === this.plan.malformedEvery - 1) {
      data = '{"type":"dex_margin_manager_updates_deposit","data":{not json';
      this.malformedIds.add(id);
    } else {
      data = JSON.stringify({
        type: n % 3 === 0 ? 'dex_margin_manager_updates_withdraw' : 'dex_margin_manager_updates_deposit',
        timestamp_ms: ms,
        checkpoint_id: 300_000_000 + n,
        tx_hash: `soak-tx-${n}`,
        data: {
          margin_manager_id: `0x${(n % 97).toString(16).padStart(64, '0')}`,
          base_asset_amount: n,
          quote_asset_amount: 0,
          timestamp: ms,
        },
      });
    }
    this.produced.push({ id, ms, seq: this.seq, text: `id: ${id}\ndata: ${data}\n\n` });
  }

  /** The index of the first event after `lastId`, by the retention rule. */
  private startFor(lastId: string | null): number {
    const oldest = Math.max(0, this.produced.length - this.plan.retention);
    if (lastId === null || lastId === '$') return this.produced.length;
    if (lastId === '0') return oldest;
    const [ms, seq] = lastId.split('-').map(Number);
    // Binary search: ids are strictly increasing.
    let lo = 0;
    let hi = this.produced.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = this.produced[mid]!;
      if (e.ms < ms! || (e.ms === ms && e.seq <= seq!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo < oldest) {
      this.stats.replayedFromOldest++;
      return oldest;
    }
    return lo;
  }

  private flush(res: ServerResponse, c: { next: number }): void {
    if (res.destroyed || c.next >= this.produced.length) return;
    let chunk = '';
    for (; c.next < this.produced.length; c.next++) chunk += this.produced[c.next]!.text;
    res.write(chunk);
  }

  private episode(): '503' | '429' | '429-bare' | null {
    if (this.started === 0) return null;
    const t = Date.now() - this.started;
    const k = Math.floor(t / this.plan.episodeEveryMs);
    if (k === 0 || t % this.plan.episodeEveryMs >= this.plan.episodeMs) return null;
    return (['503', '429', '429-bare'] as const)[k % 3]!;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.endsWith('/manager-updates')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"status":404,"code":"not_found","message":"only the margin stream here"}}');
      return;
    }
    this.stats.connections++;
    const episode = this.episode();
    if (episode === '503') {
      this.stats.refused503++;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"error":{"message":"upstream unavailable"}}');
      return;
    }
    if (episode !== null) {
      this.stats.refused429++;
      res.writeHead(429, { 'content-type': 'application/json', ...(episode === '429' ? { 'retry-after': '2' } : {}) });
      res.end('{"error":{"message":"too many requests"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
    const c = { next: this.startFor(url.searchParams.get('last-id')) };
    this.open.set(res, c);
    this.flush(res, c);
    res.on('close', () => this.open.delete(res));
    if (this.stats.drops < this.plan.drops) {
      const [lo, hi] = this.plan.lifeMs;
      const life = setTimeout(() => this.drop(res, c), lo + this.rng.int(0, hi - lo));
      res.on('close', () => clearTimeout(life));
    }
  }

  private drop(res: ServerResponse, c: { next: number }): void {
    if (res.destroyed || this.stats.drops >= this.plan.drops) return;
    this.stats.drops++;
    this.flush(res, c);
    if (this.rng.next() < this.plan.midEventShare) {
      this.stats.midEvent++;
      // Half of the next message: it was not sent, so it must not be stored.
      res.write('id: 99999999999999-0\ndata: {"type":"dex_margin_manager_updates_dep');
    }
    res.destroy();
  }

  async close(): Promise<void> {
    if (this.producer) clearInterval(this.producer);
    for (const r of this.open.keys()) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
