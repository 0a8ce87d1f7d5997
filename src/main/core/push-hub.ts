import type { PayloadOf, Topic } from '../../shared/contract';
import type { CoreBus } from './events';

/**
 * Subscriptions of the contract: listeners per topic. How many a topic has is published
 * (`subscribersChanged`: a pool's stream follows its page); what goes out on each topic is the
 * contract's to say (contract/pushes.ts).
 */
export class PushHub {
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly events: Pick<CoreBus, 'emit'>) {}

  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    this.events.emit('subscribersChanged', { topic, count: set.size });
    return () => {
      const s = this.listeners.get(topic);
      if (!s?.delete(l)) return;
      if (s.size === 0) this.listeners.delete(topic);
      this.events.emit('subscribersChanged', { topic, count: s.size });
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
