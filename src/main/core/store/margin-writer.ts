import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { IncomingMarginEvent, MarginEventRepo } from './margin-events';
import { settledOrAfter } from '../wait';
import { InlineCommitter, StoreWriteError, type MarginCommitter } from './margin-committer';
import type { WriterData, WriterReply, WriterRequest } from './margin-writer-thread';

const THREAD = 'margin-writer-thread';
/**
 * The thread starts this long after the store opens: its start (a module load, SQLite, its own
 * connection) made a first start's Portfolio answer later (docs/operations.md, Commits on a thread
 * of their own, has the figures); until then batches are committed in the calling thread.
 */
export const WRITER_START_DELAY_MS = 2_000;
/**
 * A batch this large is a catch-up (the group commit closes a batch at 5,000 rows or 5 ms; a live
 * stream's are tens): committed in the calling thread when nothing is in flight. Handing it over
 * buys nothing there (an event in a backlog waits for the backlog, not for a commit) and costs
 * ingest speed and memory: the copy of every batch to the thread, its heap and page cache in use
 * (docs/operations.md, Commits on a thread of their own, has the figures).
 */
export const CATCH_UP_BATCH = 1_000;
/**
 * A catch-up commits in the calling thread whatever happens, so the thread starts only once no
 * catch-up batch came for this long: its start (tsx and its modules from the sources, its own
 * heap and connection) added memory and a core's worth of work in the middle of a catch-up it
 * takes no part in (docs/operations.md, Commits on a thread of their own).
 */
export const CATCH_UP_QUIET_MS = 1_000;
/** Events handed to the thread and not yet answered, at which the reader waits, and down to which. */
export const WRITER_HIGH_WATER = 4_000;
const WRITER_LOW_WATER = 1_000;

/**
 * The thread's program. From the TypeScript sources (`serve`, tests, benchmarks) the thread
 * registers tsx itself (module hooks registered on the main thread are not a worker's); built
 * (Electron) it is its own entry beside the main bundle (electron.vite.config.ts). The name is
 * not a literal in `new URL`, which bundlers would try to resolve at build time.
 */
function spawn(data: WriterData): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = createRequire(here).resolve('tsx/esm/api');
    const entry = new URL(`./${THREAD}.ts`, here).href;
    return new Worker(`require(${JSON.stringify(tsx)}).register(); import(${JSON.stringify(entry)});`, {
      eval: true,
      workerData: data,
    });
  }
  return new Worker(new URL(`./${THREAD}.js`, here), { workerData: data });
}

interface Waiting {
  events: IncomingMarginEvent[];
  resolve(fresh: IncomingMarginEvent[]): void;
  reject(err: Error): void;
}

/**
 * The margin stream's commits on a thread of their own (docs/operations.md, Commits on a thread of
 * their own): a commit is a WAL append of a fraction of a millisecond that now and then takes tens
 * of milliseconds; on the thread that reads the stream every liquidation behind it waited that long
 * to be alerted. Here the reading thread hands a batch over and goes on; the thread commits batches
 * in order on its own connection and answers which events were new. Should the thread stop, what
 * it had not answered is failed (the stream's failure path writes it again) and every later batch
 * is committed in the calling thread, on the app's connection.
 */
export class MarginWriter implements MarginCommitter {
  private n = 0;
  private readonly waiting = new Map<number, Waiting>();
  private idleWaiters: Array<() => void> = [];
  /** Events in `waiting`. */
  private inFlight = 0;
  private caughtUp: { promise: Promise<void>; resolve(): void } | undefined;
  private gone: string | null = null;
  private closing: Promise<void> | undefined;
  private readonly fallback: InlineCommitter;
  private started = false;
  /** The thread failed a commit and has not been told to resume: it writes nothing, and neither does this thread. */
  private threadFailed = false;
  /** Resolves true once the thread answers, false if it never does (commits stay in the calling thread). */
  readonly ready: Promise<boolean>;

  private worker: Worker | undefined;
  private timer: NodeJS.Timeout;
  /** When the last catch-up batch was committed in the calling thread (performance.now()). */
  private lastCatchUp = Number.NEGATIVE_INFINITY;
  /** Settings and notes handed over before the thread exists: it gets them first. */
  private readonly early: WriterRequest[] = [];

  private constructor(
    data: WriterData,
    repo: MarginEventRepo,
    private readonly log: (line: string) => void,
    delayMs: number,
  ) {
    this.fallback = new InlineCommitter(repo);
    let settle!: (started: boolean) => void;
    this.ready = new Promise((resolve) => (settle = resolve));
    const start = (): void => {
      if (this.gone !== null) return settle(false);
      const quiet = performance.now() - this.lastCatchUp;
      if (quiet < CATCH_UP_QUIET_MS) {
        this.timer = setTimeout(start, CATCH_UP_QUIET_MS - quiet);
        this.timer.unref();
        return;
      }
      try {
        this.attach(spawn(data), settle);
      } catch (err) {
        this.stopped(`the margin writer thread did not start (${(err as Error).message})`);
        settle(false);
      }
    };
    this.timer = setTimeout(start, delayMs);
    this.timer.unref();
  }

  /** One for the store file, started after `delayMs` (WRITER_START_DELAY_MS); until it answers, commits stay in the calling thread. */
  static start(
    file: string,
    autocheckpointPages: number,
    repo: MarginEventRepo,
    log: (line: string) => void = () => {},
    delayMs = WRITER_START_DELAY_MS,
  ): MarginWriter {
    return new MarginWriter({ file, autocheckpointPages }, repo, log, delayMs);
  }

  private attach(worker: Worker, settle: (started: boolean) => void): void {
    this.worker = worker;
    worker.unref();
    for (const m of this.early.splice(0)) worker.postMessage(m);
    worker.once('message', (m: WriterReply) => settle((this.started = m.kind === 'ready')));
    worker.once('exit', () => settle(false));
    worker.on('message', (m: WriterReply) => this.onReply(m));
    worker.on('error', (err) => this.stopped(`the margin writer thread failed (${err.message})`));
    worker.on('exit', (code) => this.stopped(`the margin writer thread exited (${code})`));
  }

  /**
   * Until the thread has started (loading its modules takes a moment a first start should not
   * wait for, and it waits for a catch-up to end: CATCH_UP_QUIET_MS), after it stopped, while a
   * commit in the calling thread has failed, and for a catch-up's batch (CATCH_UP_BATCH) while
   * nothing is in flight and no failed thread commit awaits `resume`, batches are committed in
   * the calling thread. Nothing is in flight at a
   * switch: those commits finish before they return.
   */
  commit(events: IncomingMarginEvent[]): Promise<IncomingMarginEvent[]> {
    const catchUp = events.length >= CATCH_UP_BATCH && this.waiting.size === 0 && !this.threadFailed;
    if (events.length >= CATCH_UP_BATCH) this.lastCatchUp = performance.now();
    if (this.gone !== null || !this.started || this.fallback.stopped || catchUp) return this.fallback.commit(events);
    const n = ++this.n;
    this.inFlight += events.length;
    return new Promise((resolve, reject) => {
      this.waiting.set(n, { events, resolve, reject });
      this.post({ kind: 'commit', n, events, now: Date.now() });
    });
  }

  resume(): void {
    this.threadFailed = false;
    if (this.gone === null) this.post({ kind: 'resume' });
    this.fallback.resume();
  }

  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  room(): Promise<void> | undefined {
    if (this.inFlight < WRITER_HIGH_WATER) return undefined;
    if (!this.caughtUp) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.caughtUp = { promise, resolve };
    }
    return this.caughtUp.promise;
  }

  pragma(text: string): void {
    if (this.gone === null) this.post({ kind: 'pragma', text });
  }

  ownersNoted(managers: string[]): void {
    if (this.gone === null) this.post({ kind: 'owners', managers });
  }

  /** Its connection closes before the app's, which then does the last checkpoint. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.timer);
      await this.idle();
      const worker = this.worker;
      if (this.gone !== null || !worker) {
        this.gone ??= 'closed';
        return;
      }
      const closed = new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.on('message', (m: WriterReply) => m.kind === 'closed' && resolve());
      });
      this.gone = 'closed';
      this.post({ kind: 'close' });
      await settledOrAfter(closed, 2_000);
      await worker.terminate();
    })();
    return this.closing;
  }

  private post(m: WriterRequest): void {
    if (this.worker) this.worker.postMessage(m);
    else this.early.push(m);
  }

  private onReply(m: WriterReply): void {
    if (m.kind === 'ready' || m.kind === 'closed') return;
    const w = this.waiting.get(m.n);
    if (!w) return;
    this.forget(m.n, w);
    if (m.kind === 'committed') w.resolve(m.fresh.map((i) => w.events[i]!));
    else if (m.kind === 'failed') {
      this.threadFailed = true;
      w.reject(new StoreWriteError(m.reason, m.code, m.message));
    } else w.reject(new StoreWriteError(m.reason, 'SKIPPED', 'not written: an earlier batch failed'));
    this.settled();
  }

  private stopped(why: string): void {
    if (this.gone !== null) return;
    this.gone = why;
    this.log(`store: ${why}; the margin stream commits on the main thread from now on`);
    for (const [n, w] of this.waiting) {
      this.forget(n, w);
      w.reject(new StoreWriteError(`cannot write to the store: ${why}`, 'THREAD', why));
    }
    this.settled();
  }

  private forget(n: number, w: Waiting): void {
    this.waiting.delete(n);
    this.inFlight -= w.events.length;
    if (this.caughtUp && this.inFlight <= WRITER_LOW_WATER) {
      this.caughtUp.resolve();
      this.caughtUp = undefined;
    }
  }

  private settled(): void {
    if (this.waiting.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
