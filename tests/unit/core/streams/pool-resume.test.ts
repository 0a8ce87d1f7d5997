import { describe, expect, it } from 'vitest';
import { REPLAY_EVIDENCE_MS, RESUME_TRUST_MS, resumeVerdict } from '../../../../src/main/core/streams/pool-resume';

describe('telling a replay on the pool stream from live trades', () => {
  const last = 1_800_000_000_000;
  const opened = last + 3_600_000; // an hour away
  const now = opened + 2_000;

  it('trusts a replay whose first trade is history and follows the newest stored one', () => {
    expect(resumeVerdict(last, opened, last + 5_000, now)).toEqual({ kind: 'replayed' });
  });

  it('reads only the start of the gap when the replay starts late (retention may have cut it)', () => {
    const first = last + RESUME_TRUST_MS + 10_000;
    expect(resumeVerdict(last, opened, first, now)).toEqual({
      kind: 'backfill',
      fromSec: last / 1000,
      toSec: Math.ceil(first / 1000),
      why: 'replay-starts-late',
    });
  });

  it('backfills the whole gap when the first trade is live (even a late one) or none comes', () => {
    const full = { kind: 'backfill', fromSec: last / 1000, toSec: Math.floor(now / 1000), why: 'no-replay' };
    expect(resumeVerdict(last, opened, opened - REPLAY_EVIDENCE_MS + 1, now)).toEqual(full);
    expect(resumeVerdict(last, opened, opened + 500, now)).toEqual(full);
    expect(resumeVerdict(last, opened, undefined, now)).toEqual(full);
  });

  it('cannot tell on a short drop: backfills (one request)', () => {
    const soon = last + 4_000;
    expect(resumeVerdict(last, soon, last + 1_000, soon + 100).kind).toBe('backfill');
  });
});
