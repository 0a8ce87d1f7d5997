/**
 * Resume on the pool stream (docs/service.md, The pool stream): the client sends `last-id` (the stream id of the
 * newest stored trade) when it reconnects a pool. Whether the service replayed from there cannot
 * be read from one event's id, so it is judged by time:
 *
 * - the first trade after the reconnect is history (older than REPLAY_EVIDENCE_MS when the stream
 *   opened): the service replays. A live trade is never that old, even behind a slow indexer.
 *   - and it follows the newest stored trade within RESUME_TRUST_MS: the replay covers the gap,
 *     nothing is read over REST (each call costs credits);
 *   - it starts later than that: the service's retention may have cut the gap's start, so only
 *     that stretch, from the newest stored trade to the replay's first, is read over REST;
 * - the first trade is live, or none comes within REPLAY_WAIT_MS: the gap is read over REST from
 *   the newest stored trade's second, as without resume.
 *
 * Short drops (under REPLAY_EVIDENCE_MS) are always backfilled: one request; the credit a replay
 * saves is on long gaps (a night offline), whose backfill takes many pages.
 */
export const REPLAY_WAIT_MS = 2_000;
export const REPLAY_EVIDENCE_MS = 30_000;
export const RESUME_TRUST_MS = 60_000;

export type ResumeVerdict =
  /** The replay covers the gap. */
  | { kind: 'replayed' }
  /** Read [fromSec, toSec] over REST. */
  | { kind: 'backfill'; fromSec: number; toSec: number; why: 'no-replay' | 'replay-starts-late' };

/**
 * What to do after a reconnect, given the newest stored trade's time, when the stream opened and
 * the first trade received since (undefined: none within REPLAY_WAIT_MS).
 */
export function resumeVerdict(
  lastStoredMs: number,
  openedAt: number,
  firstTradeMs: number | undefined,
  now: number,
): ResumeVerdict {
  const fromSec = Math.floor(lastStoredMs / 1000);
  if (firstTradeMs === undefined || firstTradeMs >= openedAt - REPLAY_EVIDENCE_MS) {
    return { kind: 'backfill', fromSec, toSec: Math.floor(now / 1000), why: 'no-replay' };
  }
  if (firstTradeMs - lastStoredMs > RESUME_TRUST_MS) {
    return { kind: 'backfill', fromSec, toSec: Math.ceil(firstTradeMs / 1000), why: 'replay-starts-late' };
  }
  return { kind: 'replayed' };
}
