import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, MarginEventSchema, PoolStreamEventSchema } from '../../../src/shared/api';
import { riskRatioFromStream } from '../../../src/shared/units';
import { startTestSim, type TestSim } from '../../support/sim';
import { openSse, type SseReader } from '../../support/sse';

let t: TestSim;
const open: SseReader[] = [];
const onClose: Array<() => Promise<void>> = [];

async function sse(
  path: string,
  params: Record<string, string> = {},
  key?: string | null,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  const r = await openSse(t.url(path, params, key), headers);
  open.push(r);
  return r;
}

function idKey(id: string): [number, number] {
  const [ms, seq] = id.split('-').map(Number);
  return [ms!, seq!];
}
function idLess(a: string, b: string): boolean {
  const [am, as] = idKey(a);
  const [bm, bs] = idKey(b);
  return am < bm || (am === bm && as < bs);
}

beforeAll(async () => {
  // Speed 900: fifteen minutes of market activity per second, so liquidations show up in seconds.
  t = await startTestSim({ speed: 900, heartbeatMs: 300 });
});
afterAll(async () => {
  for (const r of open) r.close();
  for (const c of onClose) await c();
  await t.close();
});

describe('the margin stream /dex-margin/manager-updates', () => {
  it('replays everything retained for last-id=0, ids strictly increasing, every event valid', async () => {
    const retained = t.sim.world.log.size;
    const r = await sse('/dex-margin/manager-updates', { 'last-id': '0' });
    expect(r.status).toBe(200);
    await r.until((x) => x.messages.length >= retained);
    const types = new Set<string>();
    for (let i = 0; i < r.messages.length; i++) {
      const m = r.messages[i]!;
      expect(m.id).toMatch(/^\d+-\d+$/);
      if (i > 0) expect(idLess(r.messages[i - 1]!.id!, m.id!)).toBe(true);
      const e = v.parse(MarginEventSchema, JSON.parse(m.data));
      types.add(e.type);
    }
    expect([...types].sort()).toEqual(
      [EVENT_TYPES.managerCreated, EVENT_TYPES.deposit, EVENT_TYPES.withdraw, EVENT_TYPES.liquidation].sort(),
    );
    // At least three days of margin history.
    const first = JSON.parse(r.messages[0]!.data);
    expect(Date.now() - first.timestamp_ms).toBeGreaterThan(3 * 86_400_000);
  });

  it('replays exactly the events after a given id', async () => {
    const all = await sse('/dex-margin/manager-updates', { 'last-id': '0' });
    await all.until((x) => x.messages.length >= 200);
    const pivot = all.messages[150]!.id!;
    const after = await sse('/dex-margin/manager-updates', { 'last-id': pivot });
    await after.until((x) => x.messages.length >= 49);
    expect(after.messages.slice(0, 49).map((m) => m.id)).toEqual(all.messages.slice(151, 200).map((m) => m.id));
    expect(after.messages.slice(0, 49).map((m) => m.data)).toEqual(all.messages.slice(151, 200).map((m) => m.data));
  }, 40_000);

  it('honours the standard Last-Event-ID header as a generic SSE client sends it; the last-id query wins', async () => {
    const all = await sse('/dex-margin/manager-updates', { 'last-id': '0' });
    await all.until((x) => x.messages.length >= 200);
    const pivot = all.messages[150]!.id!;
    const byHeader = await sse('/dex-margin/manager-updates', {}, undefined, { 'last-event-id': pivot });
    await byHeader.until((x) => x.messages.length >= 49);
    expect(byHeader.messages.slice(0, 49).map((m) => m.id)).toEqual(all.messages.slice(151, 200).map((m) => m.id));
    const both = await sse('/dex-margin/manager-updates', { 'last-id': all.messages[180]!.id! }, undefined, {
      'last-event-id': pivot,
    });
    await both.until((x) => x.messages.length >= 19);
    expect(both.messages[0]!.id).toBe(all.messages[181]!.id);
  }, 60_000);

  it('sends only new events for $ (and when last-id is absent)', async () => {
    const latestBefore = t.sim.world.log.latest()!.id;
    for (const params of [{ 'last-id': '$' }, {}] as Array<Record<string, string>>) {
      const r = await sse('/dex-margin/manager-updates', params);
      await r.until((x) => x.messages.length >= 1, 15_000);
      for (const m of r.messages) expect(idLess(latestBefore, m.id!)).toBe(true);
    }
  }, 45_000);

  it('delivers liquidations live at --speed, with the risk ratio scaled by 1e6', async () => {
    // Liquidations follow price moves: a minute apart in a burst, up to 14 hours of sim time between
    // bursts (56 s of wall time at the shared sim's speed 900). A sim of its own at speed 3000 makes
    // the 60 s window 50 hours, with a short history so it starts at once.
    const fast = await startTestSim({ speed: 3000, historyDays: 0.3, heartbeatMs: 300 });
    onClose.push(() => fast.close());
    const r = await openSse(fast.url('/dex-margin/manager-updates', { 'last-id': '$' }));
    open.push(r);
    await r.until((x) => x.messages.some((m) => JSON.parse(m.data).type === EVENT_TYPES.liquidation), 60_000);
    const liq = r.messages.map((m) => JSON.parse(m.data)).find((e) => e.type === EVENT_TYPES.liquidation);
    expect(Number.isInteger(liq.data.risk_ratio)).toBe(true);
    const ratio = riskRatioFromStream(liq.data.risk_ratio);
    expect(ratio).toBeGreaterThan(0);
    // Below its pool's liquidation ratio: 1.125 by default, 1.2 on WAL_USDC, 1.1 on XBTC_USDC.
    expect(ratio).toBeLessThan(1.2);
    const rest = await fast.get('/dex-margin/liquidations', {
      marginManagerId: liq.data.margin_manager_id,
      perPage: 50,
    });
    const match = rest.body.items.find((l: any) => l.onchain_timestamp === liq.data.timestamp);
    expect(match).toBeDefined();
    expect(match.risk_ratio).toBeCloseTo(ratio, 5);
    expect(match.liquidation_amount).toBe(liq.data.liquidation_amount);
  }, 90_000);

  it('sends : ping heartbeats', async () => {
    const r = await sse('/dex-margin/manager-updates', { 'last-id': '$' });
    const pings = (x: typeof r): number => x.comments.filter((c) => c === 'ping').length;
    await r.until((x) => pings(x) >= 2, 5000);
    expect(pings(r)).toBeGreaterThanOrEqual(2);
  });

  it('rejects a malformed last-id with 400 and a missing key with 401', async () => {
    const bad = await fetch(t.url('/dex-margin/manager-updates', { 'last-id': 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toContain('last-id');
    const noKey = await fetch(t.url('/dex-margin/manager-updates', {}, null));
    expect(noKey.status).toBe(401);
  });
});

describe('the pool stream /dex/{pool}/live-trades', () => {
  it('sends a depth snapshot at once, then trades and depth of that pool', async () => {
    const pool = t.sim.world.marketsByName.get('SUI_USDC')!.pool;
    const r = await sse('/dex/SUI_USDC/live-trades');
    expect(r.status).toBe(200);
    await r.until(
      (x) => x.messages.filter((m) => JSON.parse(m.data).type === EVENT_TYPES.liveTrade).length >= 3,
      15_000,
    );
    const events = r.messages.map((m) => v.parse(PoolStreamEventSchema, JSON.parse(m.data)));
    expect(events[0]!.type).toBe(EVENT_TYPES.depth);
    for (const e of events) {
      expect(e.data.pool_id).toBe(pool.pool_id);
      if (e.type === EVENT_TYPES.depth) expect(e.data.bids[0]!.price).toBeLessThan(e.data.asks[0]!.price);
      else expect(e.checkpoint_id).toBe(e.data.checkpoint);
    }
    expect(events.some((e) => e.type === EVENT_TYPES.depth && events.indexOf(e) > 0)).toBe(true);
    // Streamed trades are the same trades the REST endpoint serves.
    const trade = events.find((e) => e.type === EVENT_TYPES.liveTrade)!;
    if (trade.type !== EVENT_TYPES.liveTrade) throw new Error('unreachable');
    const sec = Math.floor(trade.data.checkpoint_timestamp_ms / 1000);
    const rest = await t.get('/dex/SUI_USDC/trades', { from: sec, to: sec });
    expect(rest.body.map((x: any) => x.event_digest)).toContain(trade.data.event_digest);
  });

  it('gives every trade a growing stream id; resume (last-id or Last-Event-ID) only when switched on', async () => {
    const trades = (r: SseReader) => r.messages.filter((m) => JSON.parse(m.data).type === EVENT_TYPES.liveTrade);
    const live = await sse('/dex/SUI_USDC/live-trades');
    await live.until((x) => trades(x).length >= 6, 15_000);
    const ids = trades(live).map((m) => m.id!);
    for (let i = 1; i < ids.length; i++) expect(idLess(ids[i - 1]!, ids[i]!)).toBe(true);
    // Off (the default, as the service contract shows no resume on the pool stream): last-id is
    // ignored, only new trades come.
    const ignored = await sse('/dex/SUI_USDC/live-trades', { 'last-id': ids[0]! });
    await ignored.until((x) => trades(x).length >= 1, 15_000);
    expect(idLess(ids[0]!, trades(ignored)[0]!.id!)).toBe(true);
    expect(trades(ignored).map((m) => m.id)).not.toContain(ids[1]);

    const on = await startTestSim({ speed: 900, poolResume: true });
    try {
      const first = await openSse(on.url('/dex/SUI_USDC/live-trades'));
      open.push(first);
      await first.until((x) => trades(x).length >= 6, 15_000);
      const sent = trades(first).map((m) => ({ id: m.id!, digest: JSON.parse(m.data).data.event_digest as string }));
      // The query: exactly the trades after the given one, in order, before the depth snapshot.
      const byQuery = await openSse(on.url('/dex/SUI_USDC/live-trades', { 'last-id': sent[1]!.id }));
      const byHeader = await openSse(on.url('/dex/SUI_USDC/live-trades'), { 'last-event-id': sent[1]!.id });
      open.push(byQuery, byHeader);
      for (const r of [byQuery, byHeader]) {
        await r.until((x) => trades(x).length >= 4, 15_000);
        expect(
          trades(r)
            .slice(0, 4)
            .map((m) => ({ id: m.id!, digest: JSON.parse(m.data).data.event_digest as string })),
        ).toEqual(sent.slice(2, 6));
      }
      const bad = await fetch(on.url('/dex/SUI_USDC/live-trades', { 'last-id': 'yesterday' }));
      expect(bad.status).toBe(400);
    } finally {
      await on.close();
    }
  }, 90_000);

  it('answers 404 for an unknown pool and 401 without a key, as JSON', async () => {
    const unknown = await fetch(t.url('/dex/NOPE_USDC/live-trades'));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('not_found');
    expect((await fetch(t.url('/dex/SUI_USDC/live-trades', {}, null))).status).toBe(401);
  });
});

describe('limits of the reference service', () => {
  it('keeps only the newest `retention` events; an id older than retention replays from the oldest retained', async () => {
    const small = await startTestSim({ retention: 50, historyDays: 0.5 });
    try {
      expect(small.sim.world.log.size).toBe(50);
      const r = await openSse(small.url('/dex-margin/manager-updates', { 'last-id': '0' }));
      open.push(r);
      await r.until((x) => x.messages.length >= 50);
      await new Promise((res) => setTimeout(res, 100));
      expect(r.messages.length).toBe(50);
      const old = await openSse(small.url('/dex-margin/manager-updates', { 'last-id': '1000-0' }));
      open.push(old);
      await old.until((x) => x.messages.length >= 50);
      expect(old.messages[0]!.id).toBe(r.messages[0]!.id);
    } finally {
      await small.close();
    }
  }, 40_000);

  it('answers 429 with Retry-After beyond the per-key request rate and stream budget', async () => {
    const limited = await startTestSim({ rateLimit: 5, maxStreams: 1, historyDays: 0.2 });
    try {
      const statuses = await Promise.all(Array.from({ length: 12 }, () => fetch(limited.url('/dex/get_pools'))));
      const tooMany = statuses.filter((s) => s.status === 429);
      expect(tooMany.length).toBeGreaterThan(0);
      expect(Number(tooMany[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await tooMany[0]!.json()) as any).error.code).toBe('rate_limited');
      await new Promise((res) => setTimeout(res, 1500));
      const first = await openSse(limited.url('/dex-margin/manager-updates'));
      open.push(first);
      expect(first.status).toBe(200);
      const second = await fetch(limited.url('/dex/SUI_USDC/live-trades'));
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});
