import type { MarginManager, Pool } from '../../../shared/api';
import type {
  PositionInterest,
  PositionPnl,
  PositionSummary,
  RepairPlan,
  RiskParams,
  RiskReading,
  UsdPrice,
} from '../../../shared/contract';
import {
  accrued,
  adviceAmount,
  adviceTarget,
  afterDeposit,
  aprFromIndex,
  borrowApr,
  depositFor,
  breakEvenOf,
  distanceShown,
  isStable,
  levelOf,
  liquidationAt,
  liquidationPriceShown,
  movePct,
  priceAtRatio,
  repayFor,
  depositAndRepayFor,
  sideOf,
  sizeOf,
  timeToLiquidationByInterest,
  valueAt,
  repairAim,
  DAY_MS,
  ratioAfter,
  type DebtRates,
  type Holdings,
  type PricePair,
  type RiskThresholds,
} from '../../../shared/risk-model';
import { CORE_LOCALE, POSITION_USD_DIGITS, usdText } from '../../../shared/format';
import { marginAmount, oraclePrice, positionPriceDecimals, tickDecimals, usdTickDecimals } from '../../../shared/units';
import type { AssetBook } from './asset-book';
import { holdingsOf } from './oracle-book';
import { paramsOf } from './risk-params';

/**
 * What the margin stream told of a manager, as stored: a deposit or withdrawal (raw units of the
 * pool's assets), or a liquidation (the debt repaid, raw units of its margin pool's asset).
 */
export type Flow =
  | { at: number; kind: 'deposit' | 'withdraw'; base: number; quote: number }
  | { at: number; kind: 'liquidation'; repaid: number; marginPoolId: string };

/** A manager's flows since it was created; `complete` when its creation is among them. */
export interface ManagerHistory {
  flows: Flow[];
  complete: boolean;
}

/** Beyond this gap from a known oracle price, a past flow's value is an estimate. */
const EXACT_GAP_MS = 60 * 60_000;
/** The exchange is shown beside the valuation where the two differ by more than this. */
const EXCHANGE_BESIDE = 0.01;

/** Everything one valuation prices positions with: one price set, the thresholds, the history. */
export interface ValuationContext {
  book: AssetBook;
  /** The valuation's price of an asset now (the oracle's, oracle-book.ts). */
  price(asset: string): UsdPrice | null;
  /** The exchange's own price now (shown beside, never mixed in). */
  exchange(asset: string): UsdPrice | null;
  /** A learnt oracle price near a past time. */
  pastPrice(asset: string, at: number): { usd: number; gapMs: number } | null;
  thresholds(managerId: string, params: RiskParams): RiskThresholds;
  history(managerId: string): ManagerHistory | undefined;
  /** When the records were read: debts accrue from then. */
  readAt: number;
  now: number;
}

const symbolOf = (book: AssetBook, assetType: string): string => {
  for (const p of book.poolsById.values()) {
    if (p.base_asset_id === assetType) return p.base_asset_symbol;
    if (p.quote_asset_id === assetType) return p.quote_asset_symbol;
  }
  return assetType.split('::').pop() ?? assetType;
};

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The service's ratio of the manager (its riskiest loan's). */
function serviceRatioOf(m: MarginManager): number | null {
  let ratio: number | null = null;
  for (const l of m.active_loans ?? [])
    if (l.risk_ratio !== null) ratio = ratio === null ? l.risk_ratio : Math.min(ratio, l.risk_ratio);
  return ratio;
}

/**
 * Each debt's borrow APR: the pool's curve at its utilization where the service publishes both,
 * else the loan's own growth since the manager was created (its borrow index then and now).
 */
function ratesOf(
  m: MarginManager,
  ctx: ValuationContext,
  baseAsset: string,
): { rates: DebtRates; apr: number | null; source: PositionInterest['apr_source'] } {
  const rates: DebtRates = { base: null, quote: null };
  let apr: number | null = null;
  let source: PositionInterest['apr_source'] = null;
  for (const loan of m.active_loans ?? []) {
    const published = ctx.book.interest.get(loan.margin_pool_id);
    let r: number | null;
    if (published && published.utilization !== null) {
      r = borrowApr(published.curve, published.utilization);
      source = 'curve';
    } else {
      const opened = Date.parse(m.created_at);
      r = aprFromIndex(
        loan.loan_amount / loan.loan_shares,
        loan.remaining_amount / loan.remaining_shares,
        Number.isFinite(opened) ? ctx.readAt - opened : 0,
      );
      if (r !== null) source ??= 'observed';
    }
    if (r === null) continue;
    if (ctx.book.marginPoolAsset.get(loan.margin_pool_id) === baseAsset) rates.base = r;
    else rates.quote = r;
    apr = r;
  }
  return { rates, apr, source };
}

/**
 * Profit since opening from the manager's deposits and withdrawals, each valued at the oracle
 * price of its time: the one its deposit record carries when it is that record's flow, else the
 * learnt oracle price nearest it (an estimate beyond an hour away), else today's (an estimate).
 */
function pnlOf(
  m: MarginManager,
  h: Holdings,
  p: PricePair,
  ctx: ValuationContext,
  assets: {
    base: string;
    quote: string;
    baseSymbol: string;
    quoteSymbol: string;
    baseDecimals: number;
    quoteDecimals: number;
  },
  params: RiskParams,
): PositionPnl {
  const history = ctx.history(m.margin_manager_id);
  if (!history || !history.complete) {
    return {
      net_deposited_usd: null,
      pnl_usd: null,
      break_even_price: null,
      break_even_moved_at: null,
      estimated: false,
      note: 'Opened before the history Tidewatch keeps: its deposits are not known.',
    };
  }
  const dep = m.deposit;
  const recordAt = dep ? Date.parse(dep.timestamp) : NaN;
  const estimatedOf = new Set<string>();
  const priceAt = (asset: string, symbol: string, at: number, current: number, recorded: number | null): number => {
    if (isStable(symbol)) return 1;
    if (recorded !== null && at === recordAt) return recorded;
    const near = ctx.pastPrice(asset, at);
    if (near && near.gapMs <= EXACT_GAP_MS) return near.usd;
    estimatedOf.add(symbol);
    return near?.usd ?? current;
  };
  const recBase = dep ? oraclePrice(dep.last_base_oracle_price, dep.last_base_oracle_decimals) : null;
  const recQuote = dep ? oraclePrice(dep.last_quote_oracle_price, dep.last_quote_oracle_decimals) : null;
  let net = 0;
  // What liquidations took beyond the debt they repaid (the liquidator's and the pool's rewards).
  let lost = 0;
  let liquidations = 0;
  let lastLiquidationAt: number | null = null;
  for (const f of history.flows) {
    if (f.kind === 'liquidation') {
      lastLiquidationAt = Math.max(lastLiquidationAt ?? f.at, f.at);
      const isBase = ctx.book.marginPoolAsset.get(f.marginPoolId) === assets.base;
      const repaid = marginAmount(f.repaid, isBase ? assets.baseDecimals : assets.quoteDecimals);
      const price = isBase
        ? priceAt(assets.base, assets.baseSymbol, f.at, p.base, null)
        : priceAt(assets.quote, assets.quoteSymbol, f.at, p.quote, null);
      lost += repaid * (params.user_reward + params.pool_reward) * price;
      liquidations++;
      continue;
    }
    const base = marginAmount(f.base, assets.baseDecimals);
    const quote = marginAmount(f.quote, assets.quoteDecimals);
    const usd =
      (base !== 0 ? base * priceAt(assets.base, assets.baseSymbol, f.at, p.base, recBase) : 0) +
      (quote !== 0 ? quote * priceAt(assets.quote, assets.quoteSymbol, f.at, p.quote, recQuote) : 0);
    net += f.kind === 'deposit' ? usd : -usd;
  }
  // The break-even is where the profit shown is zero, so it counts what liquidations took too:
  // each one moves it (the loss on what was closed is carried by what is left), and the page says
  // which one (docs/valuation.md#profit-since-opening-and-the-break-even-price).
  const { pnl, breakEven } = breakEvenOf(h, p, net);
  const estimated = estimatedOf.size > 0;
  const notes = [
    estimated
      ? `Some ${[...estimatedOf].join(' and ')} moves are valued at the nearest price Tidewatch knows, not their own time's.`
      : null,
    liquidations > 0
      ? `The profit counts ${usdText(lost, CORE_LOCALE, POSITION_USD_DIGITS)} lost to ${liquidations === 1 ? 'a liquidation' : `${liquidations} liquidations`} (their rewards).`
      : null,
  ].filter((x) => x !== null);
  return {
    net_deposited_usd: round2(net),
    pnl_usd: round2(pnl),
    break_even_price: breakEven,
    break_even_moved_at: lastLiquidationAt,
    estimated,
    note: notes.length > 0 ? notes.join(' ') : null,
  };
}

/** The smallest deposit (of either asset) or repayment back to `target`, and the liquidation price after. */
function repairOf(
  h: Holdings,
  p: PricePair,
  target: number,
  liquidation: number,
  s: { base: string; quote: string; baseDecimals: number; quoteDecimals: number; priceDecimals: number },
): RepairPlan | null {
  if (!depositFor(h, p, target, 'quote', s.quoteDecimals)) return null;
  // Aimed a hair above the target, so a check with the rounded figures on screen reaches it too.
  const aim = adviceTarget(target);
  const byQuote = depositFor(h, p, aim, 'quote', s.quoteDecimals)!;
  const byBase = depositFor(h, p, aim, 'base', s.baseDecimals);
  const inBase = h.debtBase > 0 && h.debtQuote <= 0;
  const owedDecimals = inBase ? s.baseDecimals : s.quoteDecimals;
  const fromBalance = repayFor(h, p, aim, owedDecimals);
  // From its own balance only where it holds that much of the asset owed, as the amount is shown
  // (rounded up, never more than is owed); else brought from the wallet first, where (assets
  // unchanged) a smaller amount reaches the target.
  const held = inBase ? h.base : h.quote;
  const owed = inBase ? h.debtBase : h.debtQuote;
  const owedSymbol = inBase ? s.base : s.quote;
  const repay =
    fromBalance && Math.min(owed, adviceAmount(fromBalance.amount, owedSymbol, owedDecimals)) <= held
      ? { ...fromBalance, from: 'balance' as const }
      : mapOrNull(depositAndRepayFor(h, p, aim, owedDecimals), (x) => ({ ...x, from: 'wallet' as const }));
  // Each amount as it is shown, rounded up there (safe-round.ts): what is read reaches the target.
  const shown = (
    x: number,
    symbol: string,
    decimals: number,
    price: number,
    most = Infinity,
  ): { amount: number; usd: number } => {
    const amount = Math.min(most, adviceAmount(x, symbol, decimals));
    return { amount, usd: amount * price };
  };
  const quote = shown(byQuote.amount, s.quote, s.quoteDecimals, p.quote);
  const after = priceAtRatio(afterDeposit(h, 'quote', quote.amount), p.quote, liquidation);
  return {
    target,
    deposits: [
      { symbol: s.quote, ...quote },
      ...(byBase ? [{ symbol: s.base, ...shown(byBase.amount, s.base, s.baseDecimals, p.base) }] : []),
    ],
    // Never more than is owed: repaying it all is the advice then (no debt is left to liquidate).
    repay: repay
      ? {
          symbol: owedSymbol,
          ...shown(repay.amount, owedSymbol, owedDecimals, inBase ? p.base : p.quote, owed),
          from: repay.from,
        }
      : null,
    liquidation_price_after: after === null ? null : liquidationPriceShown(after, p.base, s.priceDecimals),
  };
}

/**
 * The repair an interest alert gives (docs/alerts.md "Borrow rates"): back to where the warning
 * clears, and far enough above the warning threshold that interest alone, at today's rate and
 * prices, does not bring it back to that threshold within `days`. Null when it is there already or
 * cannot be priced.
 */
export function interestRepairOf(p: PositionSummary, days: number): RepairPlan | null {
  const apr = p.interest.apr;
  if (!p.price || !p.quote_price || apr === null || p.base_symbol === null || p.quote_symbol === null) return p.repair;
  const h: Holdings = { base: p.base_amount, quote: p.quote_amount, debtBase: p.debt_base, debtQuote: p.debt_quote };
  const prices: PricePair = { base: p.price.usd, quote: p.quote_price.usd };
  const rates: DebtRates = p.debt_base > 0 ? { base: apr, quote: null } : { base: null, quote: apr };
  const now = valueAt(h, prices).ratio;
  const later = ratioAfter(h, prices, rates, days * DAY_MS);
  if (now === null || later === null || !(later > 0)) return p.repair;
  // The threshold alert's aim (out of the danger band there), and far enough above the warning
  // line that the days set of interest do not bring it back under.
  const aim = repairAim(now, p.thresholds.warning, p.risk_params);
  const target = Math.max(aim, p.thresholds.warning * (now / later));
  if (now >= target) return null;
  return repairOf(h, prices, target, p.liquidation_ratio, {
    base: p.base_symbol,
    quote: p.quote_symbol,
    baseDecimals: p.base_decimals,
    quoteDecimals: p.quote_decimals,
    priceDecimals: p.price_decimals ?? 0,
  });
}

/**
 * The decimals a USD price of `pool`'s base asset is written with, in every view, alert and list
 * (docs/formats.md): the pool's tick's, in dollars at its quote's price where the quote is no
 * dollar stablecoin (`usdTickDecimals`), and at least the price's four significant digits
 * (`positionPriceDecimals`).
 */
export function usdPriceDecimalsOn(pool: Pool, priceUsd: number | null, quoteUsd: number | null): number {
  const stable = isStable(pool.quote_asset_symbol);
  return positionPriceDecimals(usdTickDecimals(tickDecimals(pool), stable ? null : quoteUsd), priceUsd);
}

/**
 * A manager's position at one price set (ValuationContext): its holdings and debts (accrued from
 * the records' read to now), valued by the risk model, so every figure agrees with every other:
 * risk_ratio = collateral_usd / debt_usd, the liquidation price is where that ratio meets the
 * pool's liquidation ratio, the distance the move to it.
 */
export function positionOf(m: MarginManager, ctx: ValuationContext): PositionSummary {
  const { book, now } = ctx;
  const pool = book.poolsById.get(m.dex_pool_id);
  const params = paramsOf(book.risk, m.dex_pool_id);
  const thresholds = ctx.thresholds(m.margin_manager_id, params);
  const read = holdingsOf(m, book);
  const baseAsset = pool?.base_asset_id ?? '';
  const { rates, apr, source } = ratesOf(m, ctx, baseAsset);
  const h = read ? accrued(read, rates, Math.max(0, now - ctx.readAt)) : null;
  const basePrice = pool ? ctx.price(pool.base_asset_id) : null;
  const quotePrice = pool ? ctx.price(pool.quote_asset_id) : null;
  const p: PricePair | null = basePrice && quotePrice ? { base: basePrice.usd, quote: quotePrice.usd } : null;
  const v = h && p ? valueAt(h, p) : null;
  const loans = m.active_loans ?? [];
  const debtFactor = (assetIsBase: boolean): number =>
    read && h
      ? assetIsBase
        ? read.debtBase > 0
          ? h.debtBase / read.debtBase
          : 1
        : read.debtQuote > 0
          ? h.debtQuote / read.debtQuote
          : 1
      : 1;
  const debts: PositionSummary['debts'] = loans.map((loan) => {
    const asset = book.marginPoolAsset.get(loan.margin_pool_id);
    const decimals = asset ? book.decimalsOf.get(asset) : undefined;
    const isBase = asset === pool?.base_asset_id;
    const amount = decimals === undefined ? 0 : marginAmount(loan.remaining_amount, decimals) * debtFactor(isBase);
    const price = p && asset === pool?.base_asset_id ? p.base : p && asset === pool?.quote_asset_id ? p.quote : null;
    return {
      margin_pool_id: loan.margin_pool_id,
      symbol: asset ? symbolOf(book, asset) : '?',
      amount,
      usd: price === null ? null : amount * price,
    };
  });
  const hasDebt = loans.length > 0;
  // Every price of the position at its pool's tick, as the pool's page writes the pool's prices
  // (issue 40: "$0.1965" on the Portfolio beside "0.19650" on WAL_USDC's page).
  const priceDecimals = pool ? usdPriceDecimalsOn(pool, p?.base ?? null, quotePrice?.usd ?? null) : null;
  const L = params.liquidation;
  const liq = h && p && hasDebt ? priceAtRatio(h, p.quote, L) : null;
  // As shown, rounded toward the danger (safe-round.ts). The level is judged on the distance as
  // shown (a row reading −3.0 % is within a 3 % band) and the exact ratio: every view, the tray and
  // the alerts judge these same figures.
  const liqShown =
    liq === null || !p || priceDecimals === null ? liq : liquidationPriceShown(liq, p.base, priceDecimals);
  const moved = p ? movePct(p.base, liqShown) : null;
  const distanceOut = moved === null ? null : distanceShown(moved, 1);
  const ratio = v?.ratio ?? null;
  const exB = pool ? ctx.exchange(pool.base_asset_id) : null;
  const exQ = pool ? ctx.exchange(pool.quote_asset_id) : null;
  let exchangeView: PositionSummary['exchange_view'] = null;
  if (
    h &&
    p &&
    exB &&
    exQ &&
    (Math.abs(exB.usd / p.base - 1) > EXCHANGE_BESIDE || Math.abs(exQ.usd / p.quote - 1) > EXCHANGE_BESIDE)
  ) {
    exchangeView = {
      base_usd: exB.usd,
      quote_usd: exQ.usd,
      ratio: valueAt(h, { base: exB.usd, quote: exQ.usd }).ratio,
      difference_pct: round2((exB.usd / p.base - 1) * 100),
    };
  }
  const symbols = {
    base: pool?.base_asset_symbol ?? '?',
    quote: pool?.quote_asset_symbol ?? '?',
    baseDecimals: pool?.base_asset_decimals ?? 0,
    quoteDecimals: pool?.quote_asset_decimals ?? 0,
    priceDecimals: priceDecimals ?? 0,
  };
  const interest: PositionInterest = {
    apr,
    apr_source: source,
    accrued: null,
    accrued_usd: null,
    symbol: null,
    liquidation_in_ms: null,
  };
  const loan = loans[0];
  if (loan && h && p) {
    const grown = 1 - loan.loan_amount / loan.loan_shares / (loan.remaining_amount / loan.remaining_shares);
    const d = debts[0]!;
    interest.symbol = d.symbol;
    if (Number.isFinite(grown) && grown >= 0) {
      interest.accrued = d.amount * grown;
      interest.accrued_usd = d.usd === null ? null : d.usd * grown;
    }
    interest.liquidation_in_ms = timeToLiquidationByInterest(h, p, rates, L);
  }
  // Below the warning line, back to where the warning clears (not where it is only held: clearOf);
  // in the danger band (below the pool's minimum borrow ratio) out of it where that is higher, as
  // the repair panel aims by default (docs/valuation.md): one target for the alert and the page.
  const ratioNow = h && p && hasDebt ? (valueAt(h, p).ratio ?? Infinity) : Infinity;
  const below = ratioNow < thresholds.warning;
  const aim = repairAim(ratioNow, thresholds.warning, params);
  const repair = h && p && below ? repairOf(h, p, aim, L, symbols) : null;
  const updated = [m.checkpoint_timestamp_ms, ...loans.map((l) => Date.parse(l.timestamp))].filter((x) =>
    Number.isFinite(x),
  );
  return {
    manager_id: m.margin_manager_id,
    owner: m.owner,
    pool_name: pool?.pool_name ?? null,
    base_symbol: pool?.base_asset_symbol ?? null,
    quote_symbol: pool?.quote_asset_symbol ?? null,
    base_amount: h?.base ?? 0,
    quote_amount: h?.quote ?? 0,
    debts,
    collateral_usd: v?.assets ?? null,
    debt_usd: hasDebt ? (v?.debt ?? null) : 0,
    equity_usd: v?.equity ?? null,
    leverage: v?.leverage ?? null,
    risk_ratio: ratio === null ? null : round6(ratio),
    service_ratio: serviceRatioOf(m),
    liquidation_ratio: L,
    risk_params: params,
    moving_symbol: pool?.base_asset_symbol ?? null,
    price: basePrice,
    quote_price: quotePrice,
    liquidation_price: liqShown,
    price_decimals: priceDecimals,
    distance_pct: distanceOut,
    side: h ? sideOf(h) : null,
    size: h ? sizeOf(h) : 0,
    debt_base: h?.debtBase ?? 0,
    debt_quote: h?.debtQuote ?? 0,
    base_decimals: symbols.baseDecimals,
    quote_decimals: symbols.quoteDecimals,
    thresholds,
    level: levelOf(ratio, distanceOut, thresholds, L),
    exchange_view: exchangeView,
    pnl:
      h && p
        ? pnlOf(
            m,
            h,
            p,
            ctx,
            {
              base: pool!.base_asset_id,
              quote: pool!.quote_asset_id,
              baseSymbol: symbols.base,
              quoteSymbol: symbols.quote,
              baseDecimals: symbols.baseDecimals,
              quoteDecimals: symbols.quoteDecimals,
            },
            params,
          )
        : {
            net_deposited_usd: null,
            pnl_usd: null,
            break_even_price: null,
            break_even_moved_at: null,
            estimated: false,
            note: 'Not priced.',
          },
    interest,
    repair,
    liquidation_cost: h && p && liq !== null ? liquidationAt(h, { base: liq, quote: p.quote }, params) : null,
    valued_at: now,
    updated_ms: updated.length > 0 ? Math.max(...updated) : null,
  };
}

/** Riskiest first: the nearest liquidation, then the lowest ratio; positions without debt last. */
export function byRisk(a: PositionSummary, b: PositionSummary): number {
  const da = a.distance_pct === null ? Infinity : Math.abs(a.distance_pct);
  const db = b.distance_pct === null ? Infinity : Math.abs(b.distance_pct);
  if (da !== db) return da - db;
  return (a.risk_ratio ?? Infinity) - (b.risk_ratio ?? Infinity);
}

/** The risk reading stored for a position (one per manager with debt). */
export function readingOf(p: PositionSummary, now: number): RiskReading {
  return {
    manager_id: p.manager_id,
    owner: p.owner,
    ts_ms: now,
    risk_ratio: p.risk_ratio,
    debt_usd: p.debt_usd,
    assets_usd: p.collateral_usd,
    distance_pct: p.distance_pct,
    pool: p.pool_name,
    side: p.side,
    size: p.size,
    base_symbol: p.base_symbol,
    quote_symbol: p.quote_symbol,
    price_usd: p.price?.usd ?? null,
    break_even_price: p.pnl.break_even_price,
    liquidation_price: p.liquidation_price,
    level: p.level,
  };
}

function mapOrNull<T, U>(x: T | null, f: (x: T) => U): U | null {
  return x === null ? null : f(x);
}
