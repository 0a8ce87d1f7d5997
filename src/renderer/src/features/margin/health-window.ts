/** A single reading's axis: this much before it. */
export const ONE_READING_SPAN_MS = 10 * 60_000;
/** The least span of several readings (read seconds apart on a busy Demo network). */
export const MIN_SPAN_MS = 2 * 60_000;

/**
 * The pool-health chart's time axis: from the first reading to the last, so the history fills
 * the width (a review found an hour-wide axis with five minutes of readings at its right edge);
 * one reading alone ends a short axis (it was once drawn on two days of axis, mostly future).
 * Null: no reading, the chart's own axis.
 */
export function healthWindow(times: readonly number[]): { min: number; max: number } | null {
  if (times.length === 0) return null;
  const first = times[0]!;
  const last = times[times.length - 1]!;
  const span = times.length === 1 ? ONE_READING_SPAN_MS : Math.max(MIN_SPAN_MS, last - first);
  return { min: last - span, max: last };
}
