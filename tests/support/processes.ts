import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { World } from '../../src/sim';
import { until } from './monitor';

export const BIN = fileURLToPath(new URL('../../bin/tidewatch.js', import.meta.url));

/** A process of the command line, its output collected; TIDEWATCH_STRICT=1 makes any unhandled error end it. */
export interface CliProcess {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Wait until stdout matches, and return the first group. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited(): boolean;
}

export function startCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TIDEWATCH_STRICT: '1', ...env },
  });
  let out = '';
  let err = '';
  let exited = false;
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  child.on('exit', () => (exited = true));
  return {
    child,
    out: () => out,
    err: () => err,
    exited: () => exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      await until(() => pattern.test(out) || exited, timeoutMs, `${pattern} from ${args[0]}`);
      const m = pattern.exec(out);
      if (!m) throw new Error(`${args[0]} exited before printing ${pattern}:\n${out}\n${err}`);
      return m[1] ?? m[0];
    },
  };
}

/** Run the command line to its end without blocking this process (a sim in it keeps answering). */
export async function runCli(
  args: string[],
  o: { env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startCli(args, o.env);
  const code = await new Promise<number | null>((resolve) => p.child.once('exit', (c) => resolve(c)));
  return { code, stdout: p.out(), stderr: p.err() };
}

/** A free loopback port (to restart a service on the same address). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The contract of a running `serve`, called the way a program does (header token). */
export function serveApi(pageUrl: string): {
  invoke(method: string, args?: unknown): Promise<{ status: number; body: any; ms: number }>;
} {
  const u = new URL(pageUrl);
  const token = u.searchParams.get('token')!;
  return {
    async invoke(method, args = {}) {
      const start = Date.now();
      const res = await fetch(`${u.origin}/api/invoke/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tidewatch-token': token, origin: u.origin },
        body: JSON.stringify(args),
      });
      const body = await res.json().catch(() => undefined);
      return { status: res.status, body, ms: Date.now() - start };
    },
  };
}

/** Processes a test started: SIGKILLed at its end, whatever state they are in. */
export class Processes {
  readonly all: CliProcess[] = [];

  start(args: string[], env: Record<string, string> = {}): CliProcess {
    const p = startCli(args, env);
    this.all.push(p);
    return p;
  }

  /** What every one of them printed, stdout and stderr (to look for a secret). */
  output(): string {
    return this.all.map((p) => p.err() + p.out()).join('');
  }

  killAll(): void {
    for (const p of this.all) if (!p.exited()) p.child.kill('SIGKILL');
  }
}

/**
 * The Demo network as a process of its own on a fixed port and anchor, so that one killed and
 * started again serves the same chain and event ids on the same address (outage tests).
 */
export async function simProcess(
  processes: Processes,
  o: { key: string; seed: number; speed: number },
): Promise<{ base: string; anchor: number; start(): Promise<CliProcess> }> {
  const port = await freePort();
  const anchor = Date.now();
  const args = [
    'sim',
    '--port',
    String(port),
    '--api-key',
    o.key,
    '--seed',
    String(o.seed),
    '--anchor-ms',
    String(anchor),
    '--speed',
    String(o.speed),
  ];
  const start = async (): Promise<CliProcess> => {
    const sim = processes.start(args);
    await sim.waitFor(/listening on (\S+)/);
    return sim;
  };
  const first = await start();
  return { base: await first.waitFor(/listening on (\S+)/), anchor, start };
}

/**
 * The outage tests' start: the Demo network as a process of its own (`simProcess`), and `serve`
 * on it watching its first three margin owners, `--history`, with `extra` arguments; resolves once
 * serve's margin stream is open.
 */
export async function watchingServe(
  processes: Processes,
  o: { key: string; seed: number; speed: number; dataDir: string; extra?: string[]; env?: Record<string, string> },
): Promise<{
  demo: Awaited<ReturnType<typeof simProcess>>;
  sim: CliProcess;
  serve: CliProcess;
  api: ReturnType<typeof serveApi>;
  owners: string[];
  marginState(): Promise<string | undefined>;
}> {
  const demo = await simProcess(processes, o);
  const sim = processes.all[processes.all.length - 1]!;
  const owners = new World({ seed: o.seed, nowMs: demo.anchor }).describe().marginOwners.slice(0, 3);
  const serve = processes.start(
    [
      'serve',
      '--port',
      '0',
      '--data-dir',
      o.dataDir,
      '--base-url',
      demo.base,
      '--stream-url',
      demo.base,
      '--api-key',
      o.key,
      '--history',
      ...(o.extra ?? []),
      ...owners.flatMap((owner) => ['--watch', owner]),
    ],
    o.env,
  );
  const api = serveApi(await serve.waitFor(/running at (\S+)/));
  const marginState = async (): Promise<string | undefined> =>
    ((await api.invoke('streamStatus')).body.result.streams as Array<{ id: string; state: string }>).find(
      (s) => s.id === 'margin',
    )?.state;
  await until(async () => (await marginState()) === 'open', 60_000, 'margin stream open');
  return { demo, sim, serve, api, owners, marginState };
}
