import { afterEach, describe, expect, it, vi } from 'vitest';
import { NAMING_PROFILES } from '../../../../src/main/core/client/naming';
import type { MarketRepo } from '../../../../src/main/core/store/market-repo';
import { poolStream } from '../../../../src/main/core/streams/pool-stream';
import { EVENT_TYPES } from '../../../../src/shared/api';

afterEach(() => vi.useRealTimers());

const book = (price: number) => ({
  pool_id: '0xpool',
  bids: [{ price, total_quantity: 1e9, order_count: 1 }],
  asks: [{ price: price + 100, total_quantity: 1e9, order_count: 1 }],
});
const depthEvent = (price: number) => ({
  data: JSON.stringify({ type: EVENT_TYPES.depth, timestamp_ms: 0, data: book(price) }),
  event: undefined,
  id: undefined,
});

describe('a pool stream, flushed', () => {
  it('writes what it held and nothing that comes after: the store closes next at shutdown', () => {
    vi.useFakeTimers();
    const stored: number[] = [];
    const failures: string[] = [];
    let open = true;
    const repo = {
      setDepth: (_pool: string, d: ReturnType<typeof book>) => {
        // The store after shutdown, as better-sqlite3 answers a closed connection.
        if (!open) throw new TypeError('The database connection is not open');
        stored.push(d.bids[0]!.price);
      },
      addTrades: () => 0,
      lastTradeStreamId: () => undefined,
      lastTradeMs: () => undefined,
    } as unknown as MarketRepo;
    const pushed: number[] = [];
    const s = poolStream({
      pool: 'SUI_USDC',
      priority: 1,
      repo,
      naming: () => NAMING_PROFILES.spec,
      url: () => 'http://127.0.0.1/',
      backfill: async () => [],
      onData: (_t, d) => d && pushed.push(d.bids[0]!.price),
      onStoreState: (reason) => reason && failures.push(reason),
    });
    s.spec.onEvent!(depthEvent(3_500_000) as never);
    // Shutdown: the streams are stopped and flushed, then the store closes.
    s.flush();
    open = false;
    expect(stored).toEqual([3_500_000]);
    // An event parsed from a chunk already read arrives after: neither written nor pushed.
    s.spec.onEvent!(depthEvent(3_600_000) as never);
    vi.advanceTimersByTime(1_000);
    expect(stored).toEqual([3_500_000]);
    expect(pushed).toEqual([3_500_000]);
    expect(failures).toEqual([]);
  });
});
