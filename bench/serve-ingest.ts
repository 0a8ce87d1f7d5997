/**
 * Catch-up ingest as the user gets it: `tidewatch serve` started as the CLI starts it, pointed at
 * a data service whose margin stream holds N events, measured from outside: the events per second
 * from the stream's first byte to the last row committed (read from the store by this process),
 * the CPU-seconds the serve process and its children spent meanwhile (/proc), and the bytes they
 * wrote per event (the checkpointer's included). Baselines in the same run: raw INSERTs 1,000 per
 * transaction into the same schema (the disk's ceiling here), and a plain client
 * (bench/plain-client.ts) measured from outside the same way. Beside them, how busy the
 * machine's cores were meanwhile (/proc/stat): whether a subject was held back by one of its
 * threads (cores left idle) or by the machine (every core busy).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../src/main/core/store/store';
import { marginEvent, startEventServer } from './event-server';
import { medianOf, printFigures, withSpread, type Figure } from './figures';
import { rawInsertBench, streamBench } from './ingest';
import { serveArgs, spawnServe } from './support';

const N = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const PLAIN = fileURLToPath(new URL('./plain-client.ts', import.meta.url));
const TICKS_PER_SECOND = 100;

/** A process and its descendants (the store's checkpointer), by /proc. */
function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of children ? children.split(' ') : []) out.push(...tree(Number(c)));
    }
  } catch {
    // gone
  }
  return out;
}

interface Usage {
  cpu: number;
  written: number;
}

/** CPU-seconds and bytes written so far by these processes (Linux /proc). */
function usage(pids: number[]): Usage {
  let cpu = 0;
  let written = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      written += Number(/write_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return { cpu, written };
}

/**
 * The machine's CPU time so far, busy and in all, in seconds (Linux /proc/stat): idle and I/O wait
 * are not busy; time the host gave its other guests (steal) is, as the cores were not free.
 */
function machineCpu(): { busy: number; total: number } {
  try {
    const [user, nice, system, idle, iowait, ...rest] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/ +/)
      .slice(1)
      .map(Number) as number[];
    const total = [user!, nice!, system!, idle!, iowait!, ...rest.slice(0, 3)].reduce((a, b) => a + b, 0);
    return { busy: (total - idle! - iowait!) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface IngestRun {
  rate: number;
  cpu: number;
  bytesPerEvent: number;
  /** The machine's cores busy meanwhile, on average (all processes). */
  coresBusy: number;
}

/** One subject (serve or the plain client) ingesting N events from a fresh service into a fresh store. */
async function measure(start: (url: string, dir: string) => Promise<ChildProcess>): Promise<IngestRun> {
  const server = await startEventServer(N);
  const dir = mkdtempSync(join(tmpdir(), 'tw-ingest-'));
  try {
    const spawnedAt = performance.now();
    const child = await start(server.url, dir);
    while (server.firstByteAt() === undefined) await sleep(2);
    const t0 = server.firstByteAt()!;
    let pids = tree(child.pid!);
    const before = usage(pids);
    const machineBefore = machineCpu();
    if (process.env['BENCH_DEBUG'])
      console.log(`start: ${(t0 - spawnedAt).toFixed(0)} ms to the stream, ${before.cpu.toFixed(2)} CPU-s`);
    // The last event is committed when the cursor, committed with the rows, reaches it: one row
    // read (a count of the rows took ~1 ms at 100,000, 40 times a second, on the same 2 cores).
    const last = marginEvent(N - 1).id;
    let reader: Store | undefined;
    let end = 0;
    while (end === 0) {
      await sleep(25);
      try {
        reader ??= Store.openReadOnly(dir);
        if (reader.margin.cursor() === last) end = performance.now();
      } catch {
        // the store is being created
      }
    }
    const machineAfter = machineCpu();
    if (reader?.margin.count() !== N)
      throw new Error(`the cursor reached the last event with ${reader?.margin.count()} of ${N} stored`);
    reader?.close();
    pids = [...new Set([...pids, ...tree(child.pid!)])];
    const after = usage(pids);
    // What the checkpointer copies into the file right after counts too.
    await sleep(1_000);
    const settled = usage(pids);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    return {
      rate: N / ((end - t0) / 1000),
      cpu: after.cpu - before.cpu,
      bytesPerEvent: (settled.written - before.written) / N,
      coresBusy:
        ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * cpus().length,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const serveSubject = async (url: string, dir: string): Promise<ChildProcess> => {
  const serve = await spawnServe('ingest', serveArgs(dir, url, 'bench', true));
  const topics = process.env['BENCH_SUBSCRIBE'];
  if (topics) {
    let pushes = 0;
    await serve.subscribe(`?topics=${topics}`, () => pushes++);
    serve.child.once('exit', () => console.log(`pushes received: ${pushes}`));
  }
  return serve.child;
};

const plainSubject = async (url: string, dir: string): Promise<ChildProcess> =>
  spawn(process.execPath, ['--import', 'tsx', PLAIN, url, dir, String(N)], { stdio: 'inherit' });

const PART = 'Catch-up ingest, 100,000 margin events of 405 bytes';

export async function serveIngestBench(): Promise<Figure[]> {
  console.log(`\n${PART} from a socket to committed rows, ${RUNS} runs each, in turn`);
  const raws: number[] = [];
  const plains: IngestRun[] = [];
  const serves: IngestRun[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raws.push(rawInsertBench(1000));
    plains.push(await measure(plainSubject));
    serves.push(await measure(serveSubject));
    inProcess.push(await streamBench(true));
  }
  const of = (runs: IngestRun[], k: keyof IngestRun): number[] => runs.map((r) => r[k]);
  const raw = medianOf(raws);
  const row = (name: string, runs: IngestRun[]): void =>
    console.log(
      `${name.padEnd(36)} ${withSpread(of(runs, 'rate'), 0, 'events/s')}  CPU ${withSpread(of(runs, 'cpu'), 2, 's')}  written ${withSpread(of(runs, 'bytesPerEvent'), 0, 'bytes/event')}  machine: ${withSpread(of(runs, 'coresBusy'), 2)} of ${cpus().length} cores busy`,
    );
  console.log(`${'raw INSERT, 1,000 per transaction'.padEnd(36)} ${withSpread(raws, 0, 'events/s')}`);
  row('plain client (own process)', plains);
  row('serve (started as the CLI starts it)', serves);
  console.log(`${'in process: the ingest alone'.padEnd(36)} ${withSpread(inProcess, 0, 'events/s')}`);
  const rate = medianOf(of(serves, 'rate'));
  const cpu = medianOf(of(serves, 'cpu'));
  const plainCpu = medianOf(of(plains, 'cpu'));
  const bytes = medianOf(of(serves, 'bytesPerEvent'));
  const figures: Figure[] = [
    {
      part: PART,
      name: "events per second into serve's store",
      value: `${withSpread(of(serves, 'rate'), 0)}; in process ${withSpread(inProcess, 0)}; meanwhile ${withSpread(of(serves, 'coresBusy'), 2)} of the machine's ${cpus().length} cores busy`,
      baseline: `raw INSERT, 1,000 a transaction: ${withSpread(raws, 0)}`,
      ratio: `${(rate / raw).toFixed(2)}x`,
      budget: '≥ 0.8x',
      met: rate >= 0.8 * raw,
    },
    {
      part: PART,
      name: 'CPU-seconds of serve and its children',
      value: withSpread(of(serves, 'cpu'), 2, 's'),
      baseline: `a plain client: ${withSpread(of(plains, 'cpu'), 2, 's')}`,
      ratio: `${(cpu / plainCpu).toFixed(2)}x`,
      budget: '≤ 1.3x',
      met: cpu <= 1.3 * plainCpu,
    },
    {
      part: PART,
      name: 'bytes written per event (the checkpointer counted)',
      value: withSpread(of(serves, 'bytesPerEvent'), 0),
      baseline: `a plain client: ${withSpread(of(plains, 'bytesPerEvent'), 0)}`,
      ratio: `${(bytes / medianOf(of(plains, 'bytesPerEvent'))).toFixed(2)}x`,
      budget: '≤ 2,000',
      met: bytes <= 2000,
    },
  ];
  printFigures(figures);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await serveIngestBench();
