/**
 * Time zones by their IANA names ("America/New_York"): what the clock reads there, and when it
 * next reads a given time of day. A channel's quiet hours are set and applied on the clock of one
 * named zone, so the page (in the browser's zone) and the monitor (in its machine's) read them
 * alike (docs/notify.md#quiet-hours). Built on `Intl.DateTimeFormat` alone: no Node, no DOM.
 */

const DAY_MS = 86_400_000;

/** The zone this process's clock reads: the machine's, or TZ's ("UTC" where neither says). */
export function localZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/** Whether `name` is a time zone Intl knows ("America/New_York", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The clock and calendar of `zone` at `at`, written as if they were UTC's (ms): its offset is this less `at`. */
function wallAsUtc(at: number, zone: string): number {
  let f = wallFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormats.set(zone, f);
  }
  const n: Record<string, number> = {};
  for (const p of f.formatToParts(at)) if (p.type !== 'literal') n[p.type] = Number(p.value);
  const ms = ((at % 1000) + 1000) % 1000;
  return Date.UTC(n['year']!, n['month']! - 1, n['day']!, n['hour']!, n['minute']!, n['second']!) + ms;
}

/** The calendar day on the clock of `zone` at `at`: "2026-11-23" (a daily digest is of one). */
export function dayIn(at: number, zone: string): string {
  return new Date(wallAsUtc(at, zone)).toISOString().slice(0, 10);
}

/** The latest moment at or before `now` at which the clock of `zone` read `hhmm` ("08:00"). */
export function lastClock(now: number, hhmm: string, zone: string): number {
  let at = nextClock(now - 2 * DAY_MS, hhmm, zone);
  for (let next = nextClock(at, hhmm, zone); next <= now; next = nextClock(at, hhmm, zone)) at = next;
  return at;
}

/** "22:00" -> minutes since midnight (1,320). */
export function clockMinutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** The minutes since midnight on the clock of `zone` at `at`. */
export function minuteOfDay(at: number, zone: string): number {
  const wall = wallAsUtc(at, zone);
  return Math.floor((((wall % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
}

/**
 * The first moment after `after` at which the clock of `zone` reads `hhmm` ("07:00"), with the
 * offset of that moment (across a change to or from daylight saving, the new one's); a time the
 * change skips comes at the moment the clock passes it.
 */
export function nextClock(after: number, hhmm: string, zone: string): number {
  const wall = wallAsUtc(after, zone);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  for (let day = 0; day < 3; day++) {
    const target = midnight + day * DAY_MS + clockMinutes(hhmm) * 60_000;
    // At the offset of `after`, then at the offset of the moment that gives.
    const guess = target - (wall - after);
    let at = guess + (target - wallAsUtc(guess, zone));
    if (wallAsUtc(at, zone) !== target) {
      // The change skips it: the first minute between the two guesses whose clock is past it.
      let [lo, hi] = [Math.min(guess, at), Math.max(guess, at)];
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (wallAsUtc(mid, zone) >= target) hi = mid;
        else lo = mid;
      }
      at = hi;
    }
    if (at > after) return at;
  }
  return after + DAY_MS;
}
