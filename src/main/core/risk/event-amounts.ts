import type { Pool } from '../../../shared/api';
import { amountWorthText, CORE_LOCALE, POSITION_USD_DIGITS } from '../../../shared/format';
import { formatUnits, groupedAmounts } from '../../../shared/units';
import type { EventAmount, StoredMarginEvent } from '../../../shared/contract';
import type { ResponseCache } from '../store/cache-repo';
import type { MarginEventRepo } from '../store/margin-events';
import type { AssetBook } from './asset-book';

/** What is known to turn an event's raw amounts into units: the exchange pool of a manager, the asset of a margin pool. */
export interface AmountContext {
  poolOfManager(managerId: string): Pool | undefined;
  assetOfMarginPool(marginPoolId: string): { symbol: string; decimals: number } | undefined;
}

const symbolOfType = (assetType: string): string => assetType.split('::').pop() ?? assetType;

/**
 * The amounts of a margin stream event with their decimals and symbol (deposit/withdraw in the
 * manager's base and quote assets, a liquidation in its margin pool's asset), so every view shows
 * them in human units through the one formatter. Undefined when the units are not known (yet).
 */
export function amountsOf(
  e: Pick<StoredMarginEvent, 'valid' | 'type' | 'margin_manager_id'>,
  data: unknown,
  ctx: AmountContext,
): EventAmount[] | undefined {
  if (!e.valid || typeof data !== 'object' || data === null) return undefined;
  // No function is made per event: this runs for every row of Live events and every pushed event.
  const d = data as Record<string, unknown>;
  const out: EventAmount[] = [];
  const pool = e.margin_manager_id ? ctx.poolOfManager(e.margin_manager_id) : undefined;
  if (e.type.endsWith('liquidation')) {
    const asset = typeof d['margin_pool_id'] === 'string' ? ctx.assetOfMarginPool(d['margin_pool_id']) : undefined;
    const repaid = rawAmount(d['liquidation_amount']);
    if (asset && repaid !== undefined)
      out.push({ label: 'repaid', raw: repaid, decimals: asset.decimals, symbol: asset.symbol });
    if (pool) {
      // What the manager kept, without a side that is zero ("left 1,020 SUI", not "and 0 USDC");
      // both sides when both are zero: nothing was left.
      const base = rawAmount(d['remaining_base_asset']);
      const quote = rawAmount(d['remaining_quote_asset']);
      const nothing = base === '0' && quote === '0';
      if (nothing || base !== '0') pushBase(out, pool, 'left', base);
      if (nothing || quote !== '0') pushQuote(out, pool, 'left', quote);
    }
  } else if (pool && (e.type.endsWith('deposit') || e.type.endsWith('withdraw'))) {
    const base = rawAmount(d['base_asset_amount']);
    const quote = rawAmount(d['quote_asset_amount']);
    if (base !== '0') pushBase(out, pool, '', base);
    if (quote !== '0') pushQuote(out, pool, '', quote);
  }
  return out.length > 0 ? out : undefined;
}

/** A raw amount as digits: a whole number of smallest units, or such a numeric string as some services send them. */
function rawAmount(x: unknown): string | undefined {
  if (typeof x === 'number') return Number.isInteger(x) && x >= 0 && x < 1e21 ? String(x) : undefined;
  return typeof x === 'string' && /^\d+$/.test(x) ? x : undefined;
}

function pushBase(out: EventAmount[], pool: Pool, label: string, raw: string | undefined): void {
  if (raw !== undefined) out.push({ label, raw, decimals: pool.base_asset_decimals, symbol: pool.base_asset_symbol });
}

function pushQuote(out: EventAmount[], pool: Pool, label: string, raw: string | undefined): void {
  if (raw !== undefined) out.push({ label, raw, decimals: pool.quote_asset_decimals, symbol: pool.quote_asset_symbol });
}

/**
 * Puts units on events as far as they are known now, never waiting for the network: exchange
 * pools from the asset book (or the cached pool list offline), a manager's pool from its stored
 * manager_created event or its REST record, a margin pool's asset from the asset book.
 */
/** How long a manager with no known pool is not looked up again. */
const UNKNOWN_TTL_MS = 60_000;

export class EventUnits {
  private readonly managerPools = new Map<string, string>();
  /** Managers the store had no pool for: not asked again for a minute (most protocol-wide managers). */
  private readonly unknown = new Set<string>();
  private unknownSince = 0;
  private poolsFrom: { readAt: number; pools: Map<string, Pool> } | undefined;

  constructor(
    private readonly repo: MarginEventRepo,
    private readonly cache: ResponseCache,
    /** The asset book if loaded; asking starts loading it in the background. */
    private readonly book: () => AssetBook | undefined,
  ) {}

  /** A manager's exchange pool learnt elsewhere (the REST margin managers). */
  notePool(managerId: string, dexPoolId: string): void {
    this.managerPools.set(managerId, dexPoolId);
    this.unknown.delete(managerId);
  }

  /** The pools from the response cache while the asset book is not loaded, read at most every 5 s (not per batch). */
  private cachedPools(): Map<string, Pool> {
    const now = Date.now();
    if (!this.poolsFrom || now - this.poolsFrom.readAt > 5_000) {
      this.poolsFrom = {
        readAt: now,
        pools: new Map((this.cache.load<Pool[]>('pools')?.data ?? []).map((p) => [p.pool_id, p])),
      };
    }
    return this.poolsFrom.pools;
  }

  /** Units on each event, and `own` on those of the user's managers (`isOwn`), which privacy mode masks. */
  apply<E extends StoredMarginEvent>(events: E[], isOwn: (managerId: string) => boolean = () => false): E[] {
    const ctx = this.context(events, (e) => e.data);
    return events.map((e) => {
      const amounts = amountsOf(e, e.data, ctx);
      const own = e.margin_manager_id !== null && isOwn(e.margin_manager_id);
      return amounts || own ? { ...e, ...(amounts ? { amounts } : {}), ...(own ? { own } : {}) } : e;
    });
  }

  /**
   * The managers of `events` whose exchange pool is not known: their deposits, withdrawals and
   * what a liquidation left cannot be put in units (risk/manager-pools.ts looks them up).
   */
  unplaced(events: readonly StoredMarginEvent[]): string[] {
    this.context(events, (e) => e.data);
    const out = new Set<string>();
    for (const e of events)
      if (
        e.valid &&
        e.margin_manager_id &&
        !e.type.endsWith('manager_created') &&
        !this.managerPools.has(e.margin_manager_id)
      )
        out.add(e.margin_manager_id);
    return [...out];
  }

  /** The name of a manager's pool ("SUI_USDC") when it is known (a liquidation's alert names it), from what the amounts use. */
  poolNameOf(managerId: string): string | undefined {
    const pool = this.managerPools.get(managerId);
    return pool ? (this.book()?.poolsById ?? this.cachedPools()).get(pool)?.pool_name : undefined;
  }

  /**
   * The pools of these managers, any trader's ("SUI_USDC"; undefined where not known): looked up
   * in the stored history (their manager_created events) when not learnt yet.
   */
  poolNamesOf(managerIds: readonly string[]): Array<string | undefined> {
    this.context(
      managerIds.map((margin_manager_id) => ({ margin_manager_id })),
      () => null,
    );
    return managerIds.map((id) => this.poolNameOf(id));
  }

  /** One event's amounts from its data as parsed (a liquidation's alert on receipt: no copy of the event). */
  amountsOfOne(
    e: Pick<StoredMarginEvent, 'valid' | 'type' | 'margin_manager_id'>,
    data: unknown,
  ): EventAmount[] | undefined {
    return amountsOf(
      e,
      data,
      this.context([e], () => data),
    );
  }

  /** What is known now to put units on amounts, after learning the pools of `events`' managers (their data by `dataOf`). */
  private context<E extends Pick<StoredMarginEvent, 'margin_manager_id'>>(
    events: readonly E[],
    dataOf: (e: E) => unknown,
  ): AmountContext {
    const book = this.book();
    const pools = book?.poolsById ?? this.cachedPools();
    const now = Date.now();
    if (now - this.unknownSince > UNKNOWN_TTL_MS) {
      this.unknown.clear();
      this.unknownSince = now;
    }
    const unknown = new Set<string>();
    for (const e of events) {
      const id = e.margin_manager_id;
      if (!id || this.managerPools.has(id) || this.unknown.has(id)) continue;
      const created = dataOf(e) as { dex_pool_id?: unknown } | null;
      if (typeof created?.dex_pool_id === 'string') this.managerPools.set(id, created.dex_pool_id);
      else unknown.add(id);
    }
    if (unknown.size > 0) {
      const found = this.repo.dexPoolsOfManagers([...unknown]);
      for (const id of unknown) {
        const pool = found.get(id);
        if (pool) this.managerPools.set(id, pool);
        else this.unknown.add(id);
      }
    }
    return {
      poolOfManager: (id) => {
        const pool = this.managerPools.get(id);
        return pool ? pools.get(pool) : undefined;
      },
      assetOfMarginPool: (id) => {
        const asset = book?.marginPoolAsset.get(id);
        const decimals = asset ? book!.decimalsOf.get(asset) : undefined;
        return asset && decimals !== undefined ? { symbol: symbolOfType(asset), decimals } : undefined;
      },
    };
  }
}

/**
 * Amounts in words for alerts, each at its asset's precision as every view writes it
 * (shared/format.ts `amountText`, exact from the raw digits): "repaid 1,234.50 USDC, left
 * 10.0000 SUI and 20.00 USDC". Its formatters are built once (`numberFormat`), on a liquidation's
 * way to its alert (docs/operations.md, A liquidation's way to its alert). `usdOf`, where given,
 * prices an asset by its symbol: its money follows each amount priced, to the cent.
 */
export function amountsInWords(amounts: readonly EventAmount[], usdOf?: (symbol: string) => number | null): string {
  return groupedAmounts(amounts, (a) => {
    // Money beside each amount where its asset is priced (the digest: "left 32,077.7436 DEEP
    // ($5,046.79)"), in the one way amounts and money are written: a stablecoin's once.
    const price = usdOf?.(a.symbol) ?? null;
    const value = formatUnits(a.raw, a.decimals);
    return amountWorthText(value, a.symbol, price === null ? null : Number(value) * price, CORE_LOCALE, {
      usdDigits: POSITION_USD_DIGITS,
    });
  });
}
