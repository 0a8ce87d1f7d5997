import { describe, expect, it } from 'vitest';
import type { StoredMarginEvent } from '../../../../src/shared/contract';
import { toEventRow } from '../../../../src/main/core/contract/event-rows';

const stored = (over: Partial<StoredMarginEvent>): StoredMarginEvent => ({
  id: '1700000000000-0',
  type: 'dex_margin_manager_updates_liquidation',
  timestamp_ms: 1_700_000_000_000,
  checkpoint_id: 7,
  tx_hash: 'tx7',
  margin_manager_id: '0xm',
  data: { margin_manager_id: '0xm', risk_ratio: 1_050_000_000, liquidation_amount: 12, pool_reward: 3 },
  valid: true,
  problem: null,
  received_at: 1_700_000_000_100,
  ...over,
});

describe('a Live events row', () => {
  it('keeps what the table reads and, of the data, only the owner and the risk ratio', () => {
    const amounts = [{ label: 'repaid', raw: '12', decimals: 6, symbol: 'USDC' }];
    expect(toEventRow(stored({ amounts, own: true }))).toEqual({
      id: '1700000000000-0',
      type: 'dex_margin_manager_updates_liquidation',
      timestamp_ms: 1_700_000_000_000,
      margin_manager_id: '0xm',
      valid: true,
      data: { risk_ratio: 1_050_000_000 },
      amounts,
      own: true,
    });
    const created = stored({ type: 'dex_margin_manager_updates_manager_created', data: { owner: '0xo', x: 1 } });
    expect(toEventRow(created).data).toEqual({ owner: '0xo' });
    // A deposit's data says nothing the row shows beside its amounts: no data at all.
    expect(toEventRow(stored({ data: { margin_manager_id: '0xm', amount: 5 } }))).not.toHaveProperty('data');
  });

  it('keeps why an invalid event is kept, and that an event was recovered', () => {
    const row = toEventRow(
      stored({ valid: false, problem: 'risk_ratio: not a number', data: 'not json', recovered: true }),
    );
    expect(row).toMatchObject({ valid: false, problem: 'risk_ratio: not a number', recovered: true });
    expect(row).not.toHaveProperty('data');
  });
});
