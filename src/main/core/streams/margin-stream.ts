import type { EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { MarginEventSchema, quickCheck } from '../../../shared/api';
import type { NamingProfile } from '../client/naming';
import type { IncomingMarginEvent, MarginEventRepo } from '../store/margin-events';
import { formatBytes } from '../client/body';
import { describeStoreError } from '../store/store-errors';
import { GroupCommit } from './group-commit';
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

export interface MarginStreamOptions {
  repo: MarginEventRepo;
  /** Where batches are committed (the store's writer thread); by default `repo`, in this thread. */
  writer?: MarginCommitter;
  naming: () => NamingProfile;
  /** The stream URL for a given `last-id`. */
  urlFor(lastId: string): string;
  /** `last-id` on the very first start: `$` (new events only) or `0` (all retained history). */
  firstStart: () => '$' | '0';
  /** Called with the events that were new, after their transaction committed. */
  onCommitted(events: IncomingMarginEvent[]): void;
  /**
   * Every event the moment it is read, before its commit (which follows within the tick): for what
   * must not wait for the store, a watched liquidation's alert. It may see an event again after a
   * reconnect; `onCommitted` sees each new one exactly once. `data` is the event's data as parsed
   * (not to be changed: the row keeps its text).
   */
  onReceived?(event: IncomingMarginEvent, data: unknown): void;
  /**
   * A batch could not be committed (`reason` in plain words), or null once the store accepts
   * writes again. The caller closes the connection on a failure: nothing after the cursor is
   * acknowledged, and the stream resumes from the stored cursor once writes work.
   */
  onStoreState(reason: string | null, err?: unknown): void;
  /** The stream (re)opened. */
  onOpen?(): void;
}

const reasonOf = (err: unknown): string => (err instanceof StoreWriteError ? err.reason : describeStoreError(err));

/**
 * The margin stream into the store: events are grouped per tick and committed together with the
 * cursor, by the store's writer thread while this one goes on reading; the URL is rebuilt at
 * every reconnect with the newest stored id, once every batch handed over is settled. When a
 * commit fails (disk full, I/O error) the stream stops taking events: the failed batch is kept
 * in memory (it directly follows the cursor; the writer commits nothing after it) and written
 * again before the stream may reconnect, so nothing is skipped and nothing is stored twice.
 * Batches handed over after the failed one are dropped: they follow it, and the stream sends
 * them again from the cursor.
 */
export function marginStream(opts: MarginStreamOptions): {
  spec: StreamSpec;
  flush(): void;
  storeFailure(): string | null;
  /**
   * Connect (`connect`) now, or, when the first connection replays the stream's retained history (a
   * first start from `0`), once `firstRead` (the first Portfolio read) settles, at most 2 s: handled
   * meanwhile, the replay made that read later (docs/operations.md, A first start's history replay),
   * and nothing is missed by connecting later. A resume from the cursor, or `$`, connects at once.
   */
  connectAfter(firstRead: Promise<unknown>, connect: () => void): void;
} {
  const writer = opts.writer ?? new InlineCommitter(opts.repo);
  let failed: { batch: IncomingMarginEvent[]; reason: string } | null = null;
  const fail = (batch: IncomingMarginEvent[], err: unknown): void => {
    if (failed !== null) return; // a batch after the failed one
    failed = { batch, reason: reasonOf(err) };
    opts.onStoreState(failed.reason, err);
  };
  const write = (batch: IncomingMarginEvent[]): void => {
    writer.commit(batch).then(
      (fresh) => {
        if (fresh.length > 0) opts.onCommitted(fresh);
      },
      (err: unknown) => fail(batch, err),
    );
  };
  const commit = new GroupCommit<IncomingMarginEvent>((batch) => {
    // After a failure nothing more is acknowledged: these come again after the reconnect.
    if (failed === null) write(batch);
  });
  const spec: StreamSpec = {
    id: 'margin',
    priority: 0,
    url: async () => {
      commit.flush();
      await writer.idle();
      return opts.urlFor(opts.repo.cursor() ?? opts.firstStart());
    },
    onEvent: (m) => {
      if (failed !== null) return;
      const { event, data } = readIncoming(m, opts.naming());
      opts.onReceived?.(event, data);
      commit.push(event);
    },
    onOpen: () => opts.onOpen?.(),
    pause: () => writer.room(),
    blocked: async () => {
      await writer.idle();
      if (failed === null) return null;
      const { batch } = failed;
      writer.resume();
      try {
        const fresh = await writer.commit(batch);
        failed = null;
        if (fresh.length > 0) opts.onCommitted(fresh);
        opts.onStoreState(null);
        return null;
      } catch (err) {
        failed = { batch, reason: reasonOf(err) };
        return failed.reason;
      }
    },
  };
  return {
    spec,
    flush: () => commit.flush(),
    storeFailure: () => (failed as { reason: string } | null)?.reason ?? null,
    connectAfter: (firstRead, connect) => {
      if (opts.repo.cursor() !== undefined || opts.firstStart() !== '0') return connect();
      void settledOrAfter(firstRead, 2_000).then(connect);
    },
  };
}
