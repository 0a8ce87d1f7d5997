import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLANS, type PlanName } from '../shared/credit-prices';
import { World } from './chain/world';
import { Billing, patternOf, type Bill } from './http/billing';
import { dexRoutes } from './http/dex-routes';
import { HttpError, sendError, sendJson } from './http/errors';
import { marginRoutes } from './http/margin-routes';
import { nftRoutes } from './http/nft-routes';
import { Query } from './http/query';
import { RateLimiter } from './http/rate-limit';
import { matchRoute, type Route } from './http/route';
import { streamRoutes, type PoolFlood, type StreamHub } from './http/stream-routes';

export interface SimOptions {
  seed?: number;
  /** Market activity per second of wall time, as a multiple of real time. */
  speed?: number;
  /** Keys accepted in `api-key`; every other value (or none) is a 401. */
  apiKeys: string[];
  /**
   * Stream keys, as the real service has them: when given, streams take only these (or a pool's
   * own, below) and refuse the api-keys; REST takes only the api-keys. Default: streams take the api-keys.
   */
  streamKeys?: string[];
  /** Keys of one pool's stream only (over `streamKeys`). */
  poolStreamKeys?: Record<string, string[]>;
  host?: string;
  port?: number;
  heartbeatMs?: number;
  /** Optional per-key request rate (requests per second); beyond it a 429 with Retry-After. */
  rateLimit?: number;
  /** Optional per-key budget of open streams. */
  maxStreams?: number;
  /** A plan of the real service: its request rate and stream budget (explicit `rateLimit`/`maxStreams` win). */
  plan?: PlanName;
  /** false: 429s without `Retry-After` (the real service does not document one). Default true. */
  retryAfter?: boolean;
  /** Events of the margin stream retained for `last-id=0`. */
  retention?: number;
  /** Wall time the synthetic history ends at; defaults to now. */
  nowMs?: number;
  historyDays?: number;
  /** Owners of margin managers (default 36): `WorldOptions.marginOwners`. */
  marginOwners?: number;
  /** How often the world moves forward (ms of wall time). */
  tickMs?: number;
  /**
   * Listen at once and generate the history in slices of a few ms (requests wait for what they
   * need, in order): the process that hosts the Demo network stays responsive meanwhile.
   * `current` settles when today's world answers (margin, books, NFTs), `ready` when every older
   * trade is there too. Default: generated before `startSim` resolves.
   */
  gradual?: boolean;
  /** Benchmarks: one pool's stream also carries synthetic depth and trades at these rates. */
  flood?: PoolFlood;
  /**
   * The pool stream honours `last-id` / Last-Event-ID by replaying the pool's retained trades
   * (default off, as in the service contract).
   */
  poolResume?: boolean;
  /** false: no `/dex-margin/pools` and `/dex-margin/registered-dex-pools` (a service that does not publish risk parameters). */
  riskParams?: boolean;
}

export interface RunningSim {
  url: string;
  port: number;
  world: World;
  /** Settles once today's world exists: everything but older trades answers (at once unless `gradual`). */
  current: Promise<void>;
  /** Settles once the world's whole history is generated (at once unless started `gradual`). */
  ready: Promise<void>;
  server: Server;
  /** Cut every open stream (clients are expected to reconnect and resume): for fault tests. */
  dropStreams(): number;
  /** Replace the accepted keys (a key revoked, then enabled again). Open streams are not cut. */
  setApiKeys(keys: string[]): void;
  /** What `key` has cost so far, as the real service would bill it (`GET /__sim/credits` answers the same). */
  credits(key: string): Bill;
  /** The bills of every key that has cost something or opened a stream, in the order first seen. */
  bills(): Bill[];
  close(): Promise<void>;
}

export const DEFAULT_SEED = 20_251_122;

/** A key's bill so far (`?api-key=KEY`): free, not counted, not rate-limited; 401 for a key the sim does not know. */
const CREDITS_PATH = '/__sim/credits';

/**
 * How much of a world built gradually exists: pools and NFTs (built with the world), prices and
 * the margin protocol up to now, every pool's book of now, every trade of the history.
 */
const Level = { none: 0, margin: 1, books: 2, history: 3 } as const;
type Level = (typeof Level)[keyof typeof Level];

function levelOf(world: World): Level {
  return world.historyBuilt ? Level.history : world.built ? Level.books : world.marginBuilt ? Level.margin : Level.none;
}

/** The path's decoded segments, as routes match them; a 400 for bad percent-encoding. */
function segmentsOf(url: URL): string[] {
  try {
    return url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new HttpError(400, 'bad_path', `the path ${url.pathname} is not valid percent-encoding`);
  }
}

/** What a request needs of a world still being built. */
function needs(req: IncomingMessage): Level {
  const url = req.url ?? '';
  if (url.startsWith(`${CREDITS_PATH}?`) || url === CREDITS_PATH) return Level.none;
  if (/^\/dex\/get_pools(\?|$)/.test(url) || url.startsWith('/nfts/') || url.startsWith('/kiosks/')) return Level.none;
  if (url.startsWith('/dex-margin/')) return Level.margin;
  if (/^\/dex\/[^/?]+\/(trades|ohlcv\/)/.test(url)) return Level.history;
  if (
    /^\/dex\/[^/?]+\/live-trades/.test(url) &&
    (/[?&]last-id=/.test(url) || req.headers['last-event-id'] !== undefined)
  )
    return Level.history;
  return Level.books;
}
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** Start the reference data service: a real HTTP + SSE server over a deterministic synthetic chain. */
export async function startSim(opts: SimOptions): Promise<RunningSim> {
  if (opts.apiKeys.length === 0) throw new Error('the sim needs at least one api key');
  const speed = opts.speed ?? 1;
  if (!(speed > 0 && Number.isFinite(speed))) throw new Error(`speed must be a positive number (got ${speed})`);
  const world = new World({
    seed: opts.seed ?? DEFAULT_SEED,
    nowMs: opts.nowMs,
    historyDays: opts.historyDays,
    retention: opts.retention,
    gradual: opts.gradual,
    marginOwners: opts.marginOwners,
  });
  const keys = new Set(opts.apiKeys);
  const streamKeys = opts.streamKeys?.length ? new Set(opts.streamKeys) : undefined;
  const poolStreamKeys = new Map(Object.entries(opts.poolStreamKeys ?? {}).map(([pool, ks]) => [pool, new Set(ks)]));
  const plan = opts.plan ? PLANS[opts.plan] : undefined;
  const rate = opts.rateLimit ?? plan?.requestsPerSecond;
  const limiter = rate ? new RateLimiter(rate) : undefined;
  const retryAfter = opts.retryAfter !== false;
  const billing = new Billing();
  const hub: StreamHub = {
    heartbeatMs: opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    openPerKey: new Map(),
    maxStreamsPerKey: opts.maxStreams ?? plan?.streams,
    retryAfter,
    connections: new Set(),
    billing,
    flood: opts.flood,
    poolResume: opts.poolResume === true,
  };
  const routes: Route[] = [
    ...nftRoutes(world),
    ...dexRoutes(world),
    ...marginRoutes(world, { riskParams: opts.riskParams !== false }),
    ...streamRoutes(world, hub),
  ];

  // A request that arrives while the history is still being generated waits for what it needs
  // (`needs`): pools and NFTs exist at once, margin answers once its history reaches now, books
  // once each pool's current epoch is replayed, trades, candles and a pool stream's replay once
  // the older epochs are too.
  let stopped = false;
  // A waiter goes once the world reaches its level, or once `early` says what it needs exists.
  const waiters: Array<{ level: Level; go: () => void; early?: () => boolean }> = [];
  const release = (): void => {
    const level = levelOf(world);
    for (let i = 0; i < waiters.length;) {
      const w = waiters[i]!;
      if (stopped || w.level <= level || w.early?.() === true) waiters.splice(i, 1)[0]!.go();
      else i++;
    }
  };
  // `early` is asked at each release, not here: the caller asked it already.
  const reach = (level: Level, early?: () => boolean): Promise<void> =>
    levelOf(world) >= level ? Promise.resolve() : new Promise<void>((go) => waiters.push({ level, go, early }));
  const current = reach(Level.books);
  // Slices of 8 ms (4 ms while books are replayed, when clients already talk to it), each
  // followed by a turn of the event loop (other servers in the process answer). The older
  // trades come last and only while no client is talking to it (nothing asked for 20 ms) or
  // one waits for them: a client's round trips then do not each wait for slices of history (a
  // first Portfolio needs some fifteen of them).
  let lastRequestAt = 0;
  let waitingForHistory = 0;
  const ready = reach(Level.history);
  if (!world.historyBuilt) {
    const slice = (): void => {
      if (stopped) return release();
      if (world.built && waitingForHistory === 0 && performance.now() - lastRequestAt < 20) {
        setTimeout(slice, 10);
        return;
      }
      world.buildSlice(world.marginBuilt && !world.built ? 4 : 8);
      release();
      if (!world.historyBuilt) setImmediate(slice);
    };
    setImmediate(slice);
  }
  // A request for history whose route says today's world holds its whole answer (a pool's newest
  // trades): a first Portfolio asks for each pool's last price, and would otherwise wait for the
  // older epochs (docs/operations.md, The Demo network). A request the route cannot read answers at
  // once too (its error).
  const answersEarly = (req: IncomingMessage, need: Level): boolean => {
    if (need !== Level.history || !world.built) return false;
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    try {
      const found = matchRoute(routes, segmentsOf(url));
      return found?.route.answersEarly?.({ world, query: new Query(url.searchParams), params: found.params }) === true;
    } catch {
      return true;
    }
  };
  const handleOrWait = (req: IncomingMessage, res: ServerResponse): void => {
    if (world.historyBuilt) return handle(req, res);
    lastRequestAt = performance.now();
    const need = needs(req);
    const early = (): boolean => answersEarly(req, need);
    if (levelOf(world) >= need || early()) return handle(req, res);
    if (need === Level.history) waitingForHistory++;
    void reach(need, early).then(() => {
      if (need === Level.history) waitingForHistory--;
      // Closed while it waited (the app quit during the first seconds), or the client left: a
      // stream opened now would keep its heartbeat, and the process, alive on a dead socket.
      if (stopped || req.socket.destroyed) res.destroy();
      else handle(req, res);
    });
  };
  // A key the sim accepts (for REST or a stream), or one with a bill (since revoked).
  const known = (key: string): boolean =>
    keys.has(key) ||
    streamKeys?.has(key) === true ||
    [...poolStreamKeys.values()].some((ks) => ks.has(key)) ||
    billing.has(key);
  const answerCredits = (res: ServerResponse, key: string | null): void => {
    if (key === null || key === '' || !known(key)) throw new HttpError(401, 'unauthorized', 'the api-key is not valid');
    sendJson(res, 200, billing.bill(key));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new HttpError(405, 'method_not_allowed', `only GET is served (got ${req.method})`, {
          allow: 'GET, HEAD',
        });
      }
      const url = new URL(req.url ?? '/', 'http://sim.invalid');
      if (url.pathname === CREDITS_PATH) return answerCredits(res, url.searchParams.get('api-key'));
      const found = matchRoute(routes, segmentsOf(url));
      if (!found) throw new HttpError(404, 'not_found', `no endpoint at ${url.pathname}`);
      const apiKey = url.searchParams.get('api-key');
      if (apiKey === null || apiKey === '') {
        throw new HttpError(401, 'unauthorized', 'the api-key query parameter is required');
      }
      const pool = found.params['pool'];
      const own = found.route.stream
        ? ((pool !== undefined ? poolStreamKeys.get(pool) : undefined) ?? streamKeys)
        : undefined;
      if (own && !own.has(apiKey)) {
        throw new HttpError(
          401,
          'unauthorized',
          keys.has(apiKey)
            ? 'this stream takes a stream key, not the api-key'
            : 'the stream key is not valid for this stream',
        );
      }
      if (!own && !keys.has(apiKey)) throw new HttpError(401, 'unauthorized', 'the api-key is not valid');
      const wait = limiter?.take(apiKey);
      if (wait !== undefined) {
        throw new HttpError(
          429,
          'rate_limited',
          `too many requests for this api-key; retry in ${wait} s`,
          retryAfter ? { 'retry-after': String(wait) } : {},
        );
      }
      const body = found.route.handler({
        world,
        query: new Query(url.searchParams),
        params: found.params,
        req,
        res,
        apiKey,
      });
      if (body !== undefined) {
        sendJson(res, 200, body);
        // The raw path: the price table's segments are the path's before decoding, as the router's are.
        billing.request(apiKey, patternOf(found.route.segments), url.pathname);
      }
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) sendError(res, err);
      else {
        console.error('sim: internal error', err);
        sendError(res, new HttpError(500, 'internal', 'the demo network failed to answer; see its log'));
      }
    }
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, handleOrWait);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const tick = setInterval(() => world.advanceTo(Date.now(), speed), opts.tickMs ?? 250);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    world,
    current,
    ready,
    server,
    setApiKeys(next) {
      keys.clear();
      for (const k of next) keys.add(k);
    },
    credits: (key) => billing.bill(key),
    bills: () => billing.keys().map((k) => billing.bill(k)),
    dropStreams() {
      const open = [...hub.connections];
      for (const conn of open) conn.destroy();
      return open.length;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        stopped = true;
        clearInterval(tick);
        for (const conn of [...hub.connections]) conn.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
