import type { MarginManager } from '../../../shared/api';
import type { UsdPrice } from '../../../shared/portfolio';
import { crossSensitivity, impliedCross, isStable, type Holdings } from '../../../shared/risk-model';
import { marginAmount } from '../../../shared/units';
import type { AssetBook } from './asset-book';

/**
 * A ratio this close to insensitive to the price (a position holding and owing mostly the same
 * asset) says too little about the price to learn it from.
 */
const MIN_SENSITIVITY = 0.2;
/** On chain the ratio is capped at 1,000: a capped one says nothing of the price. */
const MAX_RATIO = 999;
/** The learnt prices kept per asset (flows of the past are valued at the nearest). */
const HISTORY = 512;
/** A record's oracle price counts as the price now this long after it; later the exchange's move since is unknown. */
const RECENT_MS = 15 * 60_000;

/** How an oracle price was learnt. */
type How = 'ratio' | 'record' | 'exchange';

interface Anchor {
  usd: number;
  /** The exchange's price of the asset when it was learnt: the oracle moves with the exchange since. */
  exchangeUsd: number | null;
  at: number;
  how: How;
}

/** A manager's holdings and debts in human units, from its REST record; null when a debt's asset is not known. */
export function holdingsOf(
  m: Pick<MarginManager, 'dex_pool_id' | 'deposit' | 'active_loans'>,
  book: AssetBook,
): Holdings | null {
  const pool = book.poolsById.get(m.dex_pool_id);
  if (!pool) return null;
  const dep = m.deposit;
  const h: Holdings = {
    base: dep ? marginAmount(dep.base_asset_amount, pool.base_asset_decimals) : 0,
    quote: dep ? marginAmount(dep.quote_asset_amount, pool.quote_asset_decimals) : 0,
    debtBase: 0,
    debtQuote: 0,
  };
  for (const loan of m.active_loans ?? []) {
    const asset = book.marginPoolAsset.get(loan.margin_pool_id);
    if (asset === pool.base_asset_id) h.debtBase += marginAmount(loan.remaining_amount, pool.base_asset_decimals);
    else if (asset === pool.quote_asset_id)
      h.debtQuote += marginAmount(loan.remaining_amount, pool.quote_asset_decimals);
    else return null;
  }
  return h;
}

/** The service's ratio of a manager (its riskiest loan's), when it can tell a price. */
function serviceRatio(m: MarginManager): number | null {
  let ratio: number | null = null;
  for (const l of m.active_loans ?? [])
    if (l.risk_ratio !== null) ratio = ratio === null ? l.risk_ratio : Math.min(ratio, l.risk_ratio);
  return ratio !== null && ratio > 0 && ratio < MAX_RATIO ? ratio : null;
}

/**
 * An oracle price learnt at `oracle` while the exchange stood at `exchangeThen`, now that the
 * exchange is at `exchangeNow`: moved with the exchange, except where the exchange moves toward
 * the oracle, closing the gap seen when it was learnt. That part is the book catching up with a
 * move the oracle had already made (a jump, a cascade), and counting it again put the valuation
 * as far under (or over) both as the gap was, until the next read (docs/valuation.md).
 */
function movedWithExchange(oracle: number, exchangeThen: number, exchangeNow: number): number {
  const gap = Math.log(oracle / exchangeThen);
  const move = Math.log(exchangeNow / exchangeThen);
  const closing = Math.sign(move) === Math.sign(gap) ? Math.sign(gap) * Math.min(Math.abs(gap), Math.abs(move)) : 0;
  return oracle * Math.exp(move - closing);
}

/**
 * The protocol's oracle prices, as Tidewatch learns them (docs/valuation.md "One valuation"). The
 * service reports each loan's risk ratio at the oracle's prices of the moment it answers; with the
 * manager's holdings and debts that ratio fixes the pool's cross rate (base in quote), and a
 * stablecoin is $1, so a read of the margin records gives every traded asset's oracle price
 * (SUI from SUI_USDC's managers, DEEP from DEEP_USDC's or from DEEP_SUI's times SUI). An asset
 * no ratio reaches takes the newest oracle price a deposit or liquidation record carries.
 * Between record reads an oracle price moves with the exchange: learnt x (exchange now /
 * exchange then), so the basis between the two stays as it was when last seen, except that the
 * exchange moving toward the oracle closes it (`movedWithExchange`). Nothing else is
 * mixed in: where no oracle price was ever learnt, the exchange's price stands, said as such.
 */
export class OracleBook {
  private readonly anchors = new Map<string, Anchor>();
  private readonly history = new Map<string, Array<{ at: number; usd: number }>>();

  /**
   * Learn from a read of margin records at `now`: each pool's cross rate from its managers'
   * ratios (weighted by how strongly each ratio answers the price), then USD prices outward from
   * the stablecoins. `exchange` gives the exchange's price of an asset read with the records.
   */
  learn(
    managers: readonly MarginManager[],
    book: AssetBook,
    exchange: (asset: string) => number | null,
    now: number,
  ): void {
    const crosses = new Map<string, { sum: number; weight: number }>();
    for (const m of managers) {
      const ratio = serviceRatio(m);
      const h = ratio === null ? null : holdingsOf(m, book);
      if (ratio === null || !h) continue;
      const c = impliedCross(h, ratio);
      const s = c === null ? 0 : Math.abs(crossSensitivity(h, c));
      if (c === null || s < MIN_SENSITIVITY) continue;
      const x = crosses.get(m.dex_pool_id) ?? { sum: 0, weight: 0 };
      x.sum += s * Math.log(c);
      x.weight += s;
      crosses.set(m.dex_pool_id, x);
    }
    const usd = new Map<string, number>();
    for (const p of book.poolsById.values()) {
      if (isStable(p.base_asset_symbol)) usd.set(p.base_asset_id, 1);
      if (isStable(p.quote_asset_symbol)) usd.set(p.quote_asset_id, 1);
    }
    const seeded = new Map<string, Anchor>();
    for (;;) {
      this.spread(crosses, book, usd);
      // A pool no stablecoin reaches (NS_SUI without a SUI_USDC manager): its quote's level from
      // the freshest source there is, and the cross rate from the ratios as before.
      const loose = [...crosses.keys()]
        .map((id) => book.poolsById.get(id)!)
        .find((p) => !usd.has(p.quote_asset_id) && !usd.has(p.base_asset_id));
      if (!loose) break;
      const level = this.level(loose.quote_asset_id, exchange(loose.quote_asset_id), now);
      if (!level) {
        crosses.delete(loose.pool_id);
        continue;
      }
      usd.set(loose.quote_asset_id, level.usd);
      seeded.set(loose.quote_asset_id, level);
    }
    for (const [asset, price] of usd) {
      if (isStable(this.symbolOf(book, asset))) continue;
      this.set(asset, seeded.get(asset) ?? { usd: price, exchangeUsd: exchange(asset), at: now, how: 'ratio' });
    }
  }

  /** Price the other side of every pool with a known cross rate whose one side is priced. */
  private spread(
    crosses: Map<string, { sum: number; weight: number }>,
    book: AssetBook,
    usd: Map<string, number>,
  ): void {
    for (let changed = true; changed;) {
      changed = false;
      for (const [poolId, x] of crosses) {
        const pool = book.poolsById.get(poolId)!;
        const c = Math.exp(x.sum / x.weight);
        const q = usd.get(pool.quote_asset_id);
        const b = usd.get(pool.base_asset_id);
        if (q !== undefined && b === undefined) {
          usd.set(pool.base_asset_id, c * q);
          changed = true;
        } else if (b !== undefined && q === undefined) {
          usd.set(pool.quote_asset_id, b / c);
          changed = true;
        }
      }
    }
  }

  /**
   * The USD level of an asset no ratio prices: its oracle price as last learnt while that is
   * recent, else the exchange's now (said as such), else the last learnt however old.
   */
  private level(asset: string, exchangeNow: number | null, now: number): Anchor | null {
    const known = this.anchors.get(asset);
    if (known && now - known.at <= RECENT_MS) return known;
    if (exchangeNow !== null) return { usd: exchangeNow, exchangeUsd: exchangeNow, at: now, how: 'exchange' };
    return known ?? null;
  }

  /**
   * An oracle price a record carries (a deposit's, a liquidation's), at `at`: kept where no newer
   * oracle price is known. `exchangeUsd`: the exchange's price then, when known.
   */
  noteRecord(asset: string, usd: number, at: number, exchangeUsd: number | null = null): void {
    if (!(usd > 0) || !Number.isFinite(usd)) return;
    const known = this.anchors.get(asset);
    if (known && known.at >= at) {
      this.remember(asset, at, usd);
      return;
    }
    this.set(asset, { usd, exchangeUsd, at, how: 'record' });
  }

  /**
   * The asset's price in the valuation: a stablecoin $1; the oracle's as learnt and moved with
   * the exchange since (`exchangeNow`); the exchange's where no oracle price is known; null when
   * neither is.
   */
  price(asset: string, symbol: string, exchangeNow: UsdPrice | null, now: number): UsdPrice | null {
    if (isStable(symbol)) return { symbol, usd: 1, source: 'stablecoin', at: now };
    const a = this.anchors.get(asset);
    const stale =
      a !== undefined && a.exchangeUsd === null && exchangeNow !== null && exchangeNow.at - a.at > RECENT_MS;
    if (!a || stale) return exchangeNow ? { ...exchangeNow, exchange_usd: exchangeNow.usd } : null;
    if (a.how === 'exchange')
      return exchangeNow
        ? { ...exchangeNow, exchange_usd: exchangeNow.usd }
        : { symbol, usd: a.usd, source: 'exchange', at: a.at, exchange_usd: a.usd };
    const moved = a.exchangeUsd !== null && exchangeNow !== null && exchangeNow.at > a.at;
    return {
      symbol,
      usd: moved ? movedWithExchange(a.usd, a.exchangeUsd!, exchangeNow.usd) : a.usd,
      source: 'oracle',
      at: moved ? exchangeNow.at : a.at,
      oracle_at: a.at,
      learnt_from: a.how,
      exchange_usd: exchangeNow?.usd ?? null,
    };
  }

  /** The learnt oracle price nearest `at` (a past deposit's value), and how far from it in time. */
  near(asset: string, at: number): { usd: number; gapMs: number } | null {
    const list = this.history.get(asset);
    if (!list || list.length === 0) return null;
    let best = list[0]!;
    for (const x of list) if (Math.abs(x.at - at) < Math.abs(best.at - at)) best = x;
    return { usd: best.usd, gapMs: Math.abs(best.at - at) };
  }

  /** Forget everything (another service). */
  reset(): void {
    this.anchors.clear();
    this.history.clear();
  }

  private set(asset: string, a: Anchor): void {
    this.anchors.set(asset, a);
    this.remember(asset, a.at, a.usd);
  }

  private remember(asset: string, at: number, usd: number): void {
    const list = this.history.get(asset) ?? [];
    if (list.some((x) => x.at === at)) return;
    list.push({ at, usd });
    list.sort((x, y) => x.at - y.at);
    if (list.length > HISTORY) list.shift();
    this.history.set(asset, list);
  }

  private symbolOf(book: AssetBook, asset: string): string {
    for (const p of book.poolsById.values()) {
      if (p.base_asset_id === asset) return p.base_asset_symbol;
      if (p.quote_asset_id === asset) return p.quote_asset_symbol;
    }
    return asset.split('::').pop() ?? asset;
  }
}
