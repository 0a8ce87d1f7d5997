import { dayIn, lastClock, localZone, nextClock } from '../../../shared/zones';
import type { AlertEngine } from '../alerts/alert-engine';

/**
 * The digest's clock: the time and a timer. The app's is the system's; a test hands in one it
 * moves itself, so a day passes without a sleep.
 */
export interface DigestClock {
  now(): number;
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export const SYSTEM_CLOCK: DigestClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimer: (t) => clearTimeout(t as NodeJS.Timeout),
};

/**
 * A digest whose time passed while the app was closed (or the computer slept) goes when the app
 * is back within this long; later, that day's is skipped: a morning digest at night misleads.
 */
export const CATCH_UP_MS = 6 * 3_600_000;
/** The timer wakes at least this often to look at the clock again (a sleep, a change of zone or summer time). */
const LOOK_EVERY_MS = 3_600_000;

/** The calendar day of `ms` on the clock of `zone`: "2026-11-23", what a digest is of. */
export function localDay(ms: number, zone: string = localZone()): string {
  return dayIn(ms, zone);
}

/** The latest "HH:MM" of `zone`'s clock at or before `now` (today's, or yesterday's when today's is still ahead). */
export function lastDue(hhmm: string, now: number, zone: string = localZone()): number {
  return lastClock(now, hhmm, zone);
}

/** The next "HH:MM" of `zone`'s clock after `now`. */
export function nextDue(hhmm: string, now: number, zone: string = localZone()): number {
  return nextClock(now, hhmm, zone);
}

export interface DigestScheduleDeps {
  /** The digest's time "HH:MM" (Settings `digestAt`), or null: none. */
  at: () => string | null;
  /**
   * The zone on whose clock `at` is kept and applied (Settings `digestZone`, an IANA name, as a
   * channel's quiet hours carry theirs); this machine's where none is named.
   */
  zone?: () => string | null;
  /** The digest's words at a moment, on the clock of its zone (digest-facts.ts, digest-text.ts). */
  build: (now: number, zone: string) => { title: string; message: string };
  /** Stores it once per day and hands it to the router (the outbox: delivered once across restarts). */
  engine: Pick<AlertEngine, 'onDigest' | 'hasDigest'>;
  clock?: DigestClock;
  log: (line: string) => void;
}

/**
 * The daily digest at the time set, on the clock of its zone: once a day there, through the alert store and its outbox, so
 * it is delivered once however often the app restarts. A time that passed while the app was
 * closed is caught up at start within CATCH_UP_MS; a time set in Settings counts from then on (a
 * time set to one that just passed sends nothing until tomorrow).
 */
export class DigestSchedule {
  private timer: unknown;
  /** A due time after this is sent when it comes: at start, CATCH_UP_MS ago; after a change, now. */
  private since: number | null = null;
  private closed = false;
  private readonly clock: DigestClock;

  constructor(private readonly d: DigestScheduleDeps) {
    this.clock = d.clock ?? SYSTEM_CLOCK;
  }

  start(): void {
    this.since = this.clock.now() - CATCH_UP_MS;
    this.look();
  }

  /** The settings changed: a new time (or zone) counts from now. */
  rearm(): void {
    if (this.since === null || this.closed) return;
    const at = `${this.d.at()} ${this.d.zone?.() ?? ''}`;
    if (at !== this.armedFor) this.since = this.clock.now();
    this.look();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** The time and zone the schedule was last armed for. */
  private armedFor: string | null = null;

  private look(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    const at = this.d.at();
    this.armedFor = `${at} ${this.d.zone?.() ?? ''}`;
    if (this.closed || at === null || this.since === null) return;
    const now = this.clock.now();
    const zone = this.d.zone?.() ?? localZone();
    const due = lastDue(at, now, zone);
    if (due > this.since) {
      const day = localDay(due, zone);
      try {
        if (!this.d.engine.hasDigest(day)) {
          const { title, message } = this.d.build(now, zone);
          const sent = this.d.engine.onDigest(day, title, message, now);
          if (sent) this.d.log(`daily digest of ${day} queued (alert ${sent.id})`);
        }
        this.since = due;
      } catch (err) {
        // Nothing was stored: the next look (within the hour) tries again.
        this.d.log(
          `daily digest of ${day}: it could not be made (${(err as Error).message}); trying again within the hour`,
        );
      }
    }
    const wait = Math.min(Math.max(nextDue(at, now, zone) - now, 1_000), LOOK_EVERY_MS);
    this.timer = this.clock.setTimer(() => this.look(), wait);
  }
}
