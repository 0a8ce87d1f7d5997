import { NAMING_PROFILES } from '../src/main/core/client/naming';
import type { Store } from '../src/main/core/store/store';
import { MarginStream } from '../src/main/core/streams/margin-stream';
import { StreamSupervisor } from '../src/main/core/streams/supervisor';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { Figure } from './figures';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The commit a soak's `serve` runs (it runs from the sources), and the source files changed since. */
export function codeMeasured(): string {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const head = git('log', '-1', '--format=%h');
    // Each line is "XY path": the whole output trimmed would cut the first line's path instead.
    const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'bench')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^\s*\S+\s+/, ''));
    return `commit ${head}${dirty.length > 0 ? ` with uncommitted changes to ${dirty.join(', ')}` : ''}`;
  } catch {
    return 'a tree git cannot describe';
  }
}

/** Start `tidewatch sim` in its own process (so load and server do not share a core). */
export async function spawnSim(args: string[]): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'sim', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
  });
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The `count` wallets of the Demo network (seed `seed`) with the most open loans, by `sim
 * --describe`: what the soaks watch. `track` is handed the child (a soak stops it on every way out).
 * `marginOwners`: the Demo network's `--margin-owners` (a desk of many wallets), default its own.
 */
export async function busiestWallets(
  seed: number,
  count: number,
  track: (child: ChildProcess) => void = () => {},
  marginOwners?: number,
): Promise<Array<{ owner: string; loans: number }>> {
  const desk = marginOwners === undefined ? [] : ['--margin-owners', String(marginOwners)];
  const child = spawn(process.execPath, [BIN, 'sim', '--describe', '--seed', String(seed), ...desk], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise((r) => child.once('exit', r));
  const owners = (JSON.parse(out) as { owners: Array<{ owner: string; loans: number }> }).owners;
  return owners
    .filter((o) => o.loans > 0)
    .sort((a, b) => b.loans - a.loans)
    .slice(0, count);
}

/** `serve`'s arguments for a store in `dir` reading the service at `url` (REST and streams) with `key`. */
export function serveArgs(dir: string, url: string, key: string, history: boolean): string[] {
  return [
    '--data-dir',
    dir,
    '--base-url',
    url,
    '--stream-url',
    url,
    '--api-key',
    key,
    history ? '--history' : '--no-history',
  ];
}

/** A `tidewatch serve` of its own: its URL, a caller of its HTTP API, and how many log lines it wrote. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  call<T>(method: string, args?: object): Promise<T>;
  /** A call, with the time serve says it took in its `Server-Timing` header (ms). */
  timed<T>(method: string, args?: object): Promise<{ result: T; serveMs: number }>;
  /** Subscribe to a topic's pushes over SSE, as the page does; `onPush` gets each push's data text. Resolves once open. */
  subscribe(topic: string, onPush: (data: string) => void): Promise<() => void>;
  logLines(): number;
}

/** Start `tidewatch serve` as the CLI starts it (`args` after `serve`), and wait for its URL. */
export async function spawnServe(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // BENCH_SERVE_NODE_OPTIONS: Node options for serve alone (`--cpu-prof --cpu-prof-dir=DIR` to profile it).
    env: {
      ...process.env,
      ...(process.env['BENCH_SERVE_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['BENCH_SERVE_NODE_OPTIONS'] } : {}),
      ...env,
    },
  });
  let err = '';
  let lines = 0;
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d).slice(-4000);
    for (const b of d) if (b === 10) lines++;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve ${name} exited (${code}):\n${err}`)));
  });
  const u = new URL(url);
  const token = u.searchParams.get('token')!;
  const timed = async <T>(method: string, a: object = {}): Promise<{ result: T; serveMs: number }> => {
    const res = await fetch(`${u.origin}/api/invoke/${method}`, {
      method: 'POST',
      headers: { 'x-tidewatch-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(a),
    });
    const body = (await res.json()) as { result: T; error?: { message: string } };
    if (!res.ok) throw new Error(`${name} ${method}: ${body.error?.message}`);
    const serveMs = Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN);
    return { result: body.result, serveMs };
  };
  const call = async <T>(method: string, a: object = {}): Promise<T> => (await timed<T>(method, a)).result;
  const subscribe = (topic: string, onPush: (data: string) => void): Promise<() => void> =>
    new Promise((resolve, reject) => {
      const parser = createParser({ onEvent: (e) => onPush(e.data) });
      const req = request(
        `${u.origin}/api/subscribe/${topic}`,
        { headers: { 'x-tidewatch-token': token, accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`${name} subscribe ${topic}: ${res.statusCode}`));
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => parser.feed(chunk));
          resolve(() => req.destroy());
        },
      );
      req.on('error', () => {});
      req.end();
    });
  return { child, url, call, timed, subscribe, logLines: () => lines };
}

/** Keep-alive GET load from `connections` concurrent loops for `seconds`; requests per second. */
export async function load(
  url: string,
  connections: number,
  seconds: number,
): Promise<{ rps: number; errors: number; statuses: Set<number> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const statuses = new Set<number>();
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = request(url, { agent }, (res) => {
        statuses.add(res.statusCode ?? 0);
        res.resume();
        res.on('end', () => {
          done++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const start = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return { rps: done / ((Date.now() - start) / 1000), errors, statuses };
}

export function rssOf(pid: number): number {
  // VmRSS in kB from /proc (Linux); 0 elsewhere.
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The margin stream from `url` into `store` through the monitor's own ingest (SSE, parse, validate,
 * group commit with the cursor) until `count` events are committed; `onBatch` sees each commit.
 */
export async function ingestInto(
  url: string,
  store: Store,
  count: number,
  onBatch: (size: number) => void = () => {},
): Promise<void> {
  const sup = new StreamSupervisor({ budget: 1, redact: (s) => s });
  let seen = 0;
  await new Promise<void>((resolve) => {
    const ingest = new MarginStream(
      {
        repo: store.margin,
        writer: store.marginWriter,
        naming: () => NAMING_PROFILES.spec,
        urlFor: () => url,
        firstStart: () => '0',
      },
      {
        received() {},
        committed(events) {
          onBatch(events.length);
          seen += events.length;
          if (seen >= count) resolve();
        },
        storeChanged(reason) {
          if (reason) throw new Error(reason);
        },
        opened() {},
      },
    );
    sup.add(ingest);
  });
  sup.stopAll();
}

/** How a part run as its own process hands its budgets back: one JSON line after this. */
const BUDGETS_MARKER = 'budgets:';

/** In a part run by `partInOwnProcess`: its budgets, for the parent. */
export function reportBudgets(results: Figure[]): void {
  console.log(`${BUDGETS_MARKER}${JSON.stringify(results)}`);
}

/**
 * A benchmark part (`bench/part-process.ts`, by name) run as its own Node process, with
 * --expose-gc and tsx as `npm run bench`: its table goes to this process's output as it is
 * printed, its budgets (`reportBudgets`) come back.
 */
export async function partInOwnProcess(name: string): Promise<Figure[]> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./part-process.ts', import.meta.url)), name],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let budgets: Figure[] | undefined;
  let line = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    const lines = (line + text).split('\n');
    line = lines.pop()!;
    for (const l of lines) {
      if (l.startsWith(BUDGETS_MARKER)) budgets = JSON.parse(l.slice(BUDGETS_MARKER.length)) as Figure[];
      else process.stdout.write(`${l}\n`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (line) process.stdout.write(`${line}\n`);
  return (
    budgets ?? [
      {
        part: name,
        name: `the ${name} part`,
        value: `did not finish (exit ${code})`,
        baseline: '',
        ratio: '',
        budget: 'finishes',
        met: false,
      },
    ]
  );
}
