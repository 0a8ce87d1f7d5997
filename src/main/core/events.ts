/** An event's listener: told the payload, synchronously, in the order listeners subscribed. */
export type Listener<P> = (payload: P) => void;

/** The payload argument of `emit`: none for an event whose payload is `void`. */
type PayloadArgs<P> = [P] extends [void] ? [] : [payload: P];

/**
 * A typed event bus: `on` subscribes (and returns the way to unsubscribe), `off` unsubscribes,
 * `emit` tells every listener of the event at once, in the order they subscribed, before it
 * returns. A listener that throws is logged and the others are still told: a fault in what one
 * service does with a fact never stops the service that published it. A listener added or removed
 * while an event is delivered takes effect from the next emit; one added twice is told twice.
 */
export class EventBus<E extends object> {
  /** Per event, its listeners: a new array on each change, so a delivery goes on over the one it began with. */
  private readonly listeners = new Map<keyof E, ReadonlyArray<Listener<never>>>();

  constructor(private readonly log: (line: string) => void = (line) => console.error(`tidewatch: ${line}`)) {}

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener<never>]);
    return () => this.off(event, listener);
  }

  off<K extends keyof E>(event: K, listener: Listener<E[K]>): void {
    const now = this.listeners.get(event) ?? [];
    const i = now.indexOf(listener as Listener<never>);
    if (i < 0) return;
    const next = [...now.slice(0, i), ...now.slice(i + 1)];
    if (next.length > 0) this.listeners.set(event, next);
    else this.listeners.delete(event);
  }

  emit<K extends keyof E>(event: K, ...args: PayloadArgs<E[K]>): void {
    const listeners = this.listeners.get(event);
    if (!listeners) return;
    const payload = args[0] as E[K];
    for (const listener of listeners) {
      try {
        (listener as Listener<E[K]>)(payload);
      } catch (err) {
        this.log(`a listener of ${String(event)} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** How many listeners an event has. */
  listenerCount(event: keyof E): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}
