import { describe, expect, it } from 'vitest';
import { withPushed } from '../../../../src/renderer/src/features/events/merge';
import type { StoredMarginEvent } from '../../../../src/shared/contract';

const event = (id: string, extra: Partial<StoredMarginEvent> = {}): StoredMarginEvent =>
  ({
    id,
    type: 'dex_margin_manager_updates_deposit',
    margin_manager_id: '0xm',
    valid: true,
    ...extra,
  }) as StoredMarginEvent;

describe('pushed events into a list shown newest first', () => {
  it('puts new events on top, newest first', () => {
    const shown = [event('2'), event('1')];
    expect(withPushed(shown, [event('3'), event('4')], 10).map((e) => e.id)).toEqual(['4', '3', '2', '1']);
  });

  it('replaces an event already shown where it stands (pushed again with its units)', () => {
    const shown = [event('3'), event('2'), event('1')];
    const placed = event('2', { amounts: [{ label: '', raw: '1000000', decimals: 6, symbol: 'USDC' }] });
    const rows = withPushed(shown, [placed, event('4')], 10);
    expect(rows.map((e) => e.id)).toEqual(['4', '3', '2', '1']);
    expect(rows[2]!.amounts?.[0]?.symbol).toBe('USDC');
  });

  it('leaves out an event pushed again that is not shown (it may be older than the list)', () => {
    const shown = [event('3'), event('2')];
    const late = {
      ...event('1', { amounts: [{ label: '', raw: '5', decimals: 0, symbol: 'SUI' }] }),
      replaces: true as const,
    };
    const rows = withPushed(shown, [late, { ...event('3', { amounts: late.amounts }), replaces: true }], 10);
    expect(rows.map((e) => e.id)).toEqual(['3', '2']);
    expect(rows[0]!.amounts?.[0]?.symbol).toBe('SUI');
  });

  it('keeps at most the limit, dropping the oldest', () => {
    const shown = [event('2'), event('1')];
    expect(withPushed(shown, [event('3')], 2).map((e) => e.id)).toEqual(['3', '2']);
  });
});
