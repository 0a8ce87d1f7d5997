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
}

export class StreamVolumes {
  private readonly byId = new Map<string, Volume>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Bytes a stream received. */
  note(id: string, bytes: number): void {
    const now = this.now();
    let v = this.byId.get(id);
    if (!v) this.byId.set(id, (v = { openedAt: now, bytes: 0 }));
    if (now - v.openedAt >= WARMUP_MS) v.bytes += bytes;
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
}
