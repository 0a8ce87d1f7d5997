import { describe, expect, it } from 'vitest';
import { StreamVolumes } from '../../../../src/main/core/credits/stream-volume';

describe("a stream's measured volume", () => {
  it('leaves out the first two minutes, knows the rate after one more, and the part sent at its own pace', () => {
    let now = 0;
    const v = new StreamVolumes(() => now);
    const second = (total: number, book: number): void => {
      v.note('pool:SUI_USDC', total);
      v.notePaced('pool:SUI_USDC', book);
      now += 1_000;
    };
    // The warm-up (a resume's replay): counted neither way.
    for (let i = 0; i < 120; i++) second(100_000, 100_000);
    expect(v.rate('pool:SUI_USDC')).toBeNull();
    expect(v.pacedRate('pool:SUI_USDC')).toBeNull();
    // Then 16,100 bytes a second, 11,200 of them the book's.
    for (let i = 0; i < 60; i++) second(16_100, 11_200);
    expect(v.rate('pool:SUI_USDC')).toBeCloseTo(16_100, 6);
    expect(v.pacedRate('pool:SUI_USDC')).toBeCloseTo(11_200, 6);
    // A stream without a book (the margin stream): none of it paced.
    v.note('margin', 1);
    now += 181_000;
    v.note('margin', 6_000);
    expect(v.pacedRate('margin')).toBe(0);
    // Closed: measured afresh.
    v.forget('pool:SUI_USDC');
    expect(v.pacedRate('pool:SUI_USDC')).toBeNull();
  });
});
