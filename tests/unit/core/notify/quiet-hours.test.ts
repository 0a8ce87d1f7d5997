import { describe, expect, it } from 'vitest';
import { quietUntil } from '../../../../src/main/core/notify/quiet-hours';

describe('quiet hours (local time)', () => {
  const at = (h: number, m = 0): number => new Date(2026, 10, 25, h, m).getTime();
  it('across midnight: inside until the end, outside otherwise', () => {
    const q = { from: '22:00', to: '07:00' };
    expect(quietUntil(q, at(23, 30))).toBe(new Date(2026, 10, 26, 7, 0).getTime());
    expect(quietUntil(q, at(3))).toBe(at(7));
    expect(quietUntil(q, at(7))).toBeNull();
    expect(quietUntil(q, at(12))).toBeNull();
  });
  it('within a day, and none when from equals to', () => {
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(13))).toBe(at(14));
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(14, 1))).toBeNull();
    expect(quietUntil({ from: '09:00', to: '09:00' }, at(9))).toBeNull();
    expect(quietUntil(undefined, at(9))).toBeNull();
  });
});
