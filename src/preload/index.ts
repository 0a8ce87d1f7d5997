import { contextBridge, ipcRenderer } from 'electron';
import type {
  ContractInput,
  ContractMethod,
  ContractResults,
  InvokeOptions,
  PayloadOf,
  TidewatchApi,
  Topic,
} from '../shared/contract';

/** Channel names; the same strings as src/main/shell/ipc-bridge.ts (the preload bundles alone). */
const IPC = {
  invoke: 'tidewatch:invoke',
  cancel: 'tidewatch:cancel',
  subscribe: 'tidewatch:subscribe',
  unsubscribe: 'tidewatch:unsubscribe',
  push: 'tidewatch:push',
} as const;

type Answer = { ok: true; result: unknown } | { ok: false; error: { kind: string; message: string; advice?: string } };

const listeners = new Map<string, Set<(payload: unknown) => void>>();
let lastCallId = 0;
ipcRenderer.on(IPC.push, (_e, topic: string, payload: unknown) => {
  for (const l of listeners.get(topic) ?? []) l(payload);
});

/**
 * The only thing the page gets: the contract. No ipcRenderer, no Node, no electron objects;
 * subscriptions return a disposer.
 */
const api = {
  async invoke<M extends ContractMethod>(
    method: M,
    args: ContractInput<M>,
    options?: InvokeOptions,
  ): Promise<ContractResults[M]> {
    // The signal arrives as a plain object whose functions contextBridge proxies (an AbortSignal
    // itself cannot cross): an abort sends the call's id on the cancel channel.
    const callId = ++lastCallId;
    const onAbort = (): void => ipcRenderer.send(IPC.cancel, callId);
    options?.signal?.addEventListener('abort', onAbort, { once: true });
    let answer: Answer;
    try {
      answer = (await ipcRenderer.invoke(IPC.invoke, method, args, callId)) as Answer;
    } finally {
      options?.signal?.removeEventListener('abort', onAbort);
    }
    if (!answer.ok) {
      const err = new Error(
        answer.error.advice ? `${answer.error.message} ${answer.error.advice}` : answer.error.message,
      );
      err.name = answer.error.kind;
      throw err;
    }
    return answer.result as ContractResults[M];
  },
  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void {
    let set = listeners.get(topic);
    if (!set) {
      listeners.set(topic, (set = new Set()));
      ipcRenderer.send(IPC.subscribe, topic);
    }
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => {
      const s = listeners.get(topic);
      if (!s?.delete(l) || s.size > 0) return;
      listeners.delete(topic);
      ipcRenderer.send(IPC.unsubscribe, topic);
    };
  },
} satisfies TidewatchApi;

contextBridge.exposeInMainWorld('tidewatch', api);
