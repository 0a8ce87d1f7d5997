import type { PayloadOf, Topic } from '../../shared/contract';

/** Subscriptions of the contract: listeners per topic, with counts the monitor reacts to. */
export class PushHub {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly onCountChange: (topic: Topic, count: number) => void = () => {}) {}

  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    this.onCountChange(topic, set.size);
    return () => {
      const s = this.listeners.get(topic);
      if (!s?.delete(l)) return;
      if (s.size === 0) this.listeners.delete(topic);
      this.onCountChange(topic, s.size);
    };
  }

  count(topic: Topic): number {
    return this.listeners.get(topic)?.size ?? 0;
  }

  publish<T extends Topic>(topic: T, payload: PayloadOf<T>): void {
    for (const l of this.listeners.get(topic) ?? []) {
      try {
        l(payload);
      } catch (err) {
        console.error(`tidewatch: a ${topic} listener failed`, err);
      }
    }
  }
}
