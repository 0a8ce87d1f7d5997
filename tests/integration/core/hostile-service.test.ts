import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorHarness } from '../../support/monitor-harness';
import { MemorySecretStore } from '../../../src/main/core/settings';
import { HostileServer } from '../../support/hostile-server';
import { tempDir, until } from '../../support/monitor';

/**
 * A service that answers as badly as it can, at production defaults (10 s / 30 s timeouts, 8 MB
 * answers, 1 MB events, Retry-After capped at 60 s). Each case: the call ends in bounded time
 * with a plain error or the cached copy, and memory stays bounded.
 */
let hostile: HostileServer;
let m: MonitorHarness;
const dir = tempDir();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const figures: string[] = [];

beforeAll(async () => {
  hostile = new HostileServer();
  const url = await hostile.listen();
  hostile.modes.set('/manager-updates', 'ok');
  m = new MonitorHarness({
    dataDir: dir.dir,
    secrets: new MemorySecretStore('hostile-key'),
    overrides: { network: 'custom', baseUrl: url, streamUrl: url },
  }).start();
});

afterAll(async () => {
  clearInterval(sampler);
  await m.close();
  await hostile.close();
  dir.remove();
  console.log(`hostile answers:\n  ${figures.join('\n  ')}`);
});

/** Run `fn`, return its duration and the growth of peak RSS above the RSS before it (MB). */
async function measured<T>(
  what: string,
  fn: () => Promise<T>,
): Promise<{ value: T | Error; ms: number; rssMb: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  peakRss = before;
  const start = Date.now();
  let value: T | Error;
  try {
    value = await fn();
  } catch (err) {
    value = err as Error;
  }
  const ms = Date.now() - start;
  const rssMb = Math.round((peakRss - before) / 1024 / 1024);
  figures.push(`${what}: ${ms} ms, peak RSS +${rssMb} MB`);
  return { value, ms, rssMb };
}

describe('a hostile service', () => {
  it('a cached answer first (the cache is what every later case falls back to)', async () => {
    const r = await m.invoke('pools', {});
    expect(r.stale).toBe(false);
  });

  it('never answers: the call ends at the 10 s connect timeout with the cached copy', async () => {
    hostile.modes.set('/get_pools', 'never');
    const { value, ms } = await measured('never answers', () => m.invoke('pools', {}));
    expect(value).toMatchObject({ stale: true, source: 'cache', error: { kind: 'timeout' } });
    expect(ms).toBeGreaterThanOrEqual(9_000);
    expect(ms).toBeLessThan(25_000);
    expect((value as { error: { message: string } }).error.message).not.toMatch(/GET|api-key|\?/);
  }, 40_000);

  it('a call the caller gives up on is cancelled at once, and its request closed', async () => {
    hostile.modes.set('/trades', 'never');
    const c = new AbortController();
    const now = Math.floor(Date.now() / 1000);
    const started = Date.now();
    const call = m.invoke('trades', { pool: 'SUI_USDC', from: now - 3600, to: now }, { signal: c.signal });
    setTimeout(() => c.abort(), 200);
    await expect(call).rejects.toMatchObject({ kind: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(2_000);
    await until(() => hostile.hangingCount() === 0, 5_000, 'the request closed');
  });

  it('Retry-After of an hour, or a date a day ahead: capped, and the cache answers at once', async () => {
    for (const mode of ['retry-after-hour', 'retry-after-date'] as const) {
      hostile.modes.set('/get_pools', mode);
      const first = await measured(`429 ${mode}`, () => m.invoke('pools', {}));
      expect(first.value).toMatchObject({ stale: true, error: { kind: 'rate-limited' } });
      expect(first.ms).toBeLessThan(2_000);
      // While the pause lasts, every call answers from the cache without waiting for it.
      const again = await measured(`429 ${mode}, next call`, () => m.invoke('pools', {}));
      expect(again.value).toMatchObject({ stale: true });
      expect(again.ms).toBeLessThan(500);
      expect(m.link.client.http.limiter.pausedFor()).toBeLessThanOrEqual(60_000);
    }
  });

  it('a 5 MB error message is cut to a few hundred characters', async () => {
    hostile.modes.set('/get_pools', 'huge-error');
    // The previous case left a (capped) pause behind.
    m.link.client.http.limiter.clearPause();
    const { value } = await measured('5 MB error body', () => m.invoke('pools', {}));
    const message = (value as { error: { message: string } }).error.message;
    expect(message.length).toBeLessThanOrEqual(330);
    expect(message).toMatch(/500/);
  }, 30_000);

  it('a gzip bomb (2 GB of zeros) is refused while reading, memory bounded', async () => {
    hostile.modes.set('/get_pools', 'gzip-bomb');
    const { value, rssMb } = await measured('gzip bomb 2 GB', () => m.invoke('pools', {}));
    expect(value).toMatchObject({ stale: true, error: { kind: 'invalid-response' } });
    expect((value as { error: { message: string } }).error.message).toMatch(/larger than 8 MB/);
    expect(rssMb).toBeLessThan(150);
  }, 30_000);

  it('a 10 MB JSON answer is refused, memory bounded', async () => {
    hostile.modes.set('/get_pools', 'big-json');
    const { value, rssMb } = await measured('10 MB JSON', () => m.invoke('pools', {}));
    expect(value).toMatchObject({ stale: true, error: { kind: 'invalid-response' } });
    expect(rssMb).toBeLessThan(150);
  }, 30_000);

  it('100 trades in one second: the range ends in a bounded number of requests, marked truncated', async () => {
    hostile.modes.set('/trades', 'dense-trades');
    const to = hostile.denseSecond + 3600;
    const { value, ms } = await measured('dense second, 1 h of trades', () =>
      m.invoke('trades', { pool: 'SUI_USDC', from: hostile.denseSecond - 3600, to }),
    );
    expect(value).toMatchObject({ stale: false, truncated: true });
    expect((value as { data: unknown[] }).data.length).toBe(100);
    expect(hostile.count('/dex/SUI_USDC/trades')).toBeLessThan(40);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);

  it('candles from 0 at 1m, and a time of 2^53: a clear bad-argument, no request made', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(m.invoke('candles', { pool: 'SUI_USDC', timeframe: '1m', from: 0, to: now })).rejects.toThrow(
      /too long/,
    );
    await expect(m.invoke('candles', { pool: 'SUI_USDC', timeframe: '1m', from: 0, to: 2 ** 53 })).rejects.toThrow(
      /UNIX seconds/,
    );
    expect(hostile.count('/dex/SUI_USDC/ohlcv/1m')).toBe(0);
  });

  it('an SSE line of 300 MB without a newline: stored as invalid with its problem, the next event kept, memory bounded', async () => {
    hostile.modes.set('/manager-updates', 'endless-line');
    const { rssMb } = await measured('SSE line of 300 MB', async () => {
      await m.invoke('retryStreams', {});
      await until(() => m.store.margin.count() >= 2, 60_000, 'both events');
    });
    const rows = [...m.store.margin.iterate()];
    expect(rows.map((r) => r.id)).toEqual(['1-0', '2-0']);
    expect(rows[0]).toMatchObject({ valid: false });
    expect(rows[0]!.problem).toMatch(/over the 1 MB limit/);
    expect(rows[1]).toMatchObject({ valid: true });
    expect(m.store.margin.cursor()).toBe('2-0');
    expect(rssMb).toBeLessThan(150);
  }, 90_000);
});
