import { afterAll, describe, expect, it } from 'vitest';
import type { MonitorHarness } from '../../../support/monitor-harness';
import { REPLAY_EVIDENCE_MS } from '../../../../src/main/core/streams/pool-resume';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

const POOL = 'SUI_USDC';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function storedDigests(m: MonitorHarness): Set<string> {
  return new Set(
    (
      m.store.db.prepare('SELECT event_digest FROM trades WHERE pool = ?').all(POOL) as Array<{ event_digest: string }>
    ).map((r) => r.event_digest),
  );
}

/**
 * The app watches a pool, is closed, stays away longer than a live trade can be late, and comes
 * back: returns the REST backfills it made for the gap and whether every trade of the gap (as the
 * service's REST answers them) was stored. Production timings throughout.
 */
async function offlineAndBack(
  t: TestSim,
): Promise<{ backfills: string[]; missing: number; gapTrades: number; cursorMoved: boolean }> {
  const dir = tempDir();
  cleanups.push(() => dir.remove());
  const calls: string[] = [];
  const counting: typeof fetch = (input, init) => {
    calls.push(String(input instanceof Request ? input.url : input));
    return fetch(input, init);
  };
  let m = monitorOn(t, dir.dir, { fetch: counting }).start();
  let off = m.subscribe(`pool:${POOL}`, () => {});
  await until(() => m.store.market.lastTradeStreamId(POOL) !== undefined, 30_000, 'a trade from the pool stream');
  off();
  await m.close();
  await sleep(REPLAY_EVIDENCE_MS + 5_000);

  m = monitorOn(t, dir.dir, { fetch: counting }).start();
  cleanups.push(() => m.close());
  const lastMs = m.store.market.lastTradeMs(POOL)!;
  const cursor = m.store.market.lastTradeStreamId(POOL);
  const back = Date.now();
  calls.length = 0;
  off = m.subscribe(`pool:${POOL}`, () => {});
  cleanups.push(off);
  const fromSec = Math.floor(lastMs / 1000);
  const toSec = Math.floor(back / 1000) - 1;
  // The gap as the service's REST answers it, second by second (at most 100 trades per answer).
  const gapDigests: string[] = [];
  for (let sec = fromSec; sec <= toSec; sec++) {
    const r = await t.get(`/dex/${POOL}/trades`, { from: sec, to: sec, limit: 100 });
    expect(r.status).toBe(200);
    const trades = r.body as Array<{ event_digest: string; checkpoint_timestamp_ms: number }>;
    expect(trades.length).toBeLessThan(100);
    gapDigests.push(...trades.filter((x) => x.checkpoint_timestamp_ms > lastMs).map((x) => x.event_digest));
  }
  await until(() => gapDigests.every((d) => storedDigests(m).has(d)), 20_000, 'every trade of the gap stored').catch(
    () => {},
  );
  await sleep(3_000); // past the wait for a replay's first trade
  const stored = storedDigests(m);
  return {
    backfills: calls.filter((u) => u.includes(`/dex/${POOL}/trades?`) && u.includes(`from=${fromSec}`)),
    missing: gapDigests.filter((d) => !stored.has(d)).length,
    gapTrades: gapDigests.length,
    cursorMoved: m.store.market.lastTradeStreamId(POOL) !== cursor,
  };
}

describe('resume on the pool stream', () => {
  it('skips the REST backfill when the service replays the gap, and backfills when it does not; nothing lost either way', async () => {
    const replaying = await startTestSim({ speed: 120, historyDays: 0.1, poolResume: true });
    const plain = await startTestSim({ speed: 120, historyDays: 0.1 });
    cleanups.push(
      () => replaying.close(),
      () => plain.close(),
    );
    // Both at once: each needs more than half a minute away.
    const [withReplay, without] = await Promise.all([offlineAndBack(replaying), offlineAndBack(plain)]);
    console.log(
      `pool stream resume: replaying service ${withReplay.gapTrades} trades in the gap, ${withReplay.backfills.length} REST backfills; plain service ${without.gapTrades} trades, ${without.backfills.length} backfills`,
    );
    expect(withReplay.gapTrades).toBeGreaterThan(0);
    expect(withReplay.missing).toBe(0);
    expect(withReplay.backfills).toEqual([]);
    expect(withReplay.cursorMoved).toBe(true);
    expect(without.gapTrades).toBeGreaterThan(0);
    expect(without.missing).toBe(0);
    expect(without.backfills.length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
