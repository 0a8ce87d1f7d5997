import type { ActiveSupply, MarginManager } from '../../../shared/api';
import type { ManagerDetail, PortfolioSummary, PositionSummary, RiskReading, SupplySummary, WalletSummary, WatchEntry } from '../../../shared/contract';
import { marginAmount } from '../../../shared/units';
import { ServiceError } from '../client/errors';
import { allItems, collect } from '../client/paging';
import type { ServiceClient } from '../client/service-client';
import { byRisk, noteDepositPrices, positionOf, readingOf } from './positions';
import type { PriceBook } from './prices';
import type { AssetBook } from './asset-book';
import type { RecordsSource } from './records-source';

export interface PortfolioRead {
  portfolio: PortfolioSummary;
  readings: RiskReading[];
  /** Every manager of a watched owner, with its pool and whether it has debt. */
  managers: Array<{ id: string; owner: string; dexPoolId: string; poolName: string | null; hasDebt: boolean }>;
}

/** What the user reads when a wallet could not be read: no request, no URL. */
const plainReason = (err: unknown): string => (err instanceof ServiceError ? `${err.message}. ${err.advice}` : 'It could not be read; it will be tried again.');

const sum = (xs: Array<number | null>): number => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

/** A wallet's supply rows (every page, one after another, as `managersOf`). */
function supplyRowsOf(client: ServiceClient, owner: string): Promise<ActiveSupply[]> {
  return collect(allItems((page, perPage) => client.activeSupplies(owner, { page, perPage }), { maxPages: 10, prefetch: 0 }));
}

async function suppliesOf(rows: ActiveSupply[], book: AssetBook, prices: PriceBook, now: number): Promise<SupplySummary[]> {
  const out: SupplySummary[] = [];
  for (const s of rows) {
    const decimals = book.decimalsOf.get(s.asset_type);
    const amount = decimals === undefined ? 0 : marginAmount(s.remaining_amount, decimals);
    const price = decimals === undefined ? null : await prices.quote(s.asset_type, now);
    out.push({
      supplier_cap_id: s.supplier_cap_id,
      margin_pool_id: s.margin_pool_id,
      symbol: price?.symbol ?? s.asset_type.split('::').pop() ?? s.asset_type,
      amount,
      usd: price ? amount * price.usd : null,
    });
  }
  return out;
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
}

/**
 * Every watched wallet's margin records (managers with their loans and deposits, supplies), all
 * wallets asked together: one request per owner and list, or the protocol-wide managers list when
 * that takes fewer pages (RecordsSource; docs/credits.md "What is read").
 */
export async function readRecords(client: ServiceClient, watch: readonly WatchEntry[], source?: RecordsSource): Promise<WalletRecords[]> {
  let shared: Promise<Map<string, MarginManager[]>> | undefined;
  if (source?.protocolWide(watch.length)) {
    shared = source.read(client, new Set(watch.map((w) => w.owner)));
    shared.catch(() => {}); // awaited per wallet below
  }
  return Promise.all(
    watch.map(async (w): Promise<WalletRecords> => {
      const supplyRows = supplyRowsOf(client, w.owner).catch(() => undefined);
      try {
        const managers = shared ? ((await shared).get(w.owner) ?? []) : await managersOf(client, w.owner);
        return { w, managers, supplyRows: await supplyRows };
      } catch (err) {
        return { w, err, supplyRows: await supplyRows };
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

/**
 * Where each position's service ratio was when its records were read, against Tidewatch's own
 * valuation then (assets / debt at the prices read with them). Between record reads the ratio is
 * carried by the market: ratio now = service ratio x own ratio now / own ratio then, so a price
 * read moves the ratio (and the thresholds see it) without reading the records again.
 */
export type RatioAnchors = Map<string, number>;

/**
 * Every watched wallet in money: its managers' positions (collateral, debt, equity, leverage,
 * liquidation price) and its supplies, priced by one rule. A wallet the service could not answer
 * for keeps its last good summary with the reason; when none answered, the read fails.
 * `fresh`: whose records were just read (all, or these owners'): their ratios anchor the
 * market's carry (RatioAnchors); the others are carried from their anchors.
 */
export async function valuePortfolio(
  records: readonly WalletRecords[],
  book: AssetBook,
  prices: PriceBook,
  previous: PortfolioSummary | undefined,
  anchors: RatioAnchors,
  fresh: boolean | ReadonlySet<string>,
  now = Date.now(),
): Promise<PortfolioRead> {
  const managers: PortfolioRead['managers'] = [];
  const readings: RiskReading[] = [];
  const wallets: WalletSummary[] = [];
  let failures = 0;
  let lastError: unknown;
  // Oracle prices of every deposit first, so each position is priced with the freshest one known.
  for (const f of records) for (const m of f.managers ?? []) noteDepositPrices(m, book, prices);
  await Promise.all([...assetsOf(records, book)].map((a) => prices.quote(a, now)));
  for (const f of records) {
    if (!f.managers) {
      failures++;
      lastError = f.err;
      const old = previous?.wallets.find((x) => x.owner === f.w.owner);
      wallets.push({ ...(old ?? walletOf(f.w, [], [])), label: f.w.label, error: plainReason(f.err) });
      continue;
    }
    const positions: PositionSummary[] = [];
    for (const m of f.managers) {
      const p = carried(await positionOf(m, book, prices, now), anchors, fresh === true || (fresh !== false && fresh.has(f.w.owner)));
      const hasDebt = (m.active_loans?.length ?? 0) > 0;
      managers.push({ id: m.margin_manager_id, owner: f.w.owner, dexPoolId: m.dex_pool_id, poolName: p.pool_name, hasDebt });
      if (hasDebt || (p.collateral_usd ?? 0) > 0) positions.push(p);
      if (hasDebt) readings.push(readingOf(p, now));
    }
    const supplies = f.supplyRows
      ? await suppliesOf(f.supplyRows, book, prices, now)
      : (previous?.wallets.find((x) => x.owner === f.w.owner)?.supplies ?? []);
    wallets.push(walletOf(f.w, positions, supplies));
  }
  if (records.length > 0 && failures === records.length) throw lastError;
  const used = new Map<string, PortfolioSummary['prices'][number]>();
  for (const w of wallets) for (const p of w.positions) if (p.price) used.set(p.price.symbol, p.price);
  return {
    portfolio: { wallets: wallets.sort(walletsByRisk), prices: [...used.values()].sort((a, b) => a.symbol.localeCompare(b.symbol)), computed_at: now },
    readings,
    managers,
  };
}

/** The position's ratio carried by the market since its records were read (RatioAnchors). */
function carried(p: PositionSummary, anchors: RatioAnchors, fresh: boolean): PositionSummary {
  const own = p.collateral_usd !== null && p.debt_usd ? p.collateral_usd / p.debt_usd : null;
  if (fresh) {
    if (own !== null) anchors.set(p.manager_id, own);
    else anchors.delete(p.manager_id);
    return p;
  }
  const then = anchors.get(p.manager_id);
  if (own === null || then === undefined || p.risk_ratio === null) return p;
  return { ...p, risk_ratio: Math.round(p.risk_ratio * (own / then) * 1e6) / 1e6 };
}

/** Records and valuation in one (a manager's page, tests): the records are fresh. */
export async function readPortfolio(
  client: ServiceClient,
  bookLoad: AssetBook | Promise<AssetBook>,
  prices: PriceBook,
  watch: readonly WatchEntry[],
  previous: PortfolioSummary | undefined,
  now = Date.now(),
): Promise<PortfolioRead> {
  const [book, records] = await Promise.all([bookLoad, readRecords(client, watch)]);
  return valuePortfolio(records, book, prices, previous, new Map(), true, now);
}

/**
 * One manager for its page, watched or not: its owner is found from what is known (the watch
 * list, stored events) or asked of the service (its loans or liquidations name it), then its
 * position is read with the owner's managers.
 */
export async function readManager(
  client: ServiceClient,
  book: AssetBook,
  prices: PriceBook,
  managerId: string,
  knownOwner: string | undefined,
  isWatched: (owner: string) => boolean,
  signal?: AbortSignal,
): Promise<ManagerDetail> {
  let owner = knownOwner;
  if (!owner) {
    const loans = await client.activeLoans(undefined, { marginManagerId: managerId, perPage: 1 }, signal);
    owner = loans.items[0]?.margin_manager?.owner;
  }
  if (!owner) {
    const liq = await client.liquidations(undefined, { marginManagerId: managerId, perPage: 1 }, signal);
    owner = liq.items[0]?.margin_manager?.owner;
  }
  let manager: MarginManager | undefined;
  if (owner) {
    const all = await managersOf(client, owner);
    for (const m of all) noteDepositPrices(m, book, prices);
    manager = all.find((m) => m.margin_manager_id === managerId);
  }
  const position = manager ? await positionOf(manager, book, prices) : null;
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
export async function managersOf(client: ServiceClient, owner: string): Promise<MarginManager[]> {
  return collect(allItems((page, perPage) => client.marginManagers(owner, { page, perPage }), { maxPages: 40, prefetch: 0 }));
}
