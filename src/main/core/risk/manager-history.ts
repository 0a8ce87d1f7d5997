import type { MarginEventRepo } from '../store/margin-events';
import type { Flow, ManagerHistory } from './positions';

/** More events than this for one manager: the oldest are not read (its history counts as incomplete). */
const MAX_EVENTS = 5_000;

const amount = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/**
 * A manager's deposits, withdrawals and liquidations as the margin stream delivered them (the store
 * keeps every one), oldest first; complete when its creation is among them (it was created while
 * Tidewatch kept the stream's history), so the profit since opening can be told.
 */
export function managerHistory(repo: MarginEventRepo, managerId: string): ManagerHistory {
  const events = repo.list({ managerId, limit: MAX_EVENTS });
  const flows: Flow[] = [];
  let complete = false;
  for (const e of events) {
    // Either naming (spec or the real service's): the kind is the type's last word.
    if (e.type.endsWith('manager_created')) complete = true;
    const data = (e.data ?? {}) as {
      base_asset_amount?: unknown;
      quote_asset_amount?: unknown;
      timestamp?: unknown;
      liquidation_amount?: unknown;
      margin_pool_id?: unknown;
    };
    const at = e.timestamp_ms ?? amount(data.timestamp);
    if (e.type.endsWith('_liquidation')) {
      if (typeof data.margin_pool_id === 'string')
        flows.push({
          at,
          kind: 'liquidation',
          repaid: amount(data.liquidation_amount),
          marginPoolId: data.margin_pool_id,
        });
      continue;
    }
    const deposit = e.type.endsWith('_deposit');
    if (!deposit && !e.type.endsWith('_withdraw')) continue;
    flows.push({
      at,
      kind: deposit ? 'deposit' : 'withdraw',
      base: amount(data.base_asset_amount),
      quote: amount(data.quote_asset_amount),
    });
  }
  flows.reverse();
  return { flows, complete: complete && events.length < MAX_EVENTS };
}
