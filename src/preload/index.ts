import { contextBridge, ipcRenderer } from 'electron';
import type { ContractInput, ContractMethod, InvokeOptions, PayloadOf, Topic } from '../shared/contract';
import { IPC, type DesktopBridge, type WireAnswer } from '../shared/wire';

const listeners = new Map<string, Set<(payload: unknown) => void>>();
let lastCallId = 0;
ipcRenderer.on(IPC.push, (_e, topic: string, payload: unknown) => {
  for (const l of listeners.get(topic) ?? []) l(payload);
});

/**
 * The only thing the page gets: the contract. No ipcRenderer, no Node, no electron objects;
 * a call answers its result or its error as a value (renderer/api turns an error into an
 * ApiError), subscriptions return a disposer.
 */
const api = {
  async invoke<M extends ContractMethod>(
    method: M,
    args: ContractInput<M>,
    options?: InvokeOptions,
  ): Promise<WireAnswer> {
    // The signal arrives as a plain object whose functions contextBridge proxies (an AbortSignal
    // itself cannot cross): an abort sends the call's id on the cancel channel.
    const callId = ++lastCallId;
    const onAbort = (): void => ipcRenderer.send(IPC.cancel, callId);
    options?.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return (await ipcRenderer.invoke(IPC.invoke, method, args, callId)) as WireAnswer;
    } finally {
      options?.signal?.removeEventListener('abort', onAbort);
    }
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
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('tidewatch', api);
