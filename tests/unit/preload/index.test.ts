import { beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC, type DesktopBridge } from '../../../src/shared/wire';

/** The preload with electron mocked: what it exposes, and what it sends on which channel. */
const sent: Array<[string, ...unknown[]]> = [];
const exposed: Record<string, unknown> = {};
let push: ((e: unknown, topic: string, payload: unknown) => void) | undefined;
let answer: unknown = { ok: true, result: 42 };
let release: (() => void) | undefined;
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    on: (channel: string, l: typeof push) => {
      if (channel === IPC.push) push = l;
    },
    send: (channel: string, ...args: unknown[]) => sent.push([channel, ...args]),
    invoke: async (channel: string, ...args: unknown[]) => {
      sent.push([channel, ...args]);
      if (release) await new Promise<void>((r) => (release = r));
      return answer;
    },
  },
}));

let api: DesktopBridge;
beforeAll(async () => {
  await import('../../../src/preload/index');
  api = exposed['tidewatch'] as DesktopBridge;
});

describe('the preload', () => {
  it('exposes the contract alone, as window.tidewatch', () => {
    expect(Object.keys(exposed)).toEqual(['tidewatch']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'subscribe']);
  });

  it("answers a call's result or error as a value, each call with an id of its own", async () => {
    sent.length = 0;
    expect(await api.invoke('pools', {})).toEqual({ ok: true, result: 42 });
    answer = { ok: false, error: { kind: 'bad-argument', message: 'addWatch: owner: not an address' } };
    expect(await api.invoke('addWatch', { owner: 'x' })).toEqual(answer);
    expect(sent).toEqual([
      [IPC.invoke, 'pools', {}, 1],
      [IPC.invoke, 'addWatch', { owner: 'x' }, 2],
    ]);
  });

  it("sends the call's id on the cancel channel when its signal fires, and forgets the signal after", async () => {
    sent.length = 0;
    const listeners = new Set<() => void>();
    const signal = {
      aborted: false,
      addEventListener: (_: 'abort', l: () => void) => listeners.add(l),
      removeEventListener: (_: 'abort', l: () => void) => listeners.delete(l),
    };
    release = () => {};
    const call = api.invoke('portfolio', {}, { signal });
    await Promise.resolve();
    for (const l of listeners) l();
    release();
    release = undefined;
    await call;
    expect(sent).toEqual([
      [IPC.invoke, 'portfolio', {}, 3],
      [IPC.cancel, 3],
    ]);
    expect(listeners.size).toBe(0);
  });

  it('subscribes once per topic, pushes to every listener of it, and unsubscribes with the last', () => {
    sent.length = 0;
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = api.subscribe('alerts', (p) => a.push(p));
    const offB = api.subscribe('alerts', (p) => b.push(p));
    push!(null, 'alerts', { id: 1 });
    push!(null, 'status', { id: 2 });
    expect([a, b]).toEqual([[{ id: 1 }], [{ id: 1 }]]);
    offA();
    expect(sent).toEqual([[IPC.subscribe, 'alerts']]);
    offB();
    offB();
    expect(sent).toEqual([
      [IPC.subscribe, 'alerts'],
      [IPC.unsubscribe, 'alerts'],
    ]);
  });
});
