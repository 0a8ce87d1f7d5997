/**
 * The guard soak (docs/guard-soak.md): does the monitor see a liquidation coming, within the plan,
 * measured against the Demo network's own truth? For each plan and speed asked, a Demo network runs
 * as its own process (`tidewatch sim --plan P --speed S`, two api-keys) and `tidewatch serve` as
 * another, watching the N wallets with the most loans at production defaults (the plan's budget,
 * the default thresholds, the history on a first start); only the market's speed is not a
 * production one.
 *
 * Beside the monitor, this process reads the truth with the second key: the protocol-wide active
 * loans (each manager's risk ratio at the protocol's oracle prices, its owner and pool) every
 * second or so, each pool's liquidation ratio (registered-dex-pools), and the margin stream for the
 * liquidations as they arrive. What the monitor alerted comes from serve's HTTP API (`alerts`).
 * For each liquidation of a watched manager it gives how long the truth had it within 2 % of its
 * liquidation ratio, the lead of the first alert (any level) and of the first critical one, and
 * whether the liquidation was alerted as it arrived; the credits are the Demo network's bill of
 * serve's key, priced as the service prices them (docs/credits.md).
 *
 *   npm run soak:guard                                            Free and Builder at speed 20
 *   npm run soak:guard -- --plan builder --speed 20 --wallets 20 --min-liquidations 20 --minutes 120
 *   npm run soak:guard -- --plan free,builder --speed 1,20,300 --minutes 10 --out /tmp/guard.md
 *
 * Each plan and speed is a run; the runs of one speed go side by side, the speeds one after the
 * other. A run ends once it has seen --min-liquidations watched liquidations, or after --minutes.
 * Prints a row per watched liquidation, a summary per run and the targets (met / missed), and writes
 * them to docs/guard-soak.md (--out FILE elsewhere). Exit 1 when a target is missed, a child process
 * dies, or anything throws that nobody handled; the children are stopped on every way out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { EVENT_TYPES } from '../src/shared/api';
import type { AlertRecord, PortfolioSummary } from '../src/shared/contract';
import { DAYS_PER_MONTH, PLAN_NAMES, PLANS, type PlanName } from '../src/shared/credit-prices';
import { DEFAULT_SETTINGS } from '../src/main/core/settings';
import { DEFAULT_LIQUIDATION_RATIO, thresholdsOnPool } from '../src/shared/portfolio';
import { riskRatioFromStream } from '../src/shared/units';
import { busiestWallets, codeMeasured, spawnServe, spawnSim, type ServeProcess } from './support';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const { values } = parseArgs({
  options: {
    plan: { type: 'string' },
    speed: { type: 'string' },
    wallets: { type: 'string' },
    minutes: { type: 'string' },
    'min-liquidations': { type: 'string' },
    seed: { type: 'string' },
    'poll-ms': { type: 'string' },
    out: { type: 'string' },
  },
});
const list = (text: string): string[] =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const PLAN_LIST = list(values.plan ?? 'free,builder') as PlanName[];
for (const p of PLAN_LIST) if (!PLAN_NAMES.includes(p)) throw new Error(`--plan: ${p} is not one of ${PLAN_NAMES}`);
const SPEEDS = list(values.speed ?? '20').map(Number);
for (const s of SPEEDS) if (!(s > 0)) throw new Error(`--speed: ${s} is not a positive number`);
const WALLETS = Number(values.wallets ?? 20);
const MINUTES = Number(values.minutes ?? 120);
const MIN_LIQUIDATIONS = Number(values['min-liquidations'] ?? 20);
const SEED = Number(values.seed ?? 7);
/** How often the truth's ratios are read (at least; slower when the plan's request rate needs it). */
const POLL_MS = Number(values['poll-ms'] ?? 1000);
const OUT = values.out ?? fileURLToPath(new URL('../docs/guard-soak.md', import.meta.url));

const SERVE_KEY = 'guard-serve';
const TRUTH_KEY = 'guard-truth';
/** "Within 2 % of its liquidation ratio": a ratio at or below the pool's liquidation ratio x 1.02. */
const NEAR = 0.02;
/** A position this long (wall time) within 2 % should have had a critical alert first. */
const NEAR_LONG_MS = 30_000;
const CRITICAL_SHARE = 0.95;
/** "Alerted as it arrives": serve's liquidation alert at most this long after the truth read the event. */
const ON_ARRIVAL_MS = 5_000;
/** After a run ends: time for serve's last alerts before they are read the last time. */
const DRAIN_MS = 5_000;
/** How long serve may take to start and value every watched wallet once. */
const READY_MS = 300_000;
/** The bill of the first minutes (the history replayed on the stream, the start's reads) is left out of a day's credits. */
const WARMUP_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
const short = (id: string) => `${id.slice(0, 8)}…`;
/** A duration in words: "42 s", "3.5 min", "2.1 h". */
function dur(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '-';
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(0)} s`;
  if (s < 7200) return `${(s / 60).toFixed(s < 600 ? 1 : 0)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
/** Nearest rank. */
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};

// ---- every way out stops the children -----------------------------------------------------

const children = new Set<ChildProcess>();
/** Children this program is stopping: their exit is no failure. */
const stopping = new Set<ChildProcess>();
const dirs = new Set<string>();
let failed = false;

function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(kill);
}

async function cleanup(): Promise<void> {
  for (const c of children) stopping.add(c);
  await Promise.all([...children].map(stopChild));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

function fail(why: string): void {
  if (failed) return;
  failed = true;
  console.error(`guard-soak: FAILED: ${why}`);
  void cleanup().finally(() => process.exit(1));
}

process.on('unhandledRejection', (err) => fail(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));
process.on('uncaughtException', (err) => fail(`uncaught exception: ${err.stack ?? err.message}`));
process.once('SIGINT', () => fail('interrupted (SIGINT)'));
process.once('SIGTERM', () => fail('stopped (SIGTERM)'));
// The last resort: a child left running outlives nothing.
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** The `count` owners with the most open loans (seed `SEED`), as the other soaks choose them. */
const busiest = (count: number) => busiestWallets(SEED, count, track);

// ---- the truth: the Demo network's own ratios and liquidations ------------------------------

interface TruthManager {
  owner: string | undefined;
  pool: string | undefined;
  ratio: number | null;
  /** Since when the polls have had it within 2 % of its liquidation ratio, without a break (null: not now). */
  nearSince: number | null;
  /** When its last liquidation arrived on the stream. */
  liquidatedAt: number | null;
}

interface TruthLiquidation {
  /** The stream's event id (serve's liquidation alert names it). */
  id: string;
  manager: string;
  /** When this process read it off the stream. */
  at: number;
  /** The ratio the event gives. */
  ratio: number | null;
  /** How long (wall) the polls had it within 2 % before it: 0 when the last poll had it further. */
  nearMs: number;
  /** The manager's previous liquidation (any, also before the run), or null. */
  previousAt: number | null;
}

interface PageOf<T> {
  items: T[];
  isLastPage: boolean;
}
interface WireLoan {
  margin_manager_id: string;
  risk_ratio: number | null;
  margin_manager: { owner: string; dex_pool_id: string };
}

class Truth {
  readonly managers = new Map<string, TruthManager>();
  readonly liquidations: TruthLiquidation[] = [];
  /** Each exchange pool's liquidation ratio and name. */
  readonly pools = new Map<string, { liquidation: number; name: string }>();
  polls = 0;
  pollFailures = 0;
  /** Reads the plan's request rate turned away (429), each asked again after its wait. */
  throttled = 0;
  /** The longest time between two good polls (ms). */
  longestGap = 0;
  ended: string | null = null;
  private stopped = false;
  private readonly ctl = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private pages = 1;

  constructor(
    private readonly url: string,
    private readonly rate: number,
  ) {}

  /** One read with the truth's key; a 429 (the plan's request rate, Free's 10 a second) waits as told and asks again. */
  private async get<T>(path: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.url}${path}${path.includes('?') ? '&' : '?'}api-key=${TRUTH_KEY}`, {
        signal: this.ctl.signal,
      });
      if (res.status === 429 && attempt < 20) {
        await res.body?.cancel();
        this.throttled++;
        await sleep(Math.max(100, Number(res.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return (await res.json()) as T;
    }
  }

  private manager(id: string): TruthManager {
    let m = this.managers.get(id);
    if (!m)
      this.managers.set(
        id,
        (m = { owner: undefined, pool: undefined, ratio: null, nearSince: null, liquidatedAt: null }),
      );
    return m;
  }

  async start(): Promise<void> {
    for (const p of await this.get<Array<{ pool_id: string; pool_name: string; liquidation_risk_ratio: number }>>(
      '/dex-margin/registered-dex-pools',
    ))
      this.pools.set(p.pool_id, { liquidation: p.liquidation_risk_ratio, name: p.pool_name });
    // The stream first, so that a liquidation is never read before the manager's last ratio is known.
    const res = await fetch(`${this.url}/dex-margin/manager-updates?api-key=${TRUTH_KEY}&last-id=$`, {
      signal: this.ctl.signal,
      headers: { accept: 'text/event-stream' },
    });
    if (!res.ok || !res.body) throw new Error(`the truth's margin stream answered ${res.status}`);
    const parser = createParser({ onEvent: (e) => this.onEvent(e.id, e.data) });
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      if (!this.stopped) this.ended = "the truth's margin stream ended";
    })().catch((err: unknown) => {
      if (!this.stopped) this.ended = `the truth's margin stream failed: ${(err as Error).message}`;
    });
    await this.poll();
    this.loop = this.pollLoop();
  }

  private onEvent(id: string | undefined, text: string): void {
    const at = Date.now();
    let msg: { type?: string; data?: { margin_manager_id?: string; owner?: string; risk_ratio?: number } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    const managerId = msg.data?.margin_manager_id;
    if (!managerId) return;
    const m = this.manager(managerId);
    if (msg.type === EVENT_TYPES.managerCreated && msg.data?.owner) m.owner = msg.data.owner;
    if (msg.type !== EVENT_TYPES.liquidation || !id) return;
    const risk = msg.data?.risk_ratio;
    this.liquidations.push({
      id,
      manager: managerId,
      at,
      ratio: typeof risk === 'number' ? riskRatioFromStream(risk) : null,
      nearMs: m.nearSince === null ? 0 : at - m.nearSince,
      previousAt: m.liquidatedAt,
    });
    // What is left is a new position (the liquidation brought it back to its target ratio).
    m.liquidatedAt = at;
    m.nearSince = null;
  }

  /** The protocol-wide active loans, every page, read at once so they come from about one moment. */
  private async poll(): Promise<void> {
    const started = Date.now();
    const read = (page: number) => this.get<PageOf<WireLoan>>(`/dex-margin/active-loans?perPage=50&page=${page}`);
    const pages = await Promise.all(Array.from({ length: this.pages }, (_, i) => read(i)));
    while (!pages.at(-1)!.isLastPage) pages.push(await read(pages.length));
    this.pages = pages.length;
    for (const loan of pages.flatMap((p) => p.items)) {
      const m = this.manager(loan.margin_manager_id);
      // A poll begun before a liquidation arrived may show the position before it: the liquidation decides.
      if (m.liquidatedAt !== null && m.liquidatedAt >= started) continue;
      m.owner = loan.margin_manager.owner;
      m.pool = loan.margin_manager.dex_pool_id;
      m.ratio = loan.risk_ratio;
      const liquidation = this.pools.get(m.pool)?.liquidation;
      const near = m.ratio !== null && liquidation !== undefined && m.ratio <= liquidation * (1 + NEAR);
      if (!near) m.nearSince = null;
      else m.nearSince ??= started;
    }
    this.polls++;
  }

  private async pollLoop(): Promise<void> {
    let last = Date.now();
    while (!this.stopped) {
      const began = Date.now();
      try {
        await this.poll();
        this.longestGap = Math.max(this.longestGap, Date.now() - last);
        last = Date.now();
      } catch {
        if (this.stopped) return;
        this.pollFailures++;
      }
      // Within the plan's request rate, which binds this key too (80 % of it, the rest for the odd retry).
      const every = Math.max(POLL_MS, (this.pages * 1000) / (0.8 * this.rate));
      await sleep(Math.max(0, began + every - Date.now()));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.ctl.abort();
    await this.loop;
  }

  liquidationRatioOf(manager: string): number | undefined {
    const pool = this.managers.get(manager)?.pool;
    return pool === undefined ? undefined : this.pools.get(pool)?.liquidation;
  }

  poolNameOf(manager: string): string {
    const pool = this.managers.get(manager)?.pool;
    return (pool === undefined ? undefined : this.pools.get(pool)?.name) ?? '?';
  }
}

// ---- one run: a plan at a speed ------------------------------------------------------------

interface Bill {
  total: number;
  requestCredits: number;
  streamCredits: number;
  /** Requests' credits by spec path pattern (the sim's bill). */
  byPath: Record<string, { requests: number; credits: number }>;
}

interface Run {
  plan: PlanName;
  speed: number;
  sim: Awaited<ReturnType<typeof spawnSim>>;
  serve: ServeProcess;
  truth: Truth;
  watched: Set<string>;
  /** When serve started (alerts before that cannot exist), when it had valued every wallet, when the run ended. */
  serveAt: number;
  t0: number;
  end: number | null;
  alerts: Map<number, AlertRecord>;
  bills: Array<{ at: number } & Bill>;
  /** serve's valuations of the liquidated watched managers (its store's risk history), oldest first. */
  readings: Map<string, Array<{ at: number; ratio: number | null }>>;
  dir: string;
  /** Lines serve wrote about an error it survived (an unhandled one: a failure). */
  survived: string[];
}

async function bill(run: { sim: { url: string } }): Promise<{ at: number } & Bill> {
  const res = await fetch(`${run.sim.url}/__sim/credits?api-key=${SERVE_KEY}`);
  const b = (await res.json()) as Bill;
  return {
    at: Date.now(),
    total: b.total,
    requestCredits: b.requestCredits,
    streamCredits: b.streamCredits,
    byPath: b.byPath,
  };
}

/** serve's risk history (`tidewatch export risk`, read while it runs) for the managers in `of`. */
async function readings(
  dir: string,
  of: Set<string>,
): Promise<Map<string, Array<{ at: number; ratio: number | null }>>> {
  const child = spawn(process.execPath, [BIN, 'export', 'risk', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(child);
  const byManager = new Map<string, Array<{ at: number; ratio: number | null }>>();
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line) continue;
    // `valued_at` is ISO 8601 with the zone's offset (docs/cli.md), as the Portfolio's CSV has it.
    const r = JSON.parse(line) as { manager_id: string; valued_at: string; risk_ratio: number | null };
    if (!of.has(r.manager_id)) continue;
    const at = Date.parse(r.valued_at);
    if (!Number.isFinite(at)) throw new Error(`export risk: a reading without a time (${line.slice(0, 120)})`);
    let xs = byManager.get(r.manager_id);
    if (!xs) byManager.set(r.manager_id, (xs = []));
    xs.push({ at, ratio: r.risk_ratio });
  }
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  return byManager;
}

async function readAlerts(run: Run): Promise<void> {
  const answer = await run.serve.call<{ data: AlertRecord[] }>('alerts', { includeAcknowledged: true, limit: 1000 });
  for (const a of answer.data) run.alerts.set(a.id, a);
}

/** The run's liquidations of watched managers: the truth knows the owner, or serve alerted it. */
function watchedLiquidations(run: Run): TruthLiquidation[] {
  const alerted = new Set([...run.alerts.values()].filter((a) => a.rule === 'liquidation').map((a) => a.event_id));
  return run.truth.liquidations.filter(
    (l) =>
      l.at >= run.t0 &&
      (run.end === null || l.at <= run.end) &&
      (run.watched.has(run.truth.managers.get(l.manager)?.owner ?? '') || alerted.has(l.id)),
  );
}

async function startRun(plan: PlanName, speed: number, owners: string[]): Promise<Run> {
  const sim = await spawnSim([
    '--seed',
    String(SEED),
    '--speed',
    String(speed),
    '--plan',
    plan,
    '--api-key',
    SERVE_KEY,
    '--api-key',
    TRUTH_KEY,
  ]);
  track(sim.child);
  const name = `${plan} x${speed}`;
  sim.child.once('exit', (code, signal) => {
    if (!stopping.has(sim.child)) fail(`the Demo network of ${name} exited (${code ?? signal})`);
  });
  const truth = new Truth(sim.url, PLANS[plan].requestsPerSecond);
  await truth.start();
  const dir = mkdtempSync(join(tmpdir(), `tidewatch-guard-${plan}-${speed}-`));
  dirs.add(dir);
  const serveAt = Date.now();
  const serve = await spawnServe(
    name,
    ['--data-dir', dir, '--base-url', sim.url, '--plan', plan, ...owners.flatMap((o) => ['--watch', o])],
    // Strict: an error serve would survive ends it, and so fails the run.
    { TIDEWATCH_API_KEY: SERVE_KEY, TIDEWATCH_STRICT: '1' },
  );
  track(serve.child);
  const survived: string[] = [];
  serve.child.stderr!.on('data', (d: Buffer) => {
    for (const line of String(d).split('\n')) if (/\(survived\)|TIDEWATCH_STRICT/.test(line)) survived.push(line);
  });
  serve.child.once('exit', (code, signal) => {
    if (!stopping.has(serve.child))
      fail(`serve of ${name} exited (${code ?? signal})${survived.length ? `: ${survived.join(' | ')}` : ''}`);
  });
  // Every watched wallet valued once: serve knows their managers and has alerted what it found.
  const deadline = Date.now() + READY_MS;
  for (;;) {
    const p = (await serve.call<{ data: PortfolioSummary | null }>('portfolio', {})).data;
    if ((p?.wallets.length ?? 0) >= owners.length) break;
    if (Date.now() > deadline)
      throw new Error(`serve of ${name} had not valued every wallet after ${READY_MS / 1000} s`);
    await sleep(1000);
  }
  const t0 = Date.now();
  const run: Run = {
    plan,
    speed,
    sim,
    serve,
    truth,
    watched: new Set(owners),
    serveAt,
    t0,
    end: null,
    alerts: new Map(),
    bills: [await bill({ sim })],
    readings: new Map(),
    dir,
    survived,
  };
  console.log(
    `guard-soak: ${name}: serve ready ${((t0 - serveAt) / 1000).toFixed(0)} s after its start; ${[...truth.managers.values()].filter((m) => run.watched.has(m.owner ?? '')).length} watched managers with loans`,
  );
  return run;
}

async function endRun(run: Run): Promise<void> {
  run.end = Date.now();
  await sleep(DRAIN_MS);
  await readAlerts(run);
  run.bills.push(await bill(run));
  await run.truth.stop();
  run.readings = await readings(run.dir, new Set(watchedLiquidations(run).map((l) => l.manager)));
  for (const c of [run.serve.child, run.sim.child]) {
    stopping.add(c);
    await stopChild(c);
  }
}

/** The runs of one speed, side by side, each until it has seen enough watched liquidations or its time is up. */
async function runSpeed(speed: number, owners: string[]): Promise<Run[]> {
  const runs: Run[] = [];
  for (const plan of PLAN_LIST) runs.push(await startRun(plan, speed, owners));
  const live = new Set(runs);
  let lastSay = Date.now();
  while (live.size > 0) {
    await sleep(3000);
    for (const run of [...live]) {
      try {
        await readAlerts(run);
      } catch (err) {
        // serve busy for a moment: the next round asks again (a serve that died fails the run by its exit)
        console.log(`guard-soak: ${run.plan} x${run.speed}: alerts not read: ${(err as Error).message}`);
      }
      if (run.truth.ended) throw new Error(run.truth.ended);
      const now = Date.now();
      const last = run.bills.at(-1)!;
      if (now - last.at >= 60_000) run.bills.push(await bill(run));
      const seen = watchedLiquidations(run).length;
      if (seen >= MIN_LIQUIDATIONS || now >= run.t0 + MINUTES * 60_000) {
        live.delete(run);
        await endRun(run);
        console.log(
          `guard-soak: ${run.plan} x${run.speed}: done after ${dur(run.end! - run.t0)} (${dur((run.end! - run.t0) * run.speed)} of market time), ${watchedLiquidations(run).length} watched liquidations`,
        );
      }
    }
    if (Date.now() - lastSay >= 60_000) {
      lastSay = Date.now();
      for (const run of live)
        console.log(
          `guard-soak: ${run.plan} x${run.speed}: ${dur(Date.now() - run.t0)}, ${watchedLiquidations(run).length} watched liquidations of ${run.truth.liquidations.filter((l) => l.at >= run.t0).length}, ${run.alerts.size} alerts, truth polls ${run.truth.polls} (${run.truth.pollFailures} failed)`,
        );
    }
  }
  return runs;
}

// ---- what a run measured --------------------------------------------------------------------

interface Row {
  liquidation: TruthLiquidation;
  pool: string;
  firstAny: AlertRecord | undefined;
  firstCritical: AlertRecord | undefined;
  /** serve's liquidation alert for this event, if any. */
  alert: AlertRecord | undefined;
  /** serve's last valuation of the position before the liquidation, and its valuations while the truth had it within 2 %. */
  lastReading: { at: number; ratio: number | null } | undefined;
  nearReadings: Array<{ at: number; ratio: number | null }>;
}

function rowsOf(run: Run): Row[] {
  const alerts = [...run.alerts.values()].sort((a, b) => a.created_at - b.created_at);
  return watchedLiquidations(run).map((l) => {
    // Alerts of this position: since serve started or since its previous liquidation (what is left is a new position).
    const from = Math.max(run.serveAt, l.previousAt ?? 0);
    const before = alerts.filter(
      (a) => a.rule === 'risk-threshold' && a.manager_id === l.manager && a.created_at >= from && a.created_at <= l.at,
    );
    const valued = (run.readings.get(l.manager) ?? []).filter((r) => r.at >= from && r.at <= l.at);
    return {
      liquidation: l,
      pool: run.truth.poolNameOf(l.manager),
      firstAny: before[0],
      firstCritical: before.find((a) => a.level === 'critical'),
      alert: alerts.find((a) => a.rule === 'liquidation' && a.event_id === l.id),
      lastReading: valued.at(-1),
      nearReadings: l.nearMs > 0 ? valued.filter((r) => r.at >= l.at - l.nearMs) : [],
    };
  });
}

interface Summary {
  run: Run;
  rows: Row[];
  minutes: number;
  alertedBefore: number;
  nearLong: number;
  criticalOfNearLong: number;
  onArrival: number;
  arrivalP50: number;
  arrivalMax: number;
  perDay: number;
  /** Of it, the requests' and the streams' (the margin stream's KB grow with the speed). */
  requestsPerDay: number;
  streamPerDay: number;
  /** The requests' credits a day by path, dearest first. */
  byPath: Array<{ path: string; requests: number; credits: number }>;
  planDay: number;
  targets: Array<{ name: string; met: boolean; figure: string }>;
}

function summarise(run: Run): Summary {
  const rows = rowsOf(run);
  const end = run.end ?? Date.now();
  const n = rows.length;
  const alertedBefore = rows.filter((r) => r.firstAny).length;
  const long = rows.filter((r) => r.liquidation.nearMs >= NEAR_LONG_MS);
  const criticalOfNearLong = long.filter((r) => r.firstCritical).length;
  const delays = rows.flatMap((r) => (r.alert ? [r.alert.created_at - r.liquidation.at] : []));
  const onArrival = delays.filter((d) => d <= ON_ARRIVAL_MS).length;
  // A day's credits from the bill after the warm-up (the whole run when it was too short for one).
  const last = run.bills.at(-1)!;
  const from = run.bills.find((b) => b.at >= run.t0 + WARMUP_MS && last.at - b.at >= WARMUP_MS) ?? run.bills[0]!;
  const perDayOf = (a: number, b: number) => (last.at > from.at ? ((a - b) / (last.at - from.at)) * 86_400_000 : NaN);
  const day = (k: 'total' | 'requestCredits' | 'streamCredits') => perDayOf(last[k], from[k]);
  const perDay = day('total');
  const byPath = Object.entries(last.byPath)
    .map(([path, p]) => {
      const before = from.byPath[path] ?? { requests: 0, credits: 0 };
      return { path, requests: perDayOf(p.requests, before.requests), credits: perDayOf(p.credits, before.credits) };
    })
    .filter((p) => p.credits > 0)
    .sort((a, b) => b.credits - a.credits);
  const planDay = PLANS[run.plan].monthlyCredits / DAYS_PER_MONTH;
  const share = long.length ? criticalOfNearLong / long.length : NaN;
  return {
    run,
    rows,
    minutes: (end - run.t0) / 60_000,
    alertedBefore,
    nearLong: long.length,
    criticalOfNearLong,
    onArrival,
    arrivalP50: pct(delays, 50),
    arrivalMax: delays.length ? Math.max(...delays) : NaN,
    perDay,
    requestsPerDay: day('requestCredits'),
    streamPerDay: day('streamCredits'),
    byPath,
    planDay,
    targets: [
      {
        name: `at least ${MIN_LIQUIDATIONS} watched liquidations`,
        met: n >= MIN_LIQUIDATIONS,
        figure: String(n),
      },
      {
        name: 'an alert (any level) before every watched liquidation',
        met: n > 0 && alertedBefore === n,
        figure: `${alertedBefore} of ${n}`,
      },
      {
        name: `a critical alert first for ≥${CRITICAL_SHARE * 100} % of those ≥${NEAR_LONG_MS / 1000} s within 2 %`,
        met: long.length === 0 || share >= CRITICAL_SHARE,
        figure: long.length ? `${criticalOfNearLong} of ${long.length} (${(share * 100).toFixed(0)} %)` : 'none such',
      },
      {
        name: `every watched liquidation alerted as it arrives (≤${ON_ARRIVAL_MS / 1000} s)`,
        met: n > 0 && onArrival === n,
        figure: `${onArrival} of ${n}`,
      },
      {
        name: "credits a day within the plan's day",
        met: perDay <= planDay,
        figure: `${fmt(perDay)} of ${fmt(planDay)}`,
      },
    ],
  };
}

function report(summaries: Summary[], owners: Array<{ owner: string; loans: number }>, code: string, ms: number) {
  const lines: string[] = [];
  const say = (l = '') => {
    lines.push(l);
    console.log(l);
  };
  const cpu = cpus();
  const loans = owners.reduce((n, o) => n + o.loans, 0);
  say('# Guard soak: liquidations seen coming, within the plan, against the truth');
  say();
  say(
    `Written by \`npm run soak:guard -- ${process.argv.slice(2).join(' ')}\` (bench/guard-soak.ts) on ${new Date().toISOString().slice(0, 16)} UTC, serve running the sources of ${code}, on ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}); the whole program took ${dur(ms)}. ` +
      `Each run: the Demo network (\`tidewatch sim --plan P --speed S\`, seed ${SEED}) and \`tidewatch serve\` (\`--plan P\`, otherwise production defaults) as processes of their own; serve watches the ${owners.length} wallets with the most open loans (${loans} at the start, chosen by \`sim --describe\`). ` +
      `The truth is read beside it with a second key of the same Demo network, so it is measured in the same run: the protocol-wide active loans (each manager's risk ratio at the oracle prices, its owner and pool) about every ${POLL_MS / 1000} s, each pool's liquidation ratio (registered-dex-pools), and the margin stream, whose arrival of a liquidation is "the liquidation". What serve alerted comes from its HTTP API (\`alerts\`). ` +
      `A run counts liquidations of watched managers from the moment serve had valued every wallet once, and ends once it has seen ${MIN_LIQUIDATIONS} or after ${MINUTES} minutes. Market time is wall time times the speed.`,
  );
  say();
  say('## Summary');
  say();
  say(
    '| plan | speed | minutes (market hours) | watched liquidations | alerted before (any level) | ≥30 s within 2 % | critical first among those | liquidation alerts on arrival (p50 / max) | credits / day: requests + stream (plan day) |',
  );
  say('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of summaries) {
    const n = s.rows.length;
    say(
      `| ${PLANS[s.run.plan].label} | ${s.run.speed} | ${s.minutes.toFixed(0)} (${((s.minutes * s.run.speed) / 60).toFixed(1)}) | ${n} | ${s.alertedBefore} of ${n} | ${s.nearLong} | ${s.criticalOfNearLong} of ${s.nearLong} | ${s.onArrival} of ${n} (${fmt(s.arrivalP50)} / ${fmt(s.arrivalMax)} ms) | ${fmt(s.perDay)}: ${fmt(s.requestsPerDay)} + ${fmt(s.streamPerDay)} (${fmt(s.planDay)}) |`,
    );
  }
  say();
  say('## Targets');
  say();
  say('| plan | speed | target | measured | met |');
  say('| --- | ---: | --- | ---: | --- |');
  for (const s of summaries)
    for (const t of s.targets)
      say(`| ${PLANS[s.run.plan].label} | ${s.run.speed} | ${t.name} | ${t.figure} | ${t.met ? 'met' : 'MISSED'} |`);
  say();
  say('## Where the credits go');
  say();
  say("A day of each path, from the bill after the warm-up, as the Demo network charged serve's key.");
  say();
  say('| plan | speed | path | requests a day | credits a day |');
  say('| --- | ---: | --- | ---: | ---: |');
  for (const s of summaries) {
    for (const p of s.byPath)
      say(`| ${PLANS[s.run.plan].label} | ${s.run.speed} | \`${p.path}\` | ${fmt(p.requests)} | ${fmt(p.credits)} |`);
    say(`| ${PLANS[s.run.plan].label} | ${s.run.speed} | streams (1 per KB) | | ${fmt(s.streamPerDay)} |`);
  }
  say();
  say('## Each watched liquidation');
  say();
  say(
    'Wall time, then market time. "Within 2 %": how long the truth\'s polls had the position at or below its pool\'s liquidation ratio x 1.02 without a break before the liquidation (0: the last poll before it had it further). "Lead": from serve\'s first alert of that level for the position (a `risk-threshold` alert since serve started or since the position\'s previous liquidation, whatever is later) to the liquidation. "Alerted": serve\'s liquidation alert for that stream event, from the truth\'s arrival to its `created_at`. "Last valuation": serve\'s last valuation of the position before the liquidation (its risk history), with the ratio serve computed.',
  );
  say();
  say(
    "| plan | speed | at (run time) | manager | pool | ratio at liquidation | within 2 % before | first alert lead (level) | first critical lead | serve's last valuation before (ratio) | alerted on arrival |",
  );
  say('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of summaries) {
    const x = s.run.speed;
    const both = (ms: number | null) => (ms === null ? '-' : `${dur(ms)} / ${dur(ms * x)}`);
    for (const r of s.rows) {
      const l = r.liquidation;
      say(
        `| ${PLANS[s.run.plan].label} | ${x} | ${dur(l.at - s.run.t0)} | ${short(l.manager)} | ${r.pool} | ${l.ratio?.toFixed(4) ?? '?'} | ${both(l.nearMs)} | ${r.firstAny ? `${both(l.at - r.firstAny.created_at)} (${r.firstAny.level})` : 'none'} | ${r.firstCritical ? both(l.at - r.firstCritical.created_at) : 'none'} | ${r.lastReading ? `${both(l.at - r.lastReading.at)} (${r.lastReading.ratio?.toFixed(4) ?? '-'})` : 'none'} | ${r.alert ? `${r.alert.created_at - l.at <= ON_ARRIVAL_MS ? 'yes' : 'late'}, ${fmt(r.alert.created_at - l.at)} ms` : 'NO'} |`,
      );
    }
  }
  const noCritical = summaries.flatMap((s) =>
    s.rows.filter((r) => r.liquidation.nearMs >= NEAR_LONG_MS && !r.firstCritical).map((r) => ({ s, r })),
  );
  say();
  say(
    `Positions ≥${NEAR_LONG_MS / 1000} s within 2 % without a critical alert first, with serve's valuations in that time (its ratio; critical below ${thresholdsOnPool({ warning: DEFAULT_SETTINGS.warningRatio, critical: DEFAULT_SETTINGS.criticalRatio }, DEFAULT_LIQUIDATION_RATIO).critical} at the protocol's ${DEFAULT_LIQUIDATION_RATIO}, moved with the pool's liquidation ratio, or within ${DEFAULT_SETTINGS.nearLiquidationPct} % of the liquidation price): ${noCritical.length === 0 ? 'none.' : ''}`,
  );
  for (const { s, r } of noCritical) {
    const l = r.liquidation;
    const liq = s.run.truth.liquidationRatioOf(l.manager);
    say(
      `- ${PLANS[s.run.plan].label} x${s.run.speed}, ${short(l.manager)} ${r.pool} (liquidation ratio ${liq ?? '?'}), ${dur(l.nearMs)} within 2 %: ${r.nearReadings.length === 0 ? 'no valuation by serve in that time' : `${r.nearReadings.length} valuations, ${r.nearReadings.map((x) => `${dur(l.at - x.at)} before: ${x.ratio?.toFixed(4) ?? '-'}`).join(', ')}`}; alerts of the position: ${r.firstAny ? `${r.firstAny.level} ${dur(l.at - r.firstAny.created_at)} before` : 'none'}.`,
    );
  }
  say();
  say(
    `Truth polls: ${summaries.map((s) => `${PLANS[s.run.plan].label} x${s.run.speed} ${fmt(s.run.truth.polls)} (${s.run.truth.pollFailures} failed, longest gap ${dur(s.run.truth.longestGap)})`).join('; ')}.`,
  );
  writeFileSync(OUT, `${lines.join('\n')}\n`);
  console.log(`\nwritten to ${OUT}`);
}

async function main(): Promise<void> {
  const began = Date.now();
  // Bounded: every speed's runs get their minutes, the start (serve valuing every wallet) and the stop.
  const bound = SPEEDS.length * (MINUTES * 60_000 + READY_MS + 120_000) + 120_000;
  setTimeout(() => fail(`still running after ${dur(bound)}`), bound).unref();
  const owners = await busiest(WALLETS);
  const code = codeMeasured();
  console.log(
    `guard-soak: ${PLAN_LIST.join(', ')} at speed ${SPEEDS.join(', ')}; ${owners.length} wallets (${owners.reduce((n, o) => n + o.loans, 0)} loans), seed ${SEED}; each run until ${MIN_LIQUIDATIONS} watched liquidations or ${MINUTES} min`,
  );
  const summaries: Summary[] = [];
  for (const speed of SPEEDS) {
    const runs = await runSpeed(
      speed,
      owners.map((o) => o.owner),
    );
    summaries.push(...runs.map(summarise));
    // Written after each speed: a later speed that fails keeps what the earlier ones measured.
    report(summaries, owners, code, Date.now() - began);
  }
  await cleanup();
  const missed = summaries.flatMap((s) => s.targets.filter((t) => !t.met));
  if (missed.length > 0) {
    console.log(`guard-soak: ${missed.length} targets missed`);
    process.exitCode = 1;
  }
}

try {
  await main();
} catch (err) {
  fail((err as Error).stack ?? String(err));
}
