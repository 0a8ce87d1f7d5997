import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { settledOrAfter } from '../wait';

/**
 * How often the checkpointer copies what the WAL gained into the database file: more often shortens
 * the alerts' worst waits and slows a catch-up's ingest (docs/operations.md, WAL checkpoints, has the
 * figures of 250 ms, 500 ms and a second).
 */
export const CHECKPOINT_EVERY_MS = 500;
/** The writer's own automatic checkpoint while a checkpointer runs: a far fallback (64 MB of WAL). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_384;

/**
 * The checkpointer's whole program (CommonJS, no file to bundle or ship): its own connection to
 * the store, a PASSIVE checkpoint every `every` ms. A passive checkpoint takes no writer lock, so
 * the writer goes on appending while pages are copied. `send` reports; `onClose` ends it.
 */
const BODY = `
const db = new (require(config.module))(config.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
if (config.check) {
  // The file's check, off the app's thread (Store.open): every page read once, its answer reported.
  let checked;
  try {
    checked = String(db.pragma('quick_check', { simple: true }));
  } catch (err) {
    checked = String((err && err.message) || err);
  }
  send({ checked });
}
let failures = 0;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (err) {
    // busy or a full disk: the next turn tries again; the writer's own fallback covers a long outage
    if (++failures === 20) send({ failing: String((err && err.message) || err) });
  }
}, config.every);
onClose(() => {
  clearInterval(timer);
  try { db.close(); } finally { send({ closed: true }); done(); }
});
`;

/** As a child process: config in argv, reports on stdout, ends when its stdin does (also when the app dies). */
const AS_PROCESS = `
const config = JSON.parse(process.argv[1]);
const send = (m) => { try { process.stdout.write(JSON.stringify(m) + '\\n'); } catch {} };
const onClose = (f) => { process.stdin.on('end', f); process.stdin.on('error', f); process.stdin.resume(); };
const done = () => process.exit(0);
${BODY}`;

/** As a worker thread (inside Electron, where the app may not start itself as Node). */
const AS_WORKER = `
const { parentPort, workerData: config } = require('node:worker_threads');
const send = (m) => parentPort.postMessage(m);
const onClose = (f) => parentPort.on('message', (m) => { if (m === 'close') f(); });
const done = () => {};
${BODY}`;

const failingLine = (why: string): string =>
  `store: WAL checkpoints keep failing (${why}); the writer checkpoints itself`;

interface Runner {
  /** The checkpointing process, when it is one (benchmarks count its writes). */
  pid?: number;
  close(): Promise<void>;
}

/** What the checkpointer reports: its checkpoints keep failing, or the file's check's answer ('ok' or what is wrong). */
interface Report {
  failing?: string;
  checked?: string;
}

function onReport(m: Report, log: (line: string) => void, checked?: (answer: string) => void): void {
  if (m.failing) log(failingLine(m.failing));
  if (m.checked !== undefined) checked?.(m.checked);
}

function asProcess(config: object, log: (line: string) => void, checked?: (answer: string) => void): Runner {
  // Without the parent's NODE_OPTIONS (no module hooks to share or deadlock with, as a first attempt did).
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const child: ChildProcess = spawn(process.execPath, ['-e', AS_PROCESS, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env,
    windowsHide: true,
  });
  child.unref();
  for (const s of [child.stdin, child.stdout] as Array<{ unref?: () => void } | null>) s?.unref?.();
  let closed = false;
  // Reports are JSON lines; a chunk may end mid-line, and a line that does not parse is ignored.
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let m: Report;
      try {
        m = JSON.parse(line) as Report;
      } catch {
        return; // not a report
      }
      onReport(m, log, checked);
    });
  }
  child.stdin?.on('error', () => {});
  child.on('error', (err) =>
    log(`store: the checkpointer did not start (${err.message}); the writer checkpoints itself`),
  );
  child.on('exit', (code) => {
    if (!closed && code !== 0)
      log(`store: the checkpointer stopped (exit ${String(code)}); the writer checkpoints itself`);
  });
  return {
    pid: child.pid,
    async close() {
      closed = true;
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function asWorker(config: object, log: (line: string) => void, checked?: (answer: string) => void): Runner {
  const worker = new Worker(AS_WORKER, { eval: true, workerData: config });
  worker.unref();
  worker.on('message', (m: Report) => onReport(m, log, checked));
  worker.on('error', (err) => log(`store: the checkpointer stopped (${err.message}); the writer checkpoints itself`));
  return {
    async close() {
      const closed = new Promise<void>((resolve) => {
        worker.on('message', (m: { closed?: boolean }) => m.closed === true && resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('close');
      await settledOrAfter(closed, 2_000);
      await worker.terminate();
    },
  };
}

/**
 * WAL checkpoints off the writer's thread (docs/operations.md, WAL checkpoints): with SQLite's automatic checkpoint, the
 * commit that crosses the threshold copies the WAL (~16 MB) into the file itself, a stall about
 * once a second under a busy stream, felt by every alert behind it. Here another process (a
 * worker thread inside Electron) checkpoints every half second on its own connection and the writer's
 * automatic checkpoint becomes a far fallback. Under Node it is a child process because a worker
 * thread shares the command line's module hooks (tsx), and that deadlocked `serve`'s start
 * (nodejs/node#50948); the child ends when its stdin does, so a killed app leaves none behind.
 */
export class Checkpointer {
  private constructor(private readonly runner: Runner) {}

  /**
   * Start one for the store file; undefined when none can be started (the writer keeps
   * checkpointing). `onTrouble` hears, in one line, that it did not start, stopped, or that its
   * checkpoints keep failing: the caller then checkpoints in the writer again. `as` chooses the
   * kind (tests); by default a thread inside Electron, else a process. Given `checked`, it first
   * runs the file's `quick_check` on its own connection and hands over the answer ('ok', or what
   * is wrong); its checkpoints begin after that.
   */
  static start(
    file: string,
    onTrouble: (line: string) => void = () => {},
    as?: 'process' | 'thread',
    checked?: (answer: string) => void,
  ): Checkpointer | undefined {
    try {
      const config = {
        file,
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        every: CHECKPOINT_EVERY_MS,
        check: checked !== undefined,
      };
      const thread = (as ?? (process.versions['electron'] ? 'thread' : 'process')) === 'thread';
      return new Checkpointer(thread ? asWorker(config, onTrouble, checked) : asProcess(config, onTrouble, checked));
    } catch (err) {
      onTrouble(`store: no checkpointer (${(err as Error).message}); the writer checkpoints itself`);
      return undefined;
    }
  }

  /** The checkpointing child process (undefined inside Electron, where it is a thread). */
  get pid(): number | undefined {
    return this.runner.pid;
  }

  /** Stop: its connection closes before the writer's, which does the last checkpoint. */
  close(): Promise<void> {
    return this.runner.close();
  }
}
