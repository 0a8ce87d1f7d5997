import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Depth, Trade } from '../../../src/shared/api';
import { BEHIND_BYTES, GONE_BYTES, POOL_GATHER_MS, PushWriter } from '../../../src/main/web/push-writer';

/** A response that keeps what was written and says how much is unsent. */
function sink(unsent = 0) {
  const s = { chunks: [] as string[], writableLength: unsent, destroyed: false };
  return Object.assign(s, {
    write: (c: string) => s.chunks.push(c),
    destroy: () => (s.destroyed = true),
    events: () =>
      s.chunks
        .join('')
        .split('\n\n')
        .filter(Boolean)
        .map((e) => {
          const [, topic] = /^event: (.*)$/m.exec(e) ?? [];
          return { topic, data: JSON.parse(/^data: (.*)$/m.exec(e)![1]!) as Record<string, unknown> };
        }),
  });
}
const trade = (n: number) => ({ event_digest: `d${n}` }) as unknown as Trade;
const depth = (n: number) => ({ bids: [[n, 1]], asks: [] }) as unknown as Depth;

afterEach(() => vi.useRealTimers());

describe('a page subscription', () => {
  it('writes an alert, the status, risk and margin events the moment they are pushed', () => {
    vi.useFakeTimers();
    const s = sink();
    const w = new PushWriter(s, false);
    w.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [trade(1)], depth: null });
    w.push('alerts', [{ id: 7 }]);
    w.push('status', { online: true });
    w.push('margin', [{ id: 1 }]);
    w.push('risk', { readings: [] });
    // Written at once, before the pool's gathered push.
    expect(s.events().map((e) => e.topic)).toEqual(['alerts', 'status', 'margin', 'risk']);
    vi.advanceTimersByTime(POOL_GATHER_MS);
    expect(s.events().map((e) => e.topic)).toEqual(['alerts', 'status', 'margin', 'risk', 'pool:SUI_USDC']);
  });

  it("gathers a pool's pushes into one event: its trades in order, its newest depth", () => {
    vi.useFakeTimers();
    const s = sink();
    const w = new PushWriter(s, false);
    w.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [trade(1)], depth: depth(1) });
    w.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [trade(2), trade(3)], depth: null });
    w.push('pool:DEEP_USDC', { pool: 'DEEP_USDC', trades: [], depth: depth(9) });
    w.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [], depth: depth(2) });
    expect(s.chunks).toEqual([]);
    vi.advanceTimersByTime(POOL_GATHER_MS);
    expect(s.events()).toEqual([
      { topic: 'pool:SUI_USDC', data: { pool: 'SUI_USDC', trades: [trade(1), trade(2), trade(3)], depth: depth(2) } },
      { topic: 'pool:DEEP_USDC', data: { pool: 'DEEP_USDC', trades: [], depth: depth(9) } },
    ]);
  });

  it('behind, leaves out only what a newer push supersedes (a depth), never a trade or an alert', () => {
    vi.useFakeTimers();
    const s = sink(BEHIND_BYTES + 1);
    const w = new PushWriter(s, false);
    w.push('alerts', [{ id: 1 }]);
    w.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [trade(1)], depth: depth(1) });
    w.push('pool:DEEP_USDC', { pool: 'DEEP_USDC', trades: [], depth: depth(2) });
    vi.advanceTimersByTime(POOL_GATHER_MS);
    expect(s.events()).toEqual([
      { topic: 'alerts', data: [{ id: 1 }] },
      { topic: 'pool:SUI_USDC', data: { pool: 'SUI_USDC', trades: [trade(1)], depth: null } },
    ]);
  });

  it('disconnects a page that stopped reading, rather than feeding it without end', () => {
    const s = sink(GONE_BYTES + 1);
    const w = new PushWriter(s, true);
    w.push('alerts', [{ id: 1 }]);
    expect(s.destroyed).toBe(true);
    expect(s.chunks).toEqual([]);
    w.push('alerts', [{ id: 2 }]);
    expect(s.chunks).toEqual([]);
  });

  it('names no event on a connection of one topic', () => {
    const s = sink();
    new PushWriter(s, true).push('alerts', [{ id: 1 }]);
    expect(s.chunks).toEqual(['data: [{"id":1}]\n\n']);
  });
});
