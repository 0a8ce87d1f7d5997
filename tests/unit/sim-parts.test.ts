import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Market } from '../../src/sim/chain/market';
import { candlesInRange, tradesInRange } from '../../src/sim/chain/series';
import { World } from '../../src/sim/chain/world';
import { MarginEventLog, parseStreamId } from '../../src/sim/event-log';
import { matchesFields, parseFieldsFilter } from '../../src/sim/http/fields-filter';
import { Rng, txDigest } from '../../src/sim/rng';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('the synthetic chain', () => {
  const a = new World({ seed: 11, nowMs: NOW, historyDays: 1 });

  it('is the same for the same seed and differs for another', () => {
    const b = new World({ seed: 11, nowMs: NOW, historyDays: 1 });
    expect(b.describe()).toEqual(a.describe());
    expect(b.markets[0]!.trades.slice(-50)).toEqual(a.markets[0]!.trades.slice(-50));
    expect(b.log.since('all').map((e) => e.json)).toEqual(a.log.since('all').map((e) => e.json));
    const c = new World({ seed: 12, nowMs: NOW, historyDays: 1 });
    expect(c.describe().wallets).not.toEqual(a.describe().wallets);
  });

  it('keeps every book uncrossed, on the tick and lot grid, while it runs live', () => {
    const w = new World({ seed: 3, nowMs: NOW, historyDays: 0.2 });
    for (let i = 0; i < 400; i++) {
      w.advanceTo(w.now + 250, 120);
      for (const m of w.markets) {
        const d = m.depth(20);
        expect(d.bids[0]!.price).toBeLessThan(d.asks[0]!.price);
        for (const l of [...d.bids, ...d.asks]) {
          expect(l.price % m.pool.tick_size).toBe(0);
          expect(l.total_quantity % m.pool.lot_size).toBe(0);
        }
      }
    }
  });

  it('aggregates candles that agree with the trades of each period, however the range is split', () => {
    const trades = a.markets[0]!.trades;
    const end = Math.floor(NOW / 1000);
    const whole = candlesInRange(trades, '5m', end - 6 * 3600, end, 100);
    expect(whole.length).toBeGreaterThan(30);
    for (const c of whole) {
      const start = Date.parse(`${c.timestamp}Z`) / 1000;
      const inPeriod = tradesInRange(trades, start, start + 299, 10_000).reverse();
      expect(c.trade_count).toBe(inPeriod.length);
      expect(c.open).toBe(inPeriod[0]!.price);
      expect(c.close).toBe(inPeriod[inPeriod.length - 1]!.price);
      expect(BigInt(c.volume_quote)).toBe(inPeriod.reduce((s, t) => s + BigInt(Market.quoteOf(t)), 0n));
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 71 }), (cut) => {
        const split = end - 6 * 3600 + cut * 300;
        const left = candlesInRange(trades, '5m', end - 6 * 3600, split - 1, 100);
        const right = candlesInRange(trades, '5m', split, end, 100);
        expect([...left, ...right]).toEqual(whole);
      }),
      { numRuns: 30 },
    );
  });

  it("liquidates managers whose ratio fell below their pool's liquidation ratio, with that pool's rewards", () => {
    const w = new World({ seed: 5, nowMs: NOW });
    expect(w.margin.liquidations.length).toBeGreaterThan(20);
    const managers = new Map(w.margin.managers.map((m) => [m.id, m]));
    const pools = new Set<string>();
    for (const l of w.margin.liquidations) {
      const risk = managers.get(l.margin_manager_id)!.risk;
      pools.add(managers.get(l.margin_manager_id)!.market.pool.pool_name);
      // Below it; the record rounds the ratio to 1e-6, so one a hair below reads as the threshold.
      expect(l.risk_ratio).toBeLessThanOrEqual(risk.liquidation);
      expect(l.pool_reward).toBe(Math.round(l.liquidation_amount * risk.poolReward));
    }
    // Pools with other parameters than the defaults liquidate too.
    expect([...pools].some((p) => p === 'WAL_USDC' || p === 'XBTC_USDC')).toBe(true);
  });
});

describe('the margin stream log', () => {
  it('gives strictly increasing ids, also within one millisecond', () => {
    const log = new MarginEventLog(100);
    const ids = [log.append(1000, {}), log.append(1000, {}), log.append(999, {}), log.append(1001, {})].map(
      (e) => e.id,
    );
    expect(ids).toEqual(['1000-0', '1000-1', '1000-2', '1001-0']);
  });

  it('replays exactly the suffix after any id, and keeps only the newest `retention`', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 80 }), fc.nat(), (gaps, pick) => {
        const log = new MarginEventLog(50);
        let ms = 1_000;
        for (const g of gaps) log.append((ms += g), { g });
        const all = log.since('all');
        expect(all.length).toBe(Math.min(50, gaps.length));
        const i = pick % all.length;
        expect(log.since(parseStreamId(all[i]!.id)!)).toEqual(all.slice(i + 1));
        expect(log.since({ ms: 0, seq: 0 })).toEqual(all);
      }),
    );
  });

  it('parses only <ms>-<seq> ids', () => {
    expect(parseStreamId('1732270000000-3')).toEqual({ ms: 1_732_270_000_000, seq: 3 });
    for (const bad of ['', '12', 'a-b', '1-2-3', '-1-0']) expect(parseStreamId(bad)).toBeNull();
  });
});

describe('the fields filter', () => {
  const nft = {
    name: 'A',
    level: '5',
    attributes: {
      contents: [
        { key: 'Eyes', value: 'Laser' },
        { key: 'Hat', value: 'Crown' },
      ],
    },
  };
  const match = (f: object): boolean => matchesFields(nft, parseFieldsFilter(JSON.stringify(f)));

  it('matches equality, OR arrays, indexed dot paths and AND keys', () => {
    expect(match({})).toBe(true);
    expect(match({ name: 'A' })).toBe(true);
    expect(match({ name: 'B' })).toBe(false);
    expect(match({ name: ['B', 'A'] })).toBe(true);
    expect(match({ 'attributes.contents.0.value': 'Laser' })).toBe(true);
    expect(match({ 'attributes.contents.1.value': 'Laser' })).toBe(false);
    expect(match({ 'attributes.contents.0.value': 'Laser', name: 'B' })).toBe(false);
    expect(match({ level: 5 })).toBe(true);
    expect(match({ 'attributes.contents.9.value': 'Laser' })).toBe(false);
    expect(match({ 'name.x': 'A' })).toBe(false);
  });

  it('rejects what is not a JSON object', () => {
    for (const raw of ['x', '[]', '1', '"a"', 'null', '{"a..b":1}'])
      expect(() => parseFieldsFilter(raw)).toThrow(/fields/);
  });
});

describe('transaction digests', () => {
  /** Base58 of the 32 bytes as one BigInt: what the digests were made with before. */
  function bigIntDigest(rng: Rng): string {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = 0n;
    for (let i = 0; i < 32; i++) n = (n << 8n) | BigInt(rng.u32() & 0xff);
    let out = '';
    while (n > 0n) {
      out = alphabet[Number(n % 58n)] + out;
      n /= 58n;
    }
    return out.padStart(43, '1');
  }

  it('are the base58 of 32 bytes, digit for digit, so a seed still makes the same world', () => {
    for (let seed = 0; seed < 2_000; seed++) expect(txDigest(new Rng(seed))).toBe(bigIntDigest(new Rng(seed)));
    // Leading zero bytes (a small number) pad with '1', as before.
    const zeros = { u32: () => 0 } as unknown as Rng;
    expect(txDigest(zeros)).toBe('1'.repeat(43));
  });
});
