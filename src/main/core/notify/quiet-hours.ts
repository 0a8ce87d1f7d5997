import { clockText, CORE_LOCALE } from '../../../shared/format';
import { clockMinutes, localZone, minuteOfDay, nextClock } from '../../../shared/zones';

/** A channel's quiet hours as set: "22:00" to "07:00" on the clock of `zone` (the monitor's own where none is named). */
export interface QuietHours {
  from: string;
  to: string;
  zone?: string | undefined;
}

/**
 * The zone quiet hours are kept on: the one they name (set where they were chosen, the page's),
 * else the clock of the machine the monitor runs on, which Settings then names beside them, so
 * they are shown on the clock they are applied on (docs/notify.md#quiet-hours).
 */
export function quietZone(q: QuietHours): string {
  return q.zone ?? localZone();
}

/**
 * Quiet hours ("22:00" to "07:00", across midnight or not) on their zone's clock: when `now` falls
 * inside them, the moment they end; else null. A warning waits until then, a critical alert does not.
 */
export function quietUntil(q: QuietHours | undefined, now: number): number | null {
  if (!q || q.from === q.to) return null;
  const zone = quietZone(q);
  const [from, to] = [clockMinutes(q.from), clockMinutes(q.to)];
  const m = minuteOfDay(now, zone);
  const inside = from < to ? m >= from && m < to : m >= from || m < to;
  // Daylight saving may move their end: the next time the zone's clock reads it.
  return inside ? nextClock(now, q.to, zone) : null;
}

/** Why a row waits, in the words of the delivery log: "quiet hours until 7:00 AM EST", on their zone's clock. */
export function quietHeld(q: QuietHours, until: number): string {
  return `quiet hours until ${clockText(until, CORE_LOCALE, true, false, quietZone(q))}`;
}
