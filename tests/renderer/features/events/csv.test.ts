import { describe, expect, it } from 'vitest';
import { eventsToCsv } from '../../../../src/renderer/src/features/events/csv';

describe('CSV export of live events', () => {
  it('quotes what needs quoting and keeps the export columns', () => {
    const csv = eventsToCsv([
      {
        id: '1-0',
        type: 't',
        timestamp_ms: 1,
        checkpoint_id: 2,
        tx_hash: 'h',
        margin_manager_id: '0xm',
        data: { a: 'x,"y"' },
        valid: true,
        problem: null,
        received_at: 3,
      },
    ]);
    expect(csv.split('\n')[0]).toBe(
      'id,type,timestamp_ms,checkpoint_id,tx_hash,margin_manager_id,data,valid,received_at',
    );
    expect(csv.split('\n')[1]).toBe('1-0,t,1,2,h,0xm,"{""a"":""x,\\""y\\""""}",true,3');
  });
});
