import type { RiskReading } from './contract';
import { isoTime } from './format';
import type { PositionSummary } from './portfolio';

/** One CSV cell (RFC 4180): objects as JSON, quoted when they hold a comma, quote or newline. */
export function csvCell(v: unknown): string {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}

/** The columns of an exported margin event, the same in `tidewatch export` and the Live events view. */
export const MARGIN_EVENT_COLUMNS = [
  'id',
  'type',
  'timestamp_ms',
  'checkpoint_id',
  'tx_hash',
  'margin_manager_id',
  'data',
  'valid',
  'received_at',
] as const;

/**
 * The Portfolio's columns (its Export CSV): one row per margin manager, the figures its row shows,
 * unrounded, and its times in ISO 8601 with the zone's offset (format.ts `isoTime`). `tidewatch
 * export risk` speaks with these names too (`RISK_COLUMNS`).
 */
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
  'break_even_moved_at',
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
  'updated_at',
] as const;

export type PositionColumn = (typeof POSITION_COLUMNS)[number];

const isoOrNull = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : isoTime(ms);

/** A position as a row of the Portfolio's CSV (`owner` and `label`: its wallet's). */
export function positionRow(owner: string, label: string | null, p: PositionSummary): Record<PositionColumn, unknown> {
  return {
    valued_at: isoTime(p.valued_at),
    owner,
    wallet_label: label,
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
    break_even_moved_at: isoOrNull(p.pnl.break_even_moved_at),
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
    updated_at: isoOrNull(p.updated_ms),
  };
}

/**
 * The columns of `tidewatch export risk`: each reading of the risk history as the Portfolio's CSV
 * names its figures (a reading is the position at one valuation: its time, side, size,
 * break-even, level, liquidation price and distance).
 */
export const RISK_COLUMNS = [
  'valued_at',
  'owner',
  'manager_id',
  'pool',
  'side',
  'size',
  'base_symbol',
  'quote_symbol',
  'price_usd',
  'break_even_price',
  'assets_usd',
  'debt_usd',
  'risk_ratio',
  'level',
  'liquidation_price',
  'distance_pct',
] as const satisfies readonly PositionColumn[];

export type RiskColumn = (typeof RISK_COLUMNS)[number];

/** A stored reading as a row of `export risk` (a figure a reading of an older Tidewatch did not keep is empty). */
export function riskRow(r: RiskReading): Record<RiskColumn, unknown> {
  return {
    valued_at: isoTime(r.ts_ms),
    owner: r.owner,
    manager_id: r.manager_id,
    pool: r.pool ?? null,
    side: r.side ?? null,
    size: r.size ?? null,
    base_symbol: r.base_symbol ?? null,
    quote_symbol: r.quote_symbol ?? null,
    price_usd: r.price_usd ?? null,
    break_even_price: r.break_even_price ?? null,
    assets_usd: r.assets_usd,
    debt_usd: r.debt_usd,
    risk_ratio: r.risk_ratio,
    level: r.level ?? null,
    liquidation_price: r.liquidation_price ?? null,
    distance_pct: r.distance_pct,
  };
}
