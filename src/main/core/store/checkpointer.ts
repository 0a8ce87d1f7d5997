import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer copies what the WAL gained into the database file. */
export const CHECKPOINT_EVERY_MS = 250;

/**
 * The worker's whole program, evaluated as CommonJS (no file to bundle or ship beside the main
 * bundle): its own connection to the store, a PASSIVE checkpoint every `every` ms. A passive
 * checkpoint takes no writer lock, so the writer goes on appending while pages are copied.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
let failures = 0;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (err) {
    // busy or a full disk: the next turn tries again; the writer's own fallback covers a long outage
    if (++failures === 20) parentPort.postMessage({ failing: String(err && err.message || err) });
  }
}, workerData.every);
parentPort.on('message', (m) => {
  if (m !== 'close') return;
  clearInterval(timer);
  try { db.close(); } finally { parentPort.postMessage({ closed: true }); }
});
`;

/**
 * WAL checkpoints off the writer's thread (issue 12): with SQLite's automatic checkpoint the commit
 * that crosses the threshold copies ~16 MB into the file itself, a 50 ms stall every second under a
 * 5,000 events/s stream, felt by every alert behind it. Here a worker thread checkpoints every
 * 250 ms on its own connection and the writer's automatic checkpoint is raised to a far fallback
 * (64 MB of WAL: only if this worker stalls). `journal_size_limit` still trims the WAL file when
 * the writer restarts it.
 */
export class Checkpointer {
  private constructor(private readonly worker: Worker) {}

  /** Start one for the store file; undefined when a worker cannot be started (the writer keeps checkpointing). */
  static start(file: string, log: (line: string) => void = () => {}): Checkpointer | undefined {
    try {
      const module = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(PROGRAM, { eval: true, workerData: { file, module, every: CHECKPOINT_EVERY_MS } });
      worker.unref();
      worker.on('message', (m: { failing?: string }) => {
        if (m.failing) log(`store: WAL checkpoints keep failing (${m.failing}); the writer checkpoints itself`);
      });
      worker.on('error', (err) => log(`store: the checkpoint worker stopped (${err.message}); the writer checkpoints itself`));
      return new Checkpointer(worker);
    } catch (err) {
      log(`store: no checkpoint worker (${(err as Error).message}); the writer checkpoints itself`);
      return undefined;
    }
  }

  /** Stop: its connection closes before the writer's, which does the last checkpoint. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.once('exit', () => resolve());
      this.worker.once('error', () => resolve());
    });
    this.worker.postMessage('close');
    await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000).unref())]);
    await this.worker.terminate();
  }
}
