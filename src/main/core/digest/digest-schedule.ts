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

const pad = (n: number): string => String(n).padStart(2, '0');
/** The local calendar day of `ms`: "2026-11-23", what a digest is of. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The latest local "HH:MM" at or before `now` (today's, or yesterday's when today's is still ahead). */
export function lastDue(hhmm: string, now: number): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const at = new Date(now);
  at.setHours(h, m, 0, 0);
  if (at.getTime() > now) at.setDate(at.getDate() - 1);
  return at.getTime();
}

/** The next local "HH:MM" after `now`. */
export function nextDue(hhmm: string, now: number): number {
  const last = new Date(lastDue(hhmm, now));
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  last.setDate(last.getDate() + 1);
  last.setHours(h, m, 0, 0);
  return last.getTime();
}

export interface DigestScheduleDeps {
  /** The digest's local time "HH:MM" (Settings `digestAt`), or null: none. */
  at: () => string | null;
  /** The digest's words at a moment (digest-facts.ts, digest-text.ts). */
  build: (now: number) => { title: string; message: string };
  /** Stores it once per day and hands it to the router (the outbox: delivered once across restarts). */
  engine: Pick<AlertEngine, 'onDigest' | 'hasDigest'>;
  clock?: DigestClock;
  log: (line: string) => void;
}

/**
 * The daily digest at the time set: once a local day, through the alert store and its outbox, so
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

  /** The settings changed: a new time counts from now. */
  rearm(): void {
    if (this.since === null || this.closed) return;
    const at = this.d.at();
    if (at !== this.armedFor) this.since = this.clock.now();
    this.look();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private armedFor: string | null = null;

  private look(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    const at = this.d.at();
    this.armedFor = at;
    if (this.closed || at === null || this.since === null) return;
    const now = this.clock.now();
    const due = lastDue(at, now);
    if (due > this.since) {
      const day = localDay(due);
      try {
        if (!this.d.engine.hasDigest(day)) {
          const { title, message } = this.d.build(now);
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
    const wait = Math.min(Math.max(nextDue(at, now) - now, 1_000), LOOK_EVERY_MS);
    this.timer = this.clock.setTimer(() => this.look(), wait);
  }
}
