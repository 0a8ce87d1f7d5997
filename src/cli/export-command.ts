import { EVENT_TYPES } from '../shared/api';
import type { AlertRecord, StoredMarginEvent } from '../shared/contract';
import { csvRow, riskRow } from '../shared/csv';
import { isoTime } from '../shared/format';
import { riskRatioFromStream } from '../shared/units';
import { Store } from '../main/core/store/store';
import { parse, UsageError } from './args';
import { DEFAULT_DATA_DIR } from './service-options';

export const EXPORT_USAGE = `tidewatch export: print what the store holds (works while serve runs, and offline)

  tidewatch export margin-events [--data-dir DIR] [--format jsonl|csv]
  tidewatch export liquidations  [--data-dir DIR] [--format jsonl|csv]
  tidewatch export trades --pool NAME [--data-dir DIR] [--format jsonl|csv]
  tidewatch export alerts        [--data-dir DIR] [--format jsonl|csv]
  tidewatch export risk          [--data-dir DIR] [--format jsonl|csv]

  margin-events: one row per stored margin stream event, oldest first, with its stream id.
  alerts: one row per alert, oldest first, its times in ISO 8601 with the zone's offset.
  risk: one row per risk reading, oldest first, named as the Portfolio's CSV names its columns:
        valued_at (ISO 8601 with the zone's offset), owner, manager_id, pool, side, size,
        base_symbol, quote_symbol, price_usd, break_even_price, assets_usd, debt_usd, risk_ratio,
        level, liquidation_price, distance_pct (readings older than these columns leave the
        position's figures empty).`;

type Row = Record<string, unknown>;

/** Writes rows as JSON lines or CSV (header from the first row's keys). */
class RowWriter {
  private header: string[] | undefined;
  constructor(private readonly format: 'jsonl' | 'csv') {}
  write(row: Row): void {
    if (this.format === 'jsonl') {
      process.stdout.write(`${JSON.stringify(row)}\n`);
      return;
    }
    if (!this.header) {
      this.header = Object.keys(row);
      process.stdout.write(`${this.header.join(',')}\n`);
    }
    process.stdout.write(`${csvRow(this.header.map((k) => row[k]))}\n`);
  }
}

function eventRow(e: StoredMarginEvent): Row {
  return {
    id: e.id,
    type: e.type,
    timestamp_ms: e.timestamp_ms,
    checkpoint_id: e.checkpoint_id,
    tx_hash: e.tx_hash,
    margin_manager_id: e.margin_manager_id,
    data: e.data,
    valid: e.valid,
    ...(e.problem ? { problem: e.problem } : {}),
    received_at: e.received_at,
    ...(e.recovered ? { recovered: true } : {}),
  };
}

function liquidationRow(e: StoredMarginEvent): Row {
  const d = (typeof e.data === 'object' && e.data !== null ? e.data : {}) as Record<string, unknown>;
  return {
    id: e.id,
    timestamp_ms: e.timestamp_ms,
    checkpoint_id: e.checkpoint_id,
    tx_hash: e.tx_hash,
    margin_manager_id: e.margin_manager_id,
    margin_pool_id: d['margin_pool_id'] ?? null,
    liquidation_amount: d['liquidation_amount'] ?? null,
    pool_reward: d['pool_reward'] ?? null,
    pool_default: d['pool_default'] ?? null,
    risk_ratio: typeof d['risk_ratio'] === 'number' ? riskRatioFromStream(d['risk_ratio']) : null,
    remaining_base_asset: d['remaining_base_asset'] ?? null,
    remaining_quote_asset: d['remaining_quote_asset'] ?? null,
  };
}

/** An alert as stored, its times in ISO 8601 with the zone's offset. */
function alertRow(a: AlertRecord): Row {
  const iso = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));
  return {
    ...a,
    created_at: isoTime(a.created_at),
    acknowledged_at: iso(a.acknowledged_at),
    snoozed_until: iso(a.snoozed_until),
  };
}

export function exportCommand(args: string[]): number {
  // `export ... | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const [what, ...rest] = args;
  if (what === undefined || what === '--help' || what === '-h') {
    console.log(EXPORT_USAGE);
    return what === undefined ? 2 : 0;
  }
  const o = parse(rest, { 'data-dir': { type: 'string' }, format: { type: 'string' }, pool: { type: 'string' } });
  const format = (o.format ?? 'jsonl') as 'jsonl' | 'csv';
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format must be jsonl or csv (got "${o.format}")`);
  let store: Store;
  try {
    store = Store.openReadOnly(o['data-dir'] ?? DEFAULT_DATA_DIR);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const out = new RowWriter(format);
  try {
    switch (what) {
      case 'margin-events':
        for (const e of store.margin.iterate()) out.write(eventRow(e));
        break;
      case 'liquidations':
        for (const e of store.margin.iterate()) if (e.type === EVENT_TYPES.liquidation) out.write(liquidationRow(e));
        break;
      case 'trades': {
        if (!o.pool) throw new UsageError('export trades needs --pool NAME');
        for (const t of store.market.trades(o.pool, 0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
          out.write(t as unknown as Row);
        break;
      }
      case 'alerts':
        for (const a of store.risk.alerts(true, 1_000_000).reverse()) out.write(alertRow(a));
        break;
      case 'risk':
        for (const r of store.risk.allReadings()) out.write(riskRow(r));
        break;
      default:
        throw new UsageError(`unknown export "${what}": margin-events, liquidations, trades, alerts or risk`);
    }
  } finally {
    store.close();
  }
  return 0;
}
