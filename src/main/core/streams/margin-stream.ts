import type { EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { MarginEventSchema, quickCheck } from '../../../shared/api';
import type { NamingProfile } from '../client/naming';
import type { IncomingMarginEvent, MarginEventRepo } from '../store/margin-events';
import { formatBytes } from '../client/body';
import { describeStoreError } from '../store/store-errors';
import { GroupCommit, type BatchCommitter } from './group-commit';
import { InlineCommitter, StoreWriteError, type MarginCommitter } from '../store/margin-committer';
import { oversizeOf, SSE_EVENT_MAX_CHARS } from './sse-guard';
import type { StreamSpec } from './supervisor';
import { settledOrAfter } from '../wait';

const marginEventValid = quickCheck(MarginEventSchema);

/** A number, or a numeric string as some services send them; null otherwise. */
const num = (x: unknown): number | null =>
  typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : null;

/**
 * Turn one SSE message of the margin stream into a row, keeping even what fails validation (nothing is
 * lost); with it, its `data` as parsed (undefined when it is not JSON), so what reads the event at
 * once does not parse it again.
 */
export function readIncoming(
  m: EventSourceMessage,
  naming: NamingProfile,
): { event: IncomingMarginEvent; data: unknown } {
  const oversize = oversizeOf(m.data);
  if (oversize !== null) {
    const event = {
      id: m.id && m.id.length > 0 ? m.id : `noid-oversize-${hash(m.data)}`,
      type: m.event ?? 'unknown',
      timestamp_ms: null,
      checkpoint_id: null,
      tx_hash: null,
      margin_manager_id: null,
      data: JSON.stringify({ oversize_chars: oversize }),
      valid: false,
      problem: `the event was ${formatBytes(oversize)}, over the ${formatBytes(SSE_EVENT_MAX_CHARS)} limit; its content was not kept`,
    };
    return { event, data: undefined };
  }
  let parsed: unknown;
  try {
    parsed = naming.toSpec(JSON.parse(m.data));
  } catch {
    parsed = undefined;
  }
  const env = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const data = env['data'];
  // The compiled check passes the stream's valid events; valibot only says what is wrong with the others.
  const check = parsed === undefined || marginEventValid(parsed) ? null : v.safeParse(MarginEventSchema, parsed);
  const problem =
    parsed === undefined
      ? 'the message is not JSON'
      : check && !check.success
        ? `${v.getDotPath(check.issues[0]) ?? 'envelope'}: ${check.issues[0].message}`
        : null;
  const managerId =
    typeof data === 'object' &&
    data !== null &&
    typeof (data as Record<string, unknown>)['margin_manager_id'] === 'string'
      ? ((data as Record<string, unknown>)['margin_manager_id'] as string)
      : null;
  const event = {
    // Every margin stream message carries an id; one without gets a content id, so a repeat still dedupes.
    id: m.id && m.id.length > 0 ? m.id : `noid-${hash(m.data)}`,
    type: typeof env['type'] === 'string' ? (env['type'] as string) : (m.event ?? 'unknown'),
    timestamp_ms: num(env['timestamp_ms']),
    checkpoint_id: num(env['checkpoint_id']),
    tx_hash: typeof env['tx_hash'] === 'string' ? (env['tx_hash'] as string) : null,
    margin_manager_id: managerId,
    data: data !== undefined ? JSON.stringify(data) : m.data,
    valid: problem === null,
    problem,
  };
  return { event, data };
}

function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619);
    h2 = Math.imul(h2 + text.charCodeAt(i), 2246822519);
  }
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
}

/**
 * Where the margin stream hands what it reads (`MarginService` is one): each event the moment it
 * is read, the new ones once committed, the store refusing and accepting writes, the stream
 * opening.
 */
export interface MarginSink {
  /**
   * Every event the moment it is read, before its commit (which follows within the tick): for what
   * must not wait for the store, a watched liquidation's alert. It may see an event again after a
   * reconnect; `committed` sees each new one exactly once. `data` is the event's data as parsed
   * (not to be changed: the row keeps its text).
   */
  received(event: IncomingMarginEvent, data: unknown): void;
  /** The events that were new, after their transaction committed. */
  committed(events: IncomingMarginEvent[]): void;
  /**
   * A batch could not be committed (`reason` in plain words), or null once the store accepts
   * writes again. The sink closes the connection on a failure: nothing after the cursor is
   * acknowledged, and the stream resumes from the stored cursor once writes work.
   */
  storeChanged(reason: string | null, err?: unknown): void;
  /** The stream (re)opened. */
  opened(): void;
}

export interface MarginStreamOptions {
  repo: MarginEventRepo;
  /** Where batches are committed (the store's writer thread); by default `repo`, in this thread. */
  writer?: MarginCommitter;
  naming: () => NamingProfile;
  /** The stream URL for a given `last-id`. */
  urlFor(lastId: string): string;
  /** `last-id` on the very first start: `$` (new events only) or `0` (all retained history). */
  firstStart: () => '$' | '0';
}

const reasonOf = (err: unknown): string => (err instanceof StoreWriteError ? err.reason : describeStoreError(err));

/**
 * The margin stream into the store, as the supervisor runs it (a `StreamSpec`): each event read
 * (`onEvent`) goes to the sink at once (`MarginSink.received`), then to the group commit, which
 * hands it back in a batch per tick (`commitBatch`) to be committed together with the cursor
 * (`MarginCommitter.commit`: the store's writer thread, while this one goes on reading); the new
 * events go to the sink once committed (`afterCommit` -> `MarginSink.committed`). The URL is
 * rebuilt at every reconnect with the newest stored id, once every batch handed over is settled.
 * When a commit fails (disk full, I/O error) the stream stops taking events: the failed batch is
 * kept in memory (it directly follows the cursor; the writer commits nothing after it) and
 * written again before the stream may reconnect, so nothing is skipped and nothing is stored
 * twice. Batches handed over after the failed one are dropped: they follow it, and the stream
 * sends them again from the cursor.
 */
export class MarginStream implements StreamSpec, BatchCommitter<IncomingMarginEvent> {
  readonly id = 'margin';
  readonly priority = 0;
  private readonly writer: MarginCommitter;
  private readonly batches: GroupCommit<IncomingMarginEvent>;
  /** The batch the store refused, kept to be written again before the stream reconnects. */
  private failed: { batch: IncomingMarginEvent[]; reason: string } | null = null;

  constructor(
    private readonly opts: MarginStreamOptions,
    private readonly sink: MarginSink,
  ) {
    this.writer = opts.writer ?? new InlineCommitter(opts.repo);
    this.batches = new GroupCommit<IncomingMarginEvent>(this);
  }

  async url(): Promise<string> {
    this.batches.flush();
    await this.writer.idle();
    return this.opts.urlFor(this.opts.repo.cursor() ?? this.opts.firstStart());
  }

  /** One message read: to the sink at once, then into the batch being gathered. */
  onEvent(m: EventSourceMessage): void {
    if (this.failed !== null) return;
    const { event, data } = readIncoming(m, this.opts.naming());
    this.sink.received(event, data);
    this.batches.push(event);
  }

  onOpen(): void {
    this.sink.opened();
  }

  pause(): Promise<void> | undefined {
    return this.writer.room();
  }

  /** A batch closed (group-commit.ts): committed with the cursor, unless a batch before it failed. */
  commitBatch(batch: IncomingMarginEvent[]): void {
    // After a failure nothing more is acknowledged: these come again after the reconnect.
    if (this.failed !== null) return;
    this.writer.commit(batch).then(
      (fresh) => this.afterCommit(fresh),
      (err: unknown) => this.commitFailed(batch, err),
    );
  }

  /** A batch committed: the events that were new go to the sink. */
  private afterCommit(fresh: IncomingMarginEvent[]): void {
    if (fresh.length > 0) this.sink.committed(fresh);
  }

  private commitFailed(batch: IncomingMarginEvent[], err: unknown): void {
    if (this.failed !== null) return; // a batch after the failed one
    this.failed = { batch, reason: reasonOf(err) };
    this.sink.storeChanged(this.failed.reason, err);
  }

  async blocked(): Promise<string | null> {
    await this.writer.idle();
    if (this.failed === null) return null;
    const { batch } = this.failed;
    this.writer.resume();
    try {
      const fresh = await this.writer.commit(batch);
      this.failed = null;
      this.afterCommit(fresh);
      this.sink.storeChanged(null);
      return null;
    } catch (err) {
      this.failed = { batch, reason: reasonOf(err) };
      return this.failed.reason;
    }
  }

  /** Commit what is gathered now. */
  flush(): void {
    this.batches.flush();
  }

  storeFailure(): string | null {
    return this.failed?.reason ?? null;
  }

  /**
   * Connect (`connect`) now, or, when the first connection replays the stream's retained history (a
   * first start from `0`), once `firstRead` (the first Portfolio read) settles, at most 2 s: handled
   * meanwhile, the replay made that read later (docs/operations.md, A first start's history replay),
   * and nothing is missed by connecting later. A resume from the cursor, or `$`, connects at once.
   */
  connectAfter(firstRead: Promise<unknown>, connect: () => void): void {
    if (this.opts.repo.cursor() !== undefined || this.opts.firstStart() !== '0') return connect();
    void settledOrAfter(firstRead, 2_000).then(connect);
  }
}
