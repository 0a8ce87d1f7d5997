/**
 * What each stream costs to keep open, measured: bytes received per second since it opened,
 * leaving out its first WARMUP_MS (a resume replays what was missed: a one-off, not the steady
 * rate). The cost model (budget/cost-model.ts) turns it into credits a day or an hour.
 */
const WARMUP_MS = 120_000;
/** Below this much steady time the rate is not known yet. */
const MIN_MEASURED_MS = 60_000;

interface Volume {
  openedAt: number;
  bytes: number;
  /** Of `bytes`: those the Demo network sends at a pace of its own, whatever its speed (`notePaced`). */
  paced: number;
}

export class StreamVolumes {
  private readonly byId = new Map<string, Volume>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Bytes a stream received. */
  note(id: string, bytes: number): void {
    const now = this.now();
    let v = this.byId.get(id);
    if (!v) this.byId.set(id, (v = { openedAt: now, bytes: 0, paced: 0 }));
    if (now - v.openedAt >= WARMUP_MS) v.bytes += bytes;
  }

  /**
   * Of the bytes a stream received (`note`), those of events sent at a pace of their own: a pool's
   * book, which the Demo network sends at every checkpoint (4 a second) whatever its speed, where
   * its trades come `speed` times as often. Counted by the event's data.
   */
  notePaced(id: string, bytes: number): void {
    const v = this.byId.get(id);
    if (v && this.now() - v.openedAt >= WARMUP_MS) v.paced += bytes;
  }

  /** The stream was closed: its next opening measures afresh. */
  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Bytes per second of the stream's steady state, or null while not known. */
  rate(id: string): number | null {
    const v = this.byId.get(id);
    if (!v) return null;
    const steady = this.now() - v.openedAt - WARMUP_MS;
    return steady >= MIN_MEASURED_MS ? v.bytes / (steady / 1000) : null;
  }

  /** Of `rate`, the bytes per second sent at their own pace (`notePaced`), or null while not known. */
  pacedRate(id: string): number | null {
    const v = this.byId.get(id);
    const all = this.rate(id);
    if (!v || all === null || v.bytes === 0) return all === null ? null : 0;
    return all * Math.min(1, v.paced / v.bytes);
  }
}
