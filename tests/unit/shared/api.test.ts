import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CandleSchema,
  errorMessageOf,
  KioskNftsPageSchema,
  MarginEventSchema,
  Num,
  PriceLevelSchema,
  TradeSchema,
} from '../../../src/shared/api';

describe('shared schemas', () => {
  it('accept numeric strings where the service contract says number, and normalise them', () => {
    expect(v.parse(Num, '3380500')).toBe(3_380_500);
    expect(v.parse(Num, ' 1.5e3 ')).toBe(1500);
    expect(v.parse(PriceLevelSchema, { price: '3380500', total_quantity: 10, order_count: '2' })).toEqual({
      price: 3_380_500,
      total_quantity: 10,
      order_count: 2,
    });
    expect(v.safeParse(Num, 'abc').success).toBe(false);
    expect(v.safeParse(Num, Number.NaN).success).toBe(false);
  });

  it('normalise the Kiosk checkpoint_id (a number in Kiosk NFTs) to a string', () => {
    const page = v.parse(KioskNftsPageSchema, {
      kiosk: {
        object_id: '0x1',
        owner: '0x2',
        owner_cap_object_id: null,
        personal_cap_object_id: '0x3',
        checkpoint_id: 123_456,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      },
      items: [],
      isLastPage: true,
      currentPage: 0,
      perPage: 10,
    });
    expect(page.kiosk.checkpoint_id).toBe('123456');
  });

  it('keep volumes as strings and accept numbers for them', () => {
    const c = v.parse(CandleSchema, {
      timestamp: '2026-11-22T09:00:00',
      open: '1',
      high: 2,
      low: 1,
      close: 2,
      volume_base: '123456789012345678901',
      volume_quote: 42,
      trade_count: 3,
    });
    expect(c.volume_base).toBe('123456789012345678901');
    expect(c.volume_quote).toBe('42');
  });

  it('name the path of the field at fault', () => {
    const r = v.safeParse(TradeSchema, { event_digest: 'x' });
    expect(r.success).toBe(false);
    const paths = r.issues!.map((i) => v.getDotPath(i));
    expect(paths).toContain('digest');
  });

  it('dispatch margin events on type', () => {
    const e = v.parse(MarginEventSchema, {
      type: 'dex_margin_manager_updates_liquidation',
      timestamp_ms: 1,
      checkpoint_id: 2,
      tx_hash: 'h',
      data: {
        margin_manager_id: '0xm',
        margin_pool_id: '0xp',
        liquidation_amount: 10,
        pool_reward: 1,
        pool_default: 0,
        risk_ratio: 1_100_000,
        remaining_base_asset: 5,
        remaining_quote_asset: 0,
        timestamp: 1,
      },
    });
    expect(e.type).toBe('dex_margin_manager_updates_liquidation');
    expect(
      v.safeParse(MarginEventSchema, { type: 'other', timestamp_ms: 1, checkpoint_id: 1, tx_hash: '', data: {} })
        .success,
    ).toBe(false);
  });

  it('read error messages from error.message, message, then error', () => {
    expect(errorMessageOf({ error: { message: 'a' }, message: 'b' })).toBe('a');
    expect(errorMessageOf({ message: 'b', error: 'c' })).toBe('b');
    expect(errorMessageOf({ error: 'c' })).toBe('c');
    expect(errorMessageOf({})).toBeUndefined();
    expect(errorMessageOf('text')).toBeUndefined();
  });
});
