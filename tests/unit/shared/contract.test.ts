import { describe, expect, it } from 'vitest';
import { CONTRACT_ARGS, parseArgs } from '../../../src/shared/contract';

describe('contract bounds', () => {
  it('refuses ranges that would plan thousands of requests, and times beyond any real date', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(() => parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1m', from: 0, to: now })).toThrow(/too long/);
    expect(() => parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1h', from: 0, to: 2 ** 53 })).toThrow(
      /to: expected UNIX seconds/,
    );
    expect(() => parseArgs('trades', { pool: 'SUI_USDC', from: now - 30 * 86_400, to: now })).toThrow(/too long/);
    expect(() => parseArgs('trades', { pool: 'SUI_USDC', from: now, to: now + 3 * 86_400 })).toThrow(/future/);
    expect(parseArgs('candles', { pool: 'SUI_USDC', timeframe: '1d', from: now - 365 * 86_400, to: now })).toBeTruthy();
    expect(() => parseArgs('marginEvents', { fromMs: 2 ** 60 })).toThrow(/fromMs/);
    expect(Object.keys(CONTRACT_ARGS)).toContain('retryStreams');
  });
});
