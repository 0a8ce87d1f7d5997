import type { Depth, Pool, PriceLevel } from '../../shared/api';
import { priceDecimals, quoteQuantityOf } from '../../shared/units';
import { objectId, type Rng } from '../rng';
import { ASSETS, type PoolSpec } from './assets';
import type { Prices } from './prices';

/**
 * A trade as the sim keeps it: compact numbers, turned into the wire object only when served
 * (see `tradeToWire`), so three days of history for six pools stay small in memory.
 */
export interface TradeRecord {
  ms: number;
  price: number;
  baseQty: number;
  takerIsBid: boolean;
  /** Transaction sequence number within the pool; fills of one taker order share it. */
  tx: number;
  fill: number;
  maker: number;
  taker: number;
  makerSeq: number;
  takerSeq: number;
  feeInToken: boolean;
}

interface Level {
  qty: number;
  count: number;
}

const LEVELS_PER_SIDE = 32;
/** Spacing of the book's levels, in basis points of the price. */
const GRID_BPS = 3;
/** Random takers in one step, at most. */
export const MAX_TAKERS_PER_STEP = 8;
/**
 * Taker orders of one pool per second of wall time, at most, whatever the speed: beyond it the
 * activity shows as larger moves, not as a flood no real pool produces.
 */
export const MAX_TAKERS_PER_WALL_SECOND = 20;

/**
 * A pool's book restarts from a fresh one at the start of each epoch of its history (a maker
 * re-quoting the whole book around the price), so the book of today needs only today's epoch:
 * the Demo world builds the current epoch first and the older ones, which only leave trades,
 * afterwards (see world.ts).
 */
export const EPOCH_MS = 3 * 3_600_000;
/** Transaction and order numbers of epoch k start at k times these, so epochs never share one. */
const TX_PER_EPOCH = 10_000_000;
const ORDERS_PER_EPOCH = 100_000_000;

export class Market {
  readonly pool: Pool;
  private tradeList: TradeRecord[] = [];
  private readonly bids = new Map<number, Level>();
  private readonly asks = new Map<number, Level>();
  /** Prices of each side, best first (bids descending, asks ascending), kept in step with the maps. */
  private readonly bidPrices: number[] = [];
  private readonly askPrices: number[] = [];
  private readonly traders: string[];
  private readonly balanceManagers: string[];
  /** The book's and takers' generator of this epoch, forked from the identity's (kept as it was after the identity). */
  private readonly rng: Rng;
  private readonly identityRng: Rng;
  private txSeq: number;
  private orderSeq: number;
  private readonly decimals: number;
  /** 10 ** price decimals and 10 ** base decimals, computed once (they are used for every order). */
  private readonly priceScale: number;
  private readonly baseScale: number;
  /** Set when the book changed since the last `takeDepthChange`. */
  private bookChanged = true;
  /** Taker orders still allowed in the current wall-clock tick (see advanceTo). */
  takerBudget = Number.POSITIVE_INFINITY;

  /**
   * `identity` draws the pool's id, traders and balance managers, or is another epoch's market
   * of the same pool, whose identity is shared. The book is empty until `open`. `prices` is where
   * fair prices are read (a recorded path while history is generated, the live oracle after).
   */
  constructor(
    readonly spec: PoolSpec,
    identity: Rng | Market,
    private prices: Prices,
    readonly epoch = 0,
    readonly traderCount = 48,
  ) {
    const base = ASSETS[spec.base]!;
    if (identity instanceof Market) {
      this.pool = identity.pool;
      this.traders = identity.traders;
      this.balanceManagers = identity.balanceManagers;
      this.identityRng = identity.identityRng;
    } else {
      const quote = ASSETS[spec.quote]!;
      this.pool = {
        pool_id: objectId(identity),
        pool_name: spec.name,
        base_asset_id: base.type,
        base_asset_decimals: base.decimals,
        base_asset_symbol: base.symbol,
        base_asset_name: base.name,
        quote_asset_id: quote.type,
        quote_asset_decimals: quote.decimals,
        quote_asset_symbol: quote.symbol,
        quote_asset_name: quote.name,
        min_size: spec.minSize,
        lot_size: spec.lotSize,
        tick_size: spec.tickSize,
      };
      this.traders = Array.from({ length: traderCount }, () => objectId(identity));
      this.balanceManagers = Array.from({ length: traderCount }, () => objectId(identity));
      this.identityRng = identity.clone();
    }
    this.decimals = priceDecimals(this.pool);
    this.priceScale = 10 ** this.decimals;
    this.baseScale = 10 ** base.decimals;
    this.rng = this.identityRng.clone().fork(`epoch ${epoch}`);
    this.txSeq = epoch * TX_PER_EPOCH;
    this.orderSeq = 1_000_000 + epoch * ORDERS_PER_EPOCH;
  }

  /** Trades in time order (older epochs are put in front once generated). */
  get trades(): readonly TradeRecord[] {
    return this.tradeList;
  }

  /** Quote the epoch's first book around the current fair price. */
  open(): void {
    this.refill(true);
  }

  /** Read fair prices from `prices` from now on. */
  usePrices(prices: Prices): void {
    this.prices = prices;
  }

  /** Put the trades of earlier epochs (in time order, all before this one's) in front. */
  prependHistory(older: readonly TradeRecord[]): void {
    if (older.length > 0) this.tradeList = older.concat(this.tradeList);
  }

  trader(i: number): string {
    return this.traders[i % this.traders.length]!;
  }

  balanceManager(i: number): string {
    return this.balanceManagers[i % this.balanceManagers.length]!;
  }

  /** Fair price in raw units, from the USD oracle. */
  fairRaw(): number {
    const human = this.prices.price(this.spec.base) / this.prices.price(this.spec.quote);
    return human * this.priceScale;
  }

  private gridRaw(fair: number): number {
    const tick = this.spec.tickSize;
    return Math.max(tick, Math.round((fair * GRID_BPS) / 10_000 / tick) * tick);
  }

  private randomQty(fairRaw: number): number {
    const baseUsd = this.prices.price(this.spec.base);
    const human = this.rng.logNormal(this.spec.tradeUsd / baseUsd, 1.0);
    return this.lots(human * this.baseScale, fairRaw);
  }

  /** Round a raw base quantity to whole lots, at least min_size. */
  private lots(raw: number, _fair: number): number {
    const lot = this.spec.lotSize;
    return Math.max(this.spec.minSize, Math.round(raw / lot) * lot);
  }

  /** Keep each side of the book at LEVELS_PER_SIDE levels, added near the inside. */
  private refill(initial = false): void {
    const fair = this.fairRaw();
    const grid = this.gridRaw(fair);
    const tick = this.spec.tickSize;
    // Market makers quote close to fair: when the inside drifted away, a level goes in at one grid step.
    const bestBid = this.bidPrices[0];
    const bestAsk = this.askPrices[0];
    if (bestBid === undefined || bestBid < fair - 2 * grid) {
      const price = Math.floor((fair - grid) / tick) * tick;
      if (price > 0) this.setLevel(this.bids, price, { qty: this.randomQty(fair) * 2, count: 1 });
    }
    if (bestAsk === undefined || bestAsk > fair + 2 * grid) {
      const price = Math.ceil((fair + grid) / tick) * tick;
      this.setLevel(this.asks, price, { qty: this.randomQty(fair) * 2, count: 1 });
    }
    this.fillSide(this.bids, 1, fair, grid, initial);
    this.fillSide(this.asks, -1, fair, grid, initial);
    this.bookChanged = true;
  }

  private fillSide(book: Map<number, Level>, side: 1 | -1, fair: number, grid: number, initial: boolean): void {
    const tick = this.spec.tickSize;
    let guard = 0;
    while (book.size < LEVELS_PER_SIDE && guard++ < 200) {
      const k = initial ? book.size + 1 : 1 + Math.floor(this.rng.exp(6));
      const raw = side === 1 ? fair - k * grid : fair + k * grid;
      const price = side === 1 ? Math.floor(raw / tick) * tick : Math.ceil(raw / tick) * tick;
      if (price <= 0) break;
      const level = book.get(price) ?? { qty: 0, count: 0 };
      const orders = 1 + Math.floor(this.rng.exp(1.5));
      for (let i = 0; i < orders; i++) level.qty += this.randomQty(fair) * 2;
      level.count += orders;
      this.setLevel(book, price, level);
    }
  }

  private pricesOf(book: Map<number, Level>): number[] {
    return book === this.bids ? this.bidPrices : this.askPrices;
  }

  private setLevel(book: Map<number, Level>, price: number, level: Level): void {
    if (!book.has(price)) {
      let i = 0;
      if (book === this.bids) {
        const prices = this.bidPrices;
        while (i < prices.length && prices[i]! > price) i++;
        prices.splice(i, 0, price);
      } else {
        const prices = this.askPrices;
        while (i < prices.length && prices[i]! < price) i++;
        prices.splice(i, 0, price);
      }
    }
    book.set(price, level);
  }

  private deleteLevel(book: Map<number, Level>, price: number): void {
    if (!book.delete(price)) return;
    const prices = this.pricesOf(book);
    prices.splice(prices.indexOf(price), 1);
  }

  /**
   * Advance the pool by dtSec of market time at wall-clock time `ms`. Returns the trades made.
   * Levels that the fair price has passed are taken by takers (so trades follow the price),
   * random takers arrive, and makers cancel and add orders.
   */
  step(dtSec: number, ms: number): TradeRecord[] {
    const made: TradeRecord[] = [];
    const fair = this.fairRaw();
    // Asks at or below fair are bought, bids at or above fair are sold. A level taken whole (or
    // pulled when over budget) leaves the book, so the next best is always at index 0.
    while (this.askPrices.length > 0 && this.askPrices[0]! <= fair) {
      const price = this.askPrices[0]!;
      if (this.takerBudget >= 1) this.take(true, price, this.asks.get(price)!.qty, ms, made);
      else this.deleteLevel(this.asks, price); // over budget: the level is pulled instead of taken
    }
    while (this.bidPrices.length > 0 && this.bidPrices[0]! >= fair) {
      const price = this.bidPrices[0]!;
      if (this.takerBudget >= 1) this.take(false, price, this.bids.get(price)!.qty, ms, made);
      else this.deleteLevel(this.bids, price);
    }
    const takers = Math.min(
      MAX_TAKERS_PER_STEP,
      Math.floor(this.takerBudget),
      this.poisson(dtSec / this.spec.tradeEverySec),
    );
    for (let i = 0; i < takers; i++) {
      const isBid = this.rng.chance(0.5);
      const book = isBid ? this.asks : this.bids;
      const best = this.pricesOf(book)[0];
      if (best === undefined) continue;
      this.take(isBid, best, this.randomQty(fair), ms, made);
    }
    // Makers: cancel a few orders, mostly far from the inside, then top the book up.
    const cancels = this.poisson((dtSec / this.spec.tradeEverySec) * 2);
    for (let i = 0; i < cancels; i++) {
      const book = this.rng.chance(0.5) ? this.bids : this.asks;
      const prices = this.pricesOf(book);
      if (prices.length < 4) continue;
      const price = prices[Math.min(prices.length - 1, 2 + Math.floor(this.rng.exp(10)))]!;
      const level = book.get(price)!;
      const cut = this.lots(level.qty / (level.count + 1), fair);
      if (level.count <= 1 || level.qty - cut < this.spec.minSize) this.deleteLevel(book, price);
      else this.setLevel(book, price, { qty: level.qty - cut, count: level.count - 1 });
      this.bookChanged = true;
    }
    this.refill();
    return made;
  }

  private poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.rng.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.rng.next();
    while (p > limit) {
      k++;
      p *= this.rng.next();
    }
    return k;
  }

  /** A taker order of `qty` at `price`: fills against the level's resting orders, one record each, added to `out`. */
  private take(takerIsBid: boolean, price: number, qty: number, ms: number, out: TradeRecord[]): void {
    const book = takerIsBid ? this.asks : this.bids;
    const level = book.get(price);
    if (!level) return;
    const fillQty = Math.min(qty, level.qty);
    this.takerBudget--;
    const fills = Math.max(1, Math.min(level.count, 1 + Math.floor(this.rng.exp(0.8))));
    const tx = ++this.txSeq;
    const taker = this.rng.int(0, this.traderCount - 1);
    const takerSeq = ++this.orderSeq;
    let left = fillQty;
    for (let f = 0; f < fills && left > 0; f++) {
      const part =
        f === fills - 1
          ? left
          : Math.max(this.spec.lotSize, Math.round(left / (fills - f) / this.spec.lotSize) * this.spec.lotSize);
      const q = Math.min(left, part);
      left -= q;
      let maker = this.rng.int(0, this.traderCount - 1);
      if (maker === taker) maker = (maker + 1) % this.traderCount;
      const rec: TradeRecord = {
        ms,
        price,
        baseQty: q,
        takerIsBid,
        tx,
        fill: f,
        maker,
        taker,
        makerSeq: this.orderSeq - 1 - this.rng.int(0, 5000),
        takerSeq,
        feeInToken: this.rng.chance(0.7),
      };
      out.push(rec);
      this.tradeList.push(rec);
    }
    if (level.qty - fillQty < this.spec.lotSize) this.deleteLevel(book, price);
    else this.setLevel(book, price, { qty: level.qty - fillQty, count: Math.max(1, level.count - (fills - 1)) });
    this.bookChanged = true;
  }

  /** True once after each change of the book (depth events are sent only then). */
  takeDepthChange(): boolean {
    const changed = this.bookChanged;
    this.bookChanged = false;
    return changed;
  }

  depth(limit: number): Depth {
    const levels = (book: Map<number, Level>): PriceLevel[] =>
      this.pricesOf(book)
        .slice(0, limit)
        .map((price) => {
          const l = book.get(price)!;
          return { price, total_quantity: l.qty, order_count: l.count };
        });
    return { pool_id: this.pool.pool_id, bids: levels(this.bids), asks: levels(this.asks) };
  }

  midRaw(): number {
    const bid = this.pricesOf(this.bids)[0];
    const ask = this.pricesOf(this.asks)[0];
    if (bid === undefined || ask === undefined) return this.fairRaw();
    return (bid + ask) / 2;
  }

  /** Quote quantity of a record: base x price / 1e9, integer division. */
  static quoteOf(rec: TradeRecord): number {
    return Number(quoteQuantityOf(rec.baseQty, rec.price));
  }

  /** Drop trades older than `ms` (bounded memory in a long-running demo). */
  forgetBefore(ms: number): void {
    let n = 0;
    while (n < this.tradeList.length && this.tradeList[n]!.ms < ms) n++;
    if (n > 0) this.tradeList.splice(0, n);
  }
}
