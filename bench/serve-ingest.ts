/**
 * Catch-up ingest as the user gets it: `tidewatch serve` started as the CLI starts it, pointed at
 * a data service whose margin stream holds N events, measured from outside: the events per second
 * from the stream's first byte to the last row committed (read from the store by this process),
 * and the CPU-seconds and bytes written of every process serve runs (itself, its checkpointer,
 * tsx's compiler: its whole process tree) from the stream's first byte until, stopped after the
 * last row, all of them have exited, so the checkpoints after the last commit and the last one at
 * exit count too. Baselines in the same run: raw INSERTs 1,000 per transaction into the same
 * schema (the disk's ceiling here), and a plain client (bench/plain-client.ts) measured from
 * outside the same way. Beside them, how busy the machine's cores were meanwhile (/proc/stat):
 * whether a subject was held back by one of its threads (cores left idle) or by the machine
 * (every core busy).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** A process and its descendants (the store's checkpointer, tsx's compiler), by /proc. */
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

const writeBytes = (path: string): number =>
  Number(/write_bytes: (\d+)/.exec(readFileSync(path, 'utf8'))?.[1] ?? Number.NaN);

/** The fields of /proc/<pid>/stat after the command's name: [0] is field 3 (state). */
const statOf = (pid: number | 'self'): string[] => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/**
 * A live process's CPU-seconds and bytes written so far, those of the children it has reaped
 * included (the kernel adds a reaped child's to its parent's: cutime, cstime and /proc/PID/io),
 * with its start time, which tells it from a later process given the same pid. Undefined when gone.
 */
function processUsage(pid: number): (Usage & { started: string }) | undefined {
  try {
    const f = statOf(pid);
    const cpu = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND;
    return { cpu, written: writeBytes(`/proc/${pid}/io`), started: f[19]! };
  } catch {
    return undefined;
  }
}

/**
 * What the children this process has reaped used in all (its own threads' writes taken out):
 * the difference across a child's exit is that child's whole tree, every process under it that
 * was reaped, however short-lived.
 */
function reapedUsage(): Usage {
  const f = statOf('self');
  let own = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      own += writeBytes(`/proc/self/task/${task}/io`);
    } catch {
      // the thread ended
    }
  }
  return {
    cpu: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND,
    written: writeBytes('/proc/self/io') - own,
  };
}

/**
 * A process as a person would name it: its title (`tidewatch serve`), or for an untitled Node
 * its script (`node plain-client.ts`; `node -e` for the checkpointer, whose program is inline).
 */
function nameOf(pid: number): string {
  try {
    const title = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    if (title !== 'MainThread' && title !== 'node') return title;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1);
    const script = args.find((a, i) => a === '-e' || (!a.startsWith('-') && args[i - 1] !== '--import'));
    return `node ${script === '-e' ? '-e' : basename(script ?? '')}`.trim();
  } catch {
    return 'gone';
  }
}

/**
 * Every process of a subject's tree, counted until all have exited: the tree as it stands when
 * counting starts, then, once the subject is stopped, what its exit handed this process (its own
 * and all it reaped) and what the processes it left behind (tsx's compiler) used.
 */
class TreeMeter {
  /** Every process seen in the tree, by pid, with its start time. */
  private readonly seen = new Map<number, string>();
  private start: Usage = { cpu: 0, written: 0 };

  constructor(private readonly root: ChildProcess) {}

  /** Note the processes in the tree now (one started late counts from its start). */
  look(): void {
    for (const pid of tree(this.root.pid!)) {
      const u = processUsage(pid);
      if (u && !this.seen.has(pid)) this.seen.set(pid, u.started);
    }
  }

  /** Counting starts now; answers what the tree had used before. */
  begin(): Usage {
    this.look();
    this.start = this.sum([...this.seen.keys()]);
    return this.start;
  }

  /** What the processes running now used since `begin` (those that ended are missing). */
  running(): Usage {
    this.look();
    const now = this.sum([...this.seen.keys()]);
    return { cpu: now.cpu - this.start.cpu, written: now.written - this.start.written };
  }

  /** Stop the subject, wait for its exit, and answer what its tree used since `begin`. */
  async stop(): Promise<Usage & { processes: string[] }> {
    this.look();
    const names = [...this.seen.keys()].map(nameOf);
    if (this.root.exitCode !== null || this.root.signalCode !== null)
      throw new Error(`the subject exited before it was stopped (${this.root.exitCode ?? this.root.signalCode})`);
    const before = reapedUsage();
    const exited = once(this.root, 'exit');
    this.root.kill('SIGTERM');
    await exited;
    const after = reapedUsage();
    // Those left running without their parent were reaped by nobody here: read them where they are.
    const rest = this.sum([...this.seen.keys()].filter((pid) => pid !== this.root.pid));
    return {
      cpu: after.cpu - before.cpu + rest.cpu - this.start.cpu,
      written: after.written - before.written + rest.written - this.start.written,
      processes: names,
    };
  }

  private sum(pids: number[]): Usage {
    let cpu = 0;
    let written = 0;
    for (const pid of pids) {
      const u = processUsage(pid);
      if (u?.started !== this.seen.get(pid)) continue;
      cpu += u!.cpu;
      written += u!.written;
    }
    return { cpu, written };
  }
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
  /** CPU-seconds of the subject's whole process tree, from the stream's first byte until all exited. */
  cpu: number;
  /** Bytes its tree wrote per event over the same time. */
  bytesPerEvent: number;
  /** The processes counted (their names). */
  processes: string[];
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
    const meter = new TreeMeter(child);
    const before = meter.begin();
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
      meter.look();
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
    const atLastRow = meter.running();
    // Stopped as a user stops it: what it does after the last row (checkpoints, its last at exit) counts.
    const all = await meter.stop();
    if (process.env['BENCH_DEBUG'])
      console.log(
        `until the last row, processes still running: ${atLastRow.cpu.toFixed(2)} CPU-s, ${(atLastRow.written / N).toFixed(0)} bytes/event; ` +
          `until all exited: ${all.cpu.toFixed(2)} CPU-s, ${(all.written / N).toFixed(0)} bytes/event (${all.processes.join(', ')})`,
      );
    return {
      rate: N / ((end - t0) / 1000),
      cpu: all.cpu,
      bytesPerEvent: all.written / N,
      processes: all.processes,
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

const PART = `Catch-up ingest, ${N.toLocaleString('en-US')} margin events of 405 bytes`;

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
  const of = (runs: IngestRun[], k: Exclude<keyof IngestRun, 'processes'>): number[] => runs.map((r) => r[k]);
  /** How many processes each run counted, and their names. */
  const counted = (runs: IngestRun[]): string =>
    `${withSpread(
      runs.map((r) => r.processes.length),
      0,
    )} (${[...new Set(runs.flatMap((r) => r.processes))].join(', ')})`;
  const raw = medianOf(raws);
  const row = (name: string, runs: IngestRun[]): void =>
    console.log(
      `${name.padEnd(36)} ${withSpread(of(runs, 'rate'), 0, 'events/s')}  CPU ${withSpread(of(runs, 'cpu'), 2, 's')}  written ${withSpread(of(runs, 'bytesPerEvent'), 0, 'bytes/event')}  processes ${counted(runs)}  machine: ${withSpread(of(runs, 'coresBusy'), 2)} of ${cpus().length} cores busy`,
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
      name: "CPU-seconds of serve's process tree, first byte to exit",
      value: `${withSpread(of(serves, 'cpu'), 2, 's')}; processes ${counted(serves)}`,
      baseline: `a plain client's tree: ${withSpread(of(plains, 'cpu'), 2, 's')}`,
      ratio: `${(cpu / plainCpu).toFixed(2)}x`,
      budget: '≤ 1.3x',
      met: cpu <= 1.3 * plainCpu,
    },
    {
      part: PART,
      name: "bytes written per event by serve's process tree, first byte to exit",
      value: withSpread(of(serves, 'bytesPerEvent'), 0),
      baseline: `a plain client's tree: ${withSpread(of(plains, 'bytesPerEvent'), 0)}`,
      ratio: `${(bytes / medianOf(of(plains, 'bytesPerEvent'))).toFixed(2)}x`,
      budget: '≤ 2,000',
      met: bytes <= 2000,
    },
  ];
  printFigures(figures);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await serveIngestBench();
