import { describe, expect, it } from 'vitest';
import type { Candle, Trade } from '../../../../src/shared/api';
import { mergeTrades } from '../../../../src/renderer/src/features/markets/candles';

describe('live trades on the candles', () => {
  const MIN15 = 900_000;
  const start = Date.parse('2026-11-25T12:00:00Z');
  const candle: Candle = {
    timestamp: '2026-11-25T12:00:00',
    open: 100,
    high: 110,
    low: 95,
    close: 105,
    volume_base: '9007199254740993', // beyond 2^53: summed as BigInt
    volume_quote: '1000',
    trade_count: 4,
  };
  const trade = (at: number, price: number, base = 10, quote = 20) =>
    ({ checkpoint_timestamp_ms: at, price, base_quantity: base, quote_quantity: quote }) as Trade;

  it('moves the newest candle with a trade in its period: high, low, close, volumes, count', () => {
    const [k] = mergeTrades([candle], [trade(start + 60_000, 120), trade(start + 30_000, 90)], MIN15);
    // Applied in time order: 90 then 120, so 120 closes it.
    expect(k).toEqual({
      ...candle,
      high: 120,
      low: 90,
      close: 120,
      volume_base: '9007199254741013',
      volume_quote: '1040',
      trade_count: 6,
    });
  });

  it('opens the next candle at the start of its period, and leaves a trade before the newest out', () => {
    const list = mergeTrades([candle], [trade(start + MIN15 + 5_000, 130, 7, 8), trade(start - 1, 1)], MIN15);
    expect(list).toEqual([
      candle,
      {
        timestamp: '2026-11-25T12:15:00',
        open: 130,
        high: 130,
        low: 130,
        close: 130,
        volume_base: '7',
        volume_quote: '8',
        trade_count: 1,
      },
    ]);
  });

  it('changes nothing without candles, and never the list it was given', () => {
    expect(mergeTrades([], [trade(start, 1)], MIN15)).toEqual([]);
    const given = [candle];
    mergeTrades(given, [trade(start + 1, 500)], MIN15);
    expect(given).toEqual([candle]);
    expect(given[0]!.close).toBe(105);
  });
});
