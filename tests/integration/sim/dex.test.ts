import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CandleListSchema, DepthSchema, PoolListSchema, TradeListSchema } from '../../../src/shared/api';
import { humanPrice, quoteQuantityOf } from '../../../src/shared/units';
import { startTestSim, type TestSim } from '../../support/sim';

let t: TestSim;
const nowSec = (): number => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await startTestSim({ speed: 5 });
});
afterAll(() => t.close());

describe('GET /dex/get_pools (5)', () => {
  it('lists at least four pools with realistic decimals and sizes', async () => {
    const r = await t.get('/dex/get_pools');
    expect(r.status).toBe(200);
    const pools = v.parse(PoolListSchema, r.body);
    expect(pools.length).toBeGreaterThanOrEqual(4);
    const sui = pools.find((p) => p.pool_name === 'SUI_USDC')!;
    expect(sui).toMatchObject({
      base_asset_symbol: 'SUI',
      base_asset_decimals: 9,
      quote_asset_symbol: 'USDC',
      quote_asset_decimals: 6,
    });
    for (const p of pools) {
      expect(p.pool_id).toMatch(/^0x[0-9a-f]{64}$/);
      expect(p.base_asset_id).toMatch(/^0x[0-9a-f]{64}::\w+::\w+$/);
      expect(p.min_size % p.lot_size).toBe(0);
      expect(p.tick_size).toBeGreaterThan(0);
    }
  });
});

describe('GET /dex/{pool}/order-book-depth (6)', () => {
  it('returns bids highest first and asks lowest first, best bid below best ask, on the tick grid', async () => {
    const pools = (await t.get('/dex/get_pools')).body as any[];
    for (const p of pools) {
      const r = await t.get(`/dex/${p.pool_name}/order-book-depth`);
      expect(r.status).toBe(200);
      const depth = v.parse(DepthSchema, r.body);
      expect(depth.pool_id).toBe(p.pool_id);
      expect(depth.bids.length).toBe(20);
      expect(depth.asks.length).toBe(20);
      expect(depth.bids[0]!.price).toBeLessThan(depth.asks[0]!.price);
      for (let i = 1; i < 20; i++) {
        expect(depth.bids[i]!.price).toBeLessThan(depth.bids[i - 1]!.price);
        expect(depth.asks[i]!.price).toBeGreaterThan(depth.asks[i - 1]!.price);
      }
      for (const l of [...depth.bids, ...depth.asks]) {
        expect(l.price % p.tick_size).toBe(0);
        expect(l.total_quantity % p.lot_size).toBe(0);
        expect(l.order_count).toBeGreaterThanOrEqual(1);
      }
      // The spread is a fraction of a percent, as on a liquid book.
      const mid = humanPrice((depth.bids[0]!.price + depth.asks[0]!.price) / 2, p);
      expect(humanPrice(depth.asks[0]!.price, p) / mid - 1).toBeLessThan(0.01);
    }
  });

  it('honours limit and rejects values out of 1..20', async () => {
    const r = await t.get('/dex/SUI_USDC/order-book-depth', { limit: 5 });
    expect(r.body.bids.length).toBe(5);
    expect(r.body.asks.length).toBe(5);
    for (const limit of [0, 21, 'x']) {
      const bad = await t.get('/dex/SUI_USDC/order-book-depth', { limit });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('limit');
    }
  });

  it('answers 404 for an unknown pool and 401 without a key', async () => {
    const r = await t.get('/dex/NOPE_USDC/order-book-depth');
    expect(r.status).toBe(404);
    expect(r.body.error.message).toContain('NOPE_USDC');
    // The same text at the top level, for clients that read only `message` (the real service's SDK).
    expect(r.body.message).toBe(r.body.error.message);
    const unauthorized = await t.get('/dex/SUI_USDC/order-book-depth', {}, null);
    expect(unauthorized.status).toBe(401);
    expect(typeof unauthorized.body.message).toBe('string');
  });

  it('the book moves over time', async () => {
    const a = (await t.get('/dex/SUI_USDC/order-book-depth')).body;
    // The Demo network's clock driven 2 s ahead at 300x (10 minutes of market), not a wall-clock wait
    // that may see no order placed; the server's own tick resumes once wall time catches up.
    t.sim.world.advanceTo(Date.now() + 2_000, 300);
    const b = (await t.get('/dex/SUI_USDC/order-book-depth')).body;
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });
});

describe('GET /dex/{pool}/trades (7)', () => {
  it('returns the last day by default, at most 100, most recent first, with consistent quantities', async () => {
    const r = await t.get('/dex/SUI_USDC/trades');
    expect(r.status).toBe(200);
    const trades = v.parse(TradeListSchema, r.body);
    expect(trades.length).toBe(100);
    const pool = ((await t.get('/dex/get_pools')).body as any[]).find((p) => p.pool_name === 'SUI_USDC');
    for (let i = 0; i < trades.length; i++) {
      const tr = trades[i]!;
      if (i > 0) expect(tr.checkpoint_timestamp_ms).toBeLessThanOrEqual(trades[i - 1]!.checkpoint_timestamp_ms);
      expect(tr.pool_id).toBe(pool.pool_id);
      expect(BigInt(tr.quote_quantity)).toBe(quoteQuantityOf(tr.base_quantity, tr.price));
      expect(tr.price % pool.tick_size).toBe(0);
      expect(tr.base_quantity % pool.lot_size).toBe(0);
      expect(BigInt(tr.maker_order_id)).toBeGreaterThan(2n ** 53n);
      expect(tr.sender).toMatch(/^0x[0-9a-f]{64}$/);
      expect(tr.checkpoint_timestamp_ms).toBeGreaterThan((nowSec() - 86_400) * 1000 - 1000);
    }
    expect(typeof (r.body as any[])[0].maker_order_id).toBe('string');
    expect(new Set(trades.map((x) => x.event_digest)).size).toBe(trades.length);
  });

  it('holds at least three days of history, selected by from/to inclusive seconds', async () => {
    const from = nowSec() - 3 * 86_400;
    const r = await t.get('/dex/SUI_USDC/trades', { from, to: from + 3600, limit: 100 });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    for (const tr of r.body) {
      expect(Math.floor(tr.checkpoint_timestamp_ms / 1000)).toBeGreaterThanOrEqual(from);
      expect(Math.floor(tr.checkpoint_timestamp_ms / 1000)).toBeLessThanOrEqual(from + 3600);
    }
    const limited = await t.get('/dex/SUI_USDC/trades', { from, to: from + 3600, limit: 3 });
    expect(limited.body.map((x: any) => x.event_digest)).toEqual(r.body.slice(0, 3).map((x: any) => x.event_digest));
  });

  it('rejects bad limits, non-numbers and from after to', async () => {
    for (const [params, name] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ from: 'yesterday' }, 'from'],
      [{ to: '-5' }, 'to'],
      [{ from: 200, to: 100 }, 'from'],
    ] as const) {
      const r = await t.get('/dex/SUI_USDC/trades', params);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(name);
    }
    expect((await t.get('/dex/NOPE/trades')).status).toBe(404);
  });
});

describe('GET /dex/{pool}/ohlcv/{timeframe} (8)', () => {
  it('serves every timeframe oldest to newest, stamped at period starts, without zone suffix', async () => {
    for (const [tf, sec] of [
      ['1m', 60],
      ['5m', 300],
      ['15m', 900],
      ['1h', 3600],
      ['4h', 14_400],
      ['1d', 86_400],
    ] as const) {
      const r = await t.get(`/dex/SUI_USDC/ohlcv/${tf}`, { from: nowSec() - 3 * 86_400, to: nowSec() });
      expect(r.status).toBe(200);
      const candles = v.parse(CandleListSchema, r.body);
      expect(candles.length).toBeGreaterThan(0);
      expect(candles.length).toBeLessThanOrEqual(100);
      for (let i = 0; i < candles.length; i++) {
        const c = candles[i]!;
        expect(c.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
        const ms = Date.parse(`${c.timestamp}Z`);
        expect(ms % (sec * 1000)).toBe(0);
        if (i > 0) expect(ms).toBeGreaterThan(Date.parse(`${candles[i - 1]!.timestamp}Z`));
        expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
        expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
        expect(typeof (r.body as any[])[i].volume_base).toBe('string');
      }
    }
  });

  it('1m candles agree with the trades of their minute', async () => {
    const to = nowSec() - 120;
    const candles = (await t.get('/dex/SUI_USDC/ohlcv/1m', { from: to - 40 * 60, to })).body as any[];
    expect(candles.length).toBeGreaterThan(5);
    for (const c of candles.slice(0, 8)) {
      const start = Date.parse(`${c.timestamp}Z`) / 1000;
      const trades = (await t.get('/dex/SUI_USDC/trades', { from: start, to: start + 59, limit: 100 })).body as any[];
      expect(trades.length).toBe(c.trade_count);
      const chrono = [...trades].reverse();
      expect(chrono[0].price).toBe(c.open);
      expect(chrono[chrono.length - 1].price).toBe(c.close);
      expect(Math.max(...trades.map((x) => x.price))).toBe(c.high);
      expect(Math.min(...trades.map((x) => x.price))).toBe(c.low);
      expect(trades.reduce((s, x) => s + BigInt(x.base_quantity), 0n).toString()).toBe(c.volume_base);
      expect(trades.reduce((s, x) => s + BigInt(x.quote_quantity), 0n).toString()).toBe(c.volume_quote);
    }
  });

  it('returns the most recent `limit` candles of the window', async () => {
    const from = nowSec() - 86_400;
    const all = (await t.get('/dex/SUI_USDC/ohlcv/1h', { from, to: nowSec() })).body as any[];
    const last3 = (await t.get('/dex/SUI_USDC/ohlcv/1h', { from, to: nowSec(), limit: 3 })).body as any[];
    expect(last3.map((c) => c.timestamp)).toEqual(all.slice(-3).map((c) => c.timestamp));
  });

  it('rejects an unknown timeframe and bad limits', async () => {
    const r = await t.get('/dex/SUI_USDC/ohlcv/2m');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('timeframe');
    expect((await t.get('/dex/SUI_USDC/ohlcv/1m', { limit: 500 })).status).toBe(400);
    expect((await t.get('/dex/NOPE/ohlcv/1m')).status).toBe(404);
  });
});

describe('the service as a whole', () => {
  it('answers 404 JSON for an unknown path and 405 for other methods', async () => {
    const r = await t.get('/nope');
    expect(r.status).toBe(404);
    expect(r.body.error.status).toBe(404);
    const post = await fetch(t.url('/dex/get_pools'), { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
