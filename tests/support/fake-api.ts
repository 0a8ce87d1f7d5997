import type { PayloadOf, TidewatchApi, Topic } from '../../src/shared/contract';

/** A TidewatchApi double that answers from a table, records the calls and lets the test push. */
export function fakeApi(answers: Record<string, (args: any) => unknown>) {
  const listeners = new Map<string, Array<(p: unknown) => void>>();
  const calls: Array<[string, unknown]> = [];
  const api: TidewatchApi = {
    async invoke(method, args) {
      calls.push([method, args]);
      const f = answers[method];
      if (!f) throw new Error(`unexpected ${method}`);
      return f(args) as never;
    },
    subscribe<T extends Topic>(topic: T, l: (p: PayloadOf<T>) => void) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), l as (p: unknown) => void]);
      return () => {};
    },
  };
  return { api, calls, push: (topic: string, payload: unknown) => listeners.get(topic)?.forEach((l) => l(payload)) };
}
