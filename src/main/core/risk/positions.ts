import type { MarginManager } from '../../../shared/api';
import type { PositionSummary, RiskReading } from '../../../shared/contract';
import { marginAmount, oraclePrice } from '../../../shared/units';
import { liquidationBasePrice } from './distance';
import { paramsOf } from './risk-params';
import type { PriceBook } from './prices';
import type { AssetBook } from './asset-book';

const symbolOf = (book: AssetBook, assetType: string): string => {
  for (const p of book.poolsById.values()) {
    if (p.base_asset_id === assetType) return p.base_asset_symbol;
    if (p.quote_asset_id === assetType) return p.quote_asset_symbol;
  }
  return assetType.split('::').pop() ?? assetType;
};

/** Tell the price book the oracle prices a manager's last deposit recorded. */
export function noteDepositPrices(m: MarginManager, book: AssetBook, prices: PriceBook): void {
  const pool = book.poolsById.get(m.dex_pool_id);
  const dep = m.deposit;
  if (!pool || !dep) return;
  const at = Date.parse(dep.timestamp);
  if (!Number.isFinite(at)) return;
  prices.noteOracle(pool.base_asset_id, oraclePrice(dep.last_base_oracle_price, dep.last_base_oracle_decimals), at);
  prices.noteOracle(pool.quote_asset_id, oraclePrice(dep.last_quote_oracle_price, dep.last_quote_oracle_decimals), at);
}

/**
 * A manager's position in money, priced by the price book's one rule. The liquidation price is
 * the base asset's USD price at which assets / debt reaches the liquidation ratio with the quote
 * asset's price held; the distance is measured from the base asset's price now.
 */
export async function positionOf(m: MarginManager, book: AssetBook, prices: PriceBook, now = Date.now()): Promise<PositionSummary> {
  const pool = book.poolsById.get(m.dex_pool_id);
  const dep = m.deposit;
  const base = pool && dep ? marginAmount(dep.base_asset_amount, pool.base_asset_decimals) : 0;
  const quote = pool && dep ? marginAmount(dep.quote_asset_amount, pool.quote_asset_decimals) : 0;
  const basePrice = pool ? await prices.quote(pool.base_asset_id, now) : null;
  const quotePrice = pool ? await prices.quote(pool.quote_asset_id, now) : null;
  let debtBase = 0;
  let debtQuote = 0;
  let debtUsd: number | null = 0;
  let unknownDebt = false;
  const debts: PositionSummary['debts'] = [];
  let ratio: number | null = null;
  for (const loan of m.active_loans ?? []) {
    if (loan.risk_ratio !== null) ratio = ratio === null ? loan.risk_ratio : Math.min(ratio, loan.risk_ratio);
    const asset = book.marginPoolAsset.get(loan.margin_pool_id);
    const decimals = asset ? book.decimalsOf.get(asset) : undefined;
    if (!asset || decimals === undefined) {
      unknownDebt = true;
      continue;
    }
    const amount = marginAmount(loan.remaining_amount, decimals);
    const price = asset === pool?.base_asset_id ? basePrice : asset === pool?.quote_asset_id ? quotePrice : await prices.quote(asset, now);
    const usd = price ? amount * price.usd : null;
    debts.push({ margin_pool_id: loan.margin_pool_id, symbol: symbolOf(book, asset), amount, usd });
    if (usd === null) unknownDebt = true;
    else if (debtUsd !== null) debtUsd += usd;
    if (asset === pool?.base_asset_id) debtBase += amount;
    else if (asset === pool?.quote_asset_id) debtQuote += amount;
    else unknownDebt = true;
  }
  if (unknownDebt) debtUsd = null;
  const collateralUsd = pool && basePrice && quotePrice ? base * basePrice.usd + quote * quotePrice.usd : null;
  const equityUsd = collateralUsd !== null && debtUsd !== null ? collateralUsd - debtUsd : null;
  const hasDebt = debts.length > 0 || unknownDebt;
  const params = paramsOf(book.risk, m.dex_pool_id);
  const liq = !unknownDebt && hasDebt && quotePrice ? liquidationBasePrice({ base, quote, quotePrice: quotePrice.usd, debtBase, debtQuote }, params.liquidation) : null;
  const leverage = collateralUsd !== null && equityUsd !== null && equityUsd > 0 ? collateralUsd / equityUsd : null;
  const updated = [m.checkpoint_timestamp_ms, ...(m.active_loans ?? []).map((l) => Date.parse(l.timestamp))].filter((x) => Number.isFinite(x));
  return {
    manager_id: m.margin_manager_id,
    owner: m.owner,
    pool_name: pool?.pool_name ?? null,
    base_symbol: pool?.base_asset_symbol ?? null,
    quote_symbol: pool?.quote_asset_symbol ?? null,
    base_amount: base,
    quote_amount: quote,
    debts,
    collateral_usd: collateralUsd,
    debt_usd: hasDebt ? debtUsd : 0,
    equity_usd: equityUsd,
    leverage,
    risk_ratio: ratio,
    liquidation_ratio: params.liquidation,
    risk_params: params,
    moving_symbol: pool?.base_asset_symbol ?? null,
    price: basePrice,
    liquidation_price: liq,
    distance_pct: liq !== null && basePrice ? round2((liq / basePrice.usd - 1) * 100) : null,
    updated_ms: updated.length > 0 ? Math.max(...updated) : null,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

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
  };
}


const words = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: n >= 100 ? 0 : n >= 1 ? 2 : 6 });

/** A position in one sentence for alerts: "Debt 2,400 USDC ($2,400). SUI at $2.70 (-10.0 %) liquidates it." */
export function describePosition(p: PositionSummary): { pool: string | null; text: string; liquidation: number } {
  const debt = p.debts.map((d) => `${words(d.amount)} ${d.symbol}`).join(' + ');
  const debtUsd = p.debt_usd === null ? '' : ` ($${words(p.debt_usd)})`;
  const liq =
    p.liquidation_price === null || p.distance_pct === null
      ? ''
      : ` ${p.moving_symbol} at $${words(p.liquidation_price)} (${p.distance_pct > 0 ? '+' : ''}${p.distance_pct.toFixed(1)} %) liquidates it.`;
  return { pool: p.pool_name, text: `Debt ${debt || 'unknown'}${debtUsd}.${liq}`, liquidation: p.liquidation_ratio };
}
