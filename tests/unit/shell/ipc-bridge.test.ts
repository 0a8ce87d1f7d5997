import { describe, expect, it, vi } from 'vitest';
import { IpcBridge } from '../../../src/main/shell/ipc-bridge';
import { isTrustedSender } from '../../../src/main/shell/sender-check';

describe('IPC bridge', () => {
  const api = {
    invoke: vi.fn(async (method: string) => ({ method })),
    subscribe: vi.fn(() => () => {}),
  };
  const bridge = new IpcBridge(api as any, () => ['app://tidewatch']);
  const own = { url: 'app://tidewatch/index.html#/alerts', parent: null };
  const ev = (frame: any, id = 1) =>
    ({ senderFrame: frame, sender: { id, send: vi.fn(), once: vi.fn(), isDestroyed: () => false } }) as any;

  it('accepts only the app main frame', () => {
    expect(isTrustedSender(own, ['app://tidewatch'])).toBe(true);
    expect(isTrustedSender({ url: 'app://tidewatch/', parent: {} }, ['app://tidewatch'])).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null }, ['app://tidewatch'])).toBe(false);
    expect(isTrustedSender({ url: 'file:///etc/passwd', parent: null }, ['app://tidewatch'])).toBe(false);
    expect(
      isTrustedSender({ url: 'http://localhost:5173/', parent: null }, ['app://tidewatch', 'http://localhost:5173']),
    ).toBe(true);
    expect(isTrustedSender(null, ['app://tidewatch'])).toBe(false);
  });

  it('refuses foreign senders and unknown methods, and validates arguments through the contract', async () => {
    expect(await bridge.invoke(ev({ url: 'https://evil.example/', parent: null }), 'settings', {})).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(await bridge.invoke(ev(own), 'eval', {})).toMatchObject({ ok: false, error: { kind: 'bad-argument' } });
    expect(await bridge.invoke(ev(own), 42, {})).toMatchObject({ ok: false, error: { kind: 'bad-argument' } });
    expect(await bridge.invoke(ev(own), 'pools', {})).toEqual({ ok: true, result: { method: 'pools' } });
    expect(api.invoke).toHaveBeenCalledTimes(1);
  });

  it('subscribes a frame once per topic, only to known topics, and pushes to it', () => {
    const e = ev(own, 7);
    bridge.subscribe(e, 'alerts');
    bridge.subscribe(e, 'alerts');
    bridge.subscribe(e, 'rm -rf');
    bridge.subscribe(ev({ url: 'https://evil.example/', parent: null }, 8), 'alerts');
    expect(api.subscribe).toHaveBeenCalledTimes(1);
    const push = (api.subscribe.mock.calls[0] as unknown as [string, (p: unknown) => void])[1];
    push([{ id: 1 }]);
    expect(e.sender.send).toHaveBeenCalledWith('tidewatch:push', 'alerts', [{ id: 1 }]);
  });

  it('cancels a call when its own frame asks, and only then', async () => {
    let seen: AbortSignal | undefined;
    const slow = {
      invoke: vi.fn((_m: string, _a: unknown, o?: { signal?: AbortSignal }) => {
        seen = o?.signal;
        return new Promise((resolve, reject) =>
          o?.signal?.addEventListener('abort', () => reject(new Error('cancelled'))),
        );
      }),
      subscribe: vi.fn(() => () => {}),
    };
    const b = new IpcBridge(slow as any, () => ['app://tidewatch']);
    const answer = b.invoke(ev(own, 3), 'trades', {}, 41);
    b.cancel(ev({ url: 'https://evil.example/', parent: null }, 3), 41);
    b.cancel(ev(own, 4), 41);
    expect(seen?.aborted).toBe(false);
    b.cancel(ev(own, 3), 41);
    expect(seen?.aborted).toBe(true);
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });
});
