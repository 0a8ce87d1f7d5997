import { describe, expect, it } from 'vitest';
import {
  healthWindow,
  MIN_SPAN_MS,
  ONE_READING_SPAN_MS,
} from '../../../../src/renderer/src/features/margin/health-window';

describe("the pool-health chart's time axis", () => {
  const T = Date.parse('2026-11-28T15:10:00Z');
  it('spans the readings, first to last, so they fill the width', () => {
    // Review: an axis of 9:15-10:10 AM with five minutes of readings at its right edge.
    const times = [T - 5 * 60_000, T - 3 * 60_000, T];
    expect(healthWindow(times)).toEqual({ min: T - 5 * 60_000, max: T });
  });
  it('gives readings seconds apart and a reading alone a short axis ending at the last, never the future', () => {
    expect(healthWindow([T - 20_000, T])).toEqual({ min: T - MIN_SPAN_MS, max: T });
    expect(healthWindow([T])).toEqual({ min: T - ONE_READING_SPAN_MS, max: T });
    expect(healthWindow([])).toBeNull();
  });
});
