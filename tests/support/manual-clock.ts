import type { DigestClock } from '../../src/main/core/digest/digest-schedule';

/** A clock and timers the test moves by hand: `advanceTo` fires every timer due by then, in order. */
export class ManualClock implements DigestClock {
  private readonly timers = new Map<number, { at: number; fire: () => void }>();
  private last = 0;
  constructor(public t: number) {}
  now = (): number => this.t;
  setTimer = (fire: () => void, ms: number): number => {
    this.timers.set(++this.last, { at: this.t + ms, fire });
    return this.last;
  };
  clearTimer = (id: unknown): void => void this.timers.delete(id as number);
  advanceTo(t: number): void {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= t).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = Math.max(this.t, due[1].at);
      due[1].fire();
    }
    this.t = t;
  }
}
