import type { ActiveSupply, MarginManager, Pool } from '../../../shared/api';
import type {
  ListedPrice,
  ManagerDetail,
  PortfolioSummary,
  PositionSummary,
  RiskParams,
  RiskReading,
  SupplySummary,
  WalletSummary,
  WatchEntry,
} from '../../../shared/contract';
import type { RiskThresholds } from '../../../shared/risk-model';
import { marginAmount, oraclePrice } from '../../../shared/units';
import { ServiceError } from '../client/errors';
import { allItems, collect } from '../client/paging';
import type { ServiceClient } from '../client/service-client';
import {
  byRisk,
  positionOf,
  readingOf,
  usdPriceDecimalsOn,
  type ManagerHistory,
  type ValuationContext,
} from './positions';
import type { OracleBook } from './oracle-book';
import { pricingPoolOf, type PriceBook } from './prices';
import type { AssetBook } from './asset-book';
import type { RecordsSource } from './records-source';

export interface PortfolioRead {
  portfolio: PortfolioSummary;
  readings: RiskReading[];
  /** Every manager of a watched owner, with its pool and whether it has debt. */
  managers: Array<{ id: string; owner: string; dexPoolId: string; poolName: string | null; hasDebt: boolean }>;
  /**
   * Every manager valued, listed in the Portfolio or not (one without debt or assets is not), by
   * id: the manager page of a watched manager answers these very objects (docs/valuation.md
   * "One snapshot for every view").
   */
  valued: Map<string, ValuedManager>;
}

/** A manager as one valuation left it: its position (the object the Portfolio lists) and when it was opened. */
export interface ValuedManager {
  position: PositionSummary;
  created_at: string | null;
}

/** An exchange price this recent counts as read with records read now (the oracle learnt from them moves with it). */
const FRESH_EXCHANGE_MS = 60_000;

/** What the user reads when a wallet could not be read: no request, no URL. */
const plainReason = (err: unknown): string =>
  err instanceof ServiceError ? `${err.message}. ${err.advice}` : 'It could not be read; it will be tried again.';

const sum = (xs: Array<number | null>): number => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

/** A wallet's supply rows (every page, one after another, as `managersOf`). */
function supplyRowsOf(client: ServiceClient, owner: string): Promise<ActiveSupply[]> {
  return collect(
    allItems((page, perPage) => client.activeSupplies(owner, { page, perPage }), { maxPages: 10, prefetch: 0 }),
  );
}

function suppliesOf(rows: ActiveSupply[], book: AssetBook, ctx: ValuationContext): SupplySummary[] {
  return rows.map((s) => {
    const decimals = book.decimalsOf.get(s.asset_type);
    const amount = decimals === undefined ? 0 : marginAmount(s.remaining_amount, decimals);
    const price = decimals === undefined ? null : ctx.price(s.asset_type);
    return {
      supplier_cap_id: s.supplier_cap_id,
      margin_pool_id: s.margin_pool_id,
      symbol: price?.symbol ?? s.asset_type.split('::').pop() ?? s.asset_type,
      amount,
      usd: price ? amount * price.usd : null,
    };
  });
}

function walletOf(entry: WatchEntry, positions: PositionSummary[], supplies: SupplySummary[]): WalletSummary {
  positions.sort(byRisk);
  return {
    owner: entry.owner,
    label: entry.label,
    positions,
    supplies,
    totals: {
      collateral_usd: sum(positions.map((p) => p.collateral_usd)),
      debt_usd: sum(positions.map((p) => p.debt_usd)),
      equity_usd: sum(positions.map((p) => p.equity_usd)),
      supplied_usd: sum(supplies.map((s) => s.usd)),
      unpriced: positions.filter((p) => p.equity_usd === null).length + supplies.filter((s) => s.usd === null).length,
    },
  };
}

/** Riskiest wallet first: the one holding the riskiest position. */
function walletsByRisk(a: WalletSummary, b: WalletSummary): number {
  const pa = a.positions[0];
  const pb = b.positions[0];
  if (!pa || !pb) return pa ? -1 : pb ? 1 : 0;
  return byRisk(pa, pb);
}

/** What the service says of one watched wallet: its managers and supplies, or why it could not be read. */
export interface WalletRecords {
  w: WatchEntry;
  managers?: MarginManager[];
  err?: unknown;
  /** The supply rows; undefined when they could not be read. */
  supplyRows?: ActiveSupply[];
  /** When they were read (debts accrue from then). */
  readAt: number;
}

/**
 * Every watched wallet's margin records (managers with their loans and deposits, supplies), all
 * wallets asked together: one request per owner and list, or a list's protocol-wide form when
 * that takes fewer pages (RecordsSource; docs/credits.md "What is read").
 */
export async function readRecords(
  client: ServiceClient,
  watch: readonly WatchEntry[],
  source?: RecordsSource,
  readAt = Date.now(),
): Promise<WalletRecords[]> {
  const owners = new Set(watch.map((w) => w.owner));
  let shared: Promise<Map<string, MarginManager[]>> | undefined;
  if (source?.protocolWide(watch.length, 'managers')) {
    shared = source.read(client, owners);
    shared.catch(() => {}); // awaited per wallet below
  }
  // Undefined (a supply without its cap, or a failed read): each owner's own list instead.
  const sharedSupplies = source?.protocolWide(watch.length, 'supplies')
    ? source.readSupplies(client, owners).catch(() => undefined)
    : Promise.resolve(undefined);
  return Promise.all(
    watch.map(async (w): Promise<WalletRecords> => {
      const supplyRows = sharedSupplies
        .then((all) => all?.get(w.owner) ?? supplyRowsOf(client, w.owner))
        .catch(() => undefined);
      try {
        const managers = shared ? ((await shared).get(w.owner) ?? []) : await managersOf(client, w.owner);
        return { w, managers, supplyRows: await supplyRows, readAt };
      } catch (err) {
        return { w, err, supplyRows: await supplyRows, readAt };
      }
    }),
  );
}

/** The exchange assets the records' managers trade (what must be priced). */
export function assetsOf(records: readonly WalletRecords[], book: AssetBook): Set<string> {
  const assets = new Set<string>();
  for (const f of records) {
    for (const m of f.managers ?? []) {
      const pool = book.poolsById.get(m.dex_pool_id);
      if (pool) assets.add(pool.base_asset_id).add(pool.quote_asset_id);
    }
  }
  return assets;
}

/** What a valuation prices with beyond the records: the exchange, the oracle, the thresholds, the history. */
export interface ValuationDeps {
  prices: PriceBook;
  oracle: OracleBook;
  thresholds(managerId: string, params: RiskParams): RiskThresholds;
  history(managerId: string): ManagerHistory | undefined;
}

/**
 * Learn the oracle's prices from records read at `at` (oracle-book.ts): the deposits' recorded
 * oracle prices, then the ratios (which are of the moment of the read).
 */
function learnFrom(managers: readonly MarginManager[], book: AssetBook, d: ValuationDeps, at: number): void {
  const exchangeNear = (asset: string, when: number): number | null => {
    const ex = d.prices.peek(asset);
    return ex && Math.abs(ex.at - when) <= 15 * 60_000 ? ex.usd : null;
  };
  for (const m of managers) {
    const pool = book.poolsById.get(m.dex_pool_id);
    const dep = m.deposit;
    const when = dep ? Date.parse(dep.timestamp) : NaN;
    if (!pool || !dep || !Number.isFinite(when)) continue;
    d.oracle.noteRecord(
      pool.base_asset_id,
      oraclePrice(dep.last_base_oracle_price, dep.last_base_oracle_decimals),
      when,
      exchangeNear(pool.base_asset_id, when),
    );
    d.oracle.noteRecord(
      pool.quote_asset_id,
      oraclePrice(dep.last_quote_oracle_price, dep.last_quote_oracle_decimals),
      when,
      exchangeNear(pool.quote_asset_id, when),
    );
  }
  d.oracle.learn(managers, book, (a) => d.prices.peek(a)?.usd ?? null, at);
}

/** One price set for a valuation at `now` (records read at `readAt`). */
function contextOf(book: AssetBook, d: ValuationDeps, readAt: number, now: number): ValuationContext {
  const symbol = (a: string): string => d.prices.symbolOf(a);
  return {
    book,
    price: (a) => d.oracle.price(a, symbol(a), d.prices.peek(a), now),
    exchange: (a) => d.prices.peek(a),
    pastPrice: (a, at) => d.oracle.near(a, at),
    thresholds: d.thresholds,
    history: d.history,
    readAt,
    now,
  };
}

/**
 * Every watched wallet in money: its managers' positions and its supplies, valued at one price
 * set (the oracle's, learnt from the records just read; docs/valuation.md). A wallet the service
 * could not answer for keeps its last good summary with the reason; when none answered, the read
 * fails. `fresh`: whose records were just read (all, or these owners'): the oracle learns from them.
 */
export async function valuePortfolio(
  records: readonly WalletRecords[],
  book: AssetBook,
  d: ValuationDeps,
  previous: PortfolioSummary | undefined,
  fresh: boolean | ReadonlySet<string>,
  now = Date.now(),
): Promise<PortfolioRead> {
  const managers: PortfolioRead['managers'] = [];
  const valued = new Map<string, ValuedManager>();
  const readings: RiskReading[] = [];
  const wallets: WalletSummary[] = [];
  let failures = 0;
  let lastError: unknown;
  const supplied = records.flatMap((f) => (f.supplyRows ?? []).map((r) => r.asset_type));
  await Promise.all([...new Set([...assetsOf(records, book), ...supplied])].map((a) => d.prices.quote(a, now)));
  const isFresh = (owner: string): boolean => fresh === true || (fresh !== false && fresh.has(owner));
  learnFrom(
    records.filter((f) => isFresh(f.w.owner)).flatMap((f) => f.managers ?? []),
    book,
    d,
    now,
  );
  for (const f of records) {
    if (!f.managers) {
      failures++;
      lastError = f.err;
      const old = previous?.wallets.find((x) => x.owner === f.w.owner);
      wallets.push({ ...(old ?? walletOf(f.w, [], [])), label: f.w.label, error: plainReason(f.err) });
      continue;
    }
    const ctx = contextOf(book, d, f.readAt, now);
    const positions: PositionSummary[] = [];
    for (const m of f.managers) {
      const p = positionOf(m, ctx);
      valued.set(m.margin_manager_id, { position: p, created_at: m.created_at ?? null });
      const hasDebt = (m.active_loans?.length ?? 0) > 0;
      managers.push({
        id: m.margin_manager_id,
        owner: f.w.owner,
        dexPoolId: m.dex_pool_id,
        poolName: p.pool_name,
        hasDebt,
      });
      if (hasDebt || (p.collateral_usd ?? 0) > 0) positions.push(p);
      if (hasDebt) readings.push(readingOf(p, now));
    }
    const supplies = f.supplyRows
      ? suppliesOf(f.supplyRows, book, ctx)
      : (previous?.wallets.find((x) => x.owner === f.w.owner)?.supplies ?? []);
    wallets.push(walletOf(f.w, positions, supplies));
  }
  if (records.length > 0 && failures === records.length) throw lastError;
  const at = contextOf(book, d, now, now);
  return {
    portfolio: {
      wallets: wallets.sort(walletsByRisk),
      prices: listedPrices(wallets, [...book.poolsById.values()], (a) => at.price(a)?.usd ?? null),
      computed_at: now,
    },
    readings,
    managers,
    valued,
  };
}

/**
 * The prices the positions were valued at (each asset once, stablecoins aside), by symbol, each
 * with the decimals of the tick of the pool it is priced on (`pricingPoolOf`), as a position on
 * that pool writes it (`usdPriceDecimalsOn`; docs/formats.md): the list of prices under the
 * Portfolio reads "WAL $0.19650" as the WAL_USDC row does, not by its size ("$0.1965", issue 40).
 * `usdOf`: an asset's USD price in the same valuation (a pool quoted in another asset).
 */
export function listedPrices(
  wallets: readonly WalletSummary[],
  pools: readonly Pool[],
  usdOf: (assetType: string) => number | null,
): ListedPrice[] {
  const assetOf = (symbol: string): string | undefined =>
    pools.find((p) => p.base_asset_symbol === symbol)?.base_asset_id ??
    pools.find((p) => p.quote_asset_symbol === symbol)?.quote_asset_id;
  const listed = new Map<string, ListedPrice>();
  for (const w of wallets)
    for (const p of w.positions)
      for (const x of [p.price, p.quote_price]) {
        if (!x || x.source === 'stablecoin') continue;
        const asset = assetOf(x.symbol);
        const pool = asset === undefined ? undefined : pricingPoolOf(pools, asset);
        const decimals = pool ? usdPriceDecimalsOn(pool, x.usd, usdOf(pool.quote_asset_id)) : null;
        listed.set(x.symbol, { ...x, price_decimals: decimals });
      }
  return [...listed.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** Records, their assets' prices and a valuation, as one read of the risk loop makes them. */
export interface FreshValuation {
  read: PortfolioRead;
  records: WalletRecords[];
  book: AssetBook;
}

/**
 * One read of every watched wallet, as the risk loop makes it and `tidewatch risk --watch` too:
 * the records and, with them, the exchange's prices of their assets now (the records' ratios are
 * of the oracle now, and the oracle learnt from them moves with the exchange), valued at `now`.
 */
export async function readAndValue(
  client: ServiceClient,
  bookLoad: AssetBook | Promise<AssetBook>,
  d: ValuationDeps,
  watch: readonly WatchEntry[],
  previous: PortfolioSummary | undefined,
  source?: RecordsSource,
  now = Date.now(),
): Promise<FreshValuation> {
  const [book, records] = await Promise.all([bookLoad, readRecords(client, watch, source, now)]);
  await Promise.all([...assetsOf(records, book)].filter((a) => d.prices.readable(a)).map((a) => d.prices.read(a, now)));
  const read = await valuePortfolio(records, book, d, previous, true, now);
  return { read, records, book };
}

/** Records and valuation in one, as the risk loop reads them (tests, `tidewatch risk --watch`). */
export async function readPortfolio(
  client: ServiceClient,
  bookLoad: AssetBook | Promise<AssetBook>,
  d: ValuationDeps,
  watch: readonly WatchEntry[],
  previous: PortfolioSummary | undefined,
  now = Date.now(),
): Promise<PortfolioRead> {
  return (await readAndValue(client, bookLoad, d, watch, previous, undefined, now)).read;
}

/**
 * Whose manager this is, asked of the service (its loans or liquidations name it) when nothing
 * known (the watch list, stored events) does; undefined when neither names it.
 */
export async function ownerOfManager(
  client: ServiceClient,
  managerId: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const loans = await client.activeLoans(undefined, { marginManagerId: managerId, perPage: 1 }, signal);
  const owner = loans.items[0]?.margin_manager?.owner;
  if (owner) return owner;
  const liq = await client.liquidations(undefined, { marginManagerId: managerId, perPage: 1 }, signal);
  return liq.items[0]?.margin_manager?.owner;
}

/**
 * One manager no valuation of the risk loop holds (its owner is not watched), valued on demand by
 * the same code at its own time (`position.valued_at`): its owner is found from what is known or
 * asked of the service, then its position is read with the owner's managers. A watched manager's
 * page answers the risk loop's snapshot instead (contract/watched-reads.ts).
 */
export async function readManager(
  client: ServiceClient,
  book: AssetBook,
  d: ValuationDeps,
  managerId: string,
  knownOwner: string | undefined,
  isWatched: (owner: string) => boolean,
  signal?: AbortSignal,
): Promise<ManagerDetail> {
  const owner = knownOwner ?? (await ownerOfManager(client, managerId, signal));
  let manager: MarginManager | undefined;
  const now = Date.now();
  if (owner) {
    const all = await managersOf(client, owner, signal);
    manager = all.find((m) => m.margin_manager_id === managerId);
    const pool = manager ? book.poolsById.get(manager.dex_pool_id) : undefined;
    // The ratios are of the oracle now: the exchange's prices must be of now too (the oracle moves with them).
    const fresh = (a: string): Promise<unknown> => {
      const known = d.prices.peek(a);
      return known && now - known.at < FRESH_EXCHANGE_MS
        ? Promise.resolve(known)
        : d.prices.readable(a)
          ? d.prices.read(a, now)
          : d.prices.quote(a, now);
    };
    if (pool) await Promise.all([fresh(pool.base_asset_id), fresh(pool.quote_asset_id)]);
    learnFrom(all, book, d, now);
  }
  const position = manager ? positionOf(manager, contextOf(book, d, now, now)) : null;
  return {
    manager_id: managerId,
    owner: owner ?? null,
    pool_name: position?.pool_name ?? null,
    created_at: manager?.created_at ?? null,
    position,
    watched: owner !== undefined && isWatched(owner),
  };
}

/**
 * Every manager of the owner (all pages), one page after another: a page asked ahead that turns
 * out empty costs the same credits as a full one, and most owners have one page.
 */
export async function managersOf(client: ServiceClient, owner: string, signal?: AbortSignal): Promise<MarginManager[]> {
  return collect(
    allItems((page, perPage) => client.marginManagers(owner, { page, perPage }, signal), { maxPages: 40, prefetch: 0 }),
  );
}
