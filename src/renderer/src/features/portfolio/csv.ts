import type { PositionSummary, WalletSummary } from '../../../../shared/contract';
import { csvRow } from '../../../../shared/csv';

/** The Portfolio's columns: one row per margin manager, the figures its row shows, unrounded. */
export const POSITION_COLUMNS = [
  'valued_at',
  'owner',
  'wallet_label',
  'manager_id',
  'pool',
  'side',
  'size',
  'base_symbol',
  'quote_symbol',
  'price_usd',
  'price_source',
  'quote_price_usd',
  'break_even_price',
  'break_even_moved_ms',
  'pnl_usd',
  'pnl_estimated',
  'pnl_note',
  'assets_usd',
  'debt_usd',
  'equity_usd',
  'leverage',
  'risk_ratio',
  'level',
  'liquidation_ratio',
  'liquidation_price',
  'distance_pct',
  'borrow_apr',
  'apr_source',
  'accrued_interest',
  'accrued_interest_symbol',
  'accrued_interest_usd',
  'exchange_base_usd',
  'exchange_ratio',
  'updated_ms',
] as const;

type Column = (typeof POSITION_COLUMNS)[number];

function rowOf(w: WalletSummary, p: PositionSummary): Record<Column, unknown> {
  return {
    valued_at: new Date(p.valued_at).toISOString(),
    owner: w.owner,
    wallet_label: w.label,
    manager_id: p.manager_id,
    pool: p.pool_name,
    side: p.side,
    size: p.size,
    base_symbol: p.base_symbol,
    quote_symbol: p.quote_symbol,
    price_usd: p.price?.usd ?? null,
    price_source: p.price?.source ?? null,
    quote_price_usd: p.quote_price?.usd ?? null,
    break_even_price: p.pnl.break_even_price,
    break_even_moved_ms: p.pnl.break_even_moved_at,
    pnl_usd: p.pnl.pnl_usd,
    pnl_estimated: p.pnl.estimated,
    pnl_note: p.pnl.note,
    assets_usd: p.collateral_usd,
    debt_usd: p.debt_usd,
    equity_usd: p.equity_usd,
    leverage: p.leverage,
    risk_ratio: p.risk_ratio,
    level: p.level,
    liquidation_ratio: p.liquidation_ratio,
    liquidation_price: p.liquidation_price,
    distance_pct: p.distance_pct,
    borrow_apr: p.interest.apr,
    apr_source: p.interest.apr_source,
    accrued_interest: p.interest.accrued,
    accrued_interest_symbol: p.interest.symbol,
    accrued_interest_usd: p.interest.accrued_usd,
    exchange_base_usd: p.exchange_view?.base_usd ?? null,
    exchange_ratio: p.exchange_view?.ratio ?? null,
    updated_ms: p.updated_ms,
  };
}

/**
 * Every watched wallet's positions as CSV (RFC 4180), riskiest first as the Portfolio lists them:
 * the snapshot on screen, each row with the time it was valued (the snapshot's; older for a wallet
 * the last read could not reach, which keeps its figures of before).
 */
export function positionsToCsv(wallets: readonly WalletSummary[]): string {
  const rows = wallets.flatMap((w) => w.positions.map((p) => rowOf(w, p)));
  return [POSITION_COLUMNS.join(','), ...rows.map((r) => csvRow(POSITION_COLUMNS.map((c) => r[c])))].join('\n') + '\n';
}
