import type { AlertRecord } from '../../../shared/contract';
import type { CoreBus } from '../events';
import type { Notifier } from './notifier';

/**
 * The monitor watches itself: while Tidewatch cannot see (the margin stream down or
 * silent past its watchdog, the service unreachable, the plan's credits used up, the store
 * refusing writes, the computer just woke and the time asleep is not read yet), or cannot reach
 * the trader (every alert channel in a failure spell past a minute), a "blind" alarm
 * goes to every channel once after a grace, and an all-clear with what the catch-up found when
 * sight returns. While everything is seen, a heartbeat URL is called (the healthchecks.io /
 * Uptime Kuma push convention), so an outside service notices when Tidewatch itself is gone.
 */

export interface SightState {
  /** Whether the monitor means to see at all (a service and a key are set). */
  expected: boolean;
  marginOpen: boolean;
  offline: boolean;
  storeError: string | null;
  creditsSpent: boolean;
  /** Why no alert channel reaches the trader (each one failing for a minute), or null (notify/reach.ts). */
  noChannel: string | null;
}

export interface SightDeps {
  state: () => SightState;
  config: () => { blindAfterMin: number; heartbeatUrl: string | null; heartbeatEveryMin: number };
  /** Raise the blind alarm (every channel). */
  blind: (since: number, reasons: string[], now: number) => void;
  /** Sight is back (held `SETTLE_MS` so the gap's catch-up is in): the all-clear. */
  back: (since: number, now: number) => void;
  fetch?: typeof fetch;
  log: (line: string) => void;
  now?: () => number;
}

/**
 * What the blind alarm reads and raises through, as the services that know it: it judges every
 * room, so the monitor builds it (`SightWatch.over`) once they all are.
 */
export interface SightSources {
  /** The service: whether it is to be asked at all, and whether it is reachable. */
  link: { mayAsk(): boolean; readonly offline: boolean };
  margin: { isOpen(): boolean };
  storeHealth: { current(): string | null };
  /** Whether this month's credits are spent. */
  plan: { spent(): boolean };
  /** The channels: whether any reaches the trader, the options, and the way out for an alarm the store cannot keep. */
  notify: Pick<Notifier, 'reach' | 'config' | 'deliverUnstored'>;
  /** The alert engine's blind alarm and all-clear. */
  alarms: {
    onBlind(since: number, reasons: readonly string[], now: number): AlertRecord | undefined;
    onSight(since: number, now: number): AlertRecord | undefined;
  };
  /** Hears the margin stream open (`marginStreamOpened`): the time asleep is being read. */
  events: Pick<CoreBus, 'on'>;
  fetch?: typeof fetch;
  log: (line: string) => void;
}

/** How often sight is judged. */
const TICK_MS = 5_000;
/** A tick this late means the process was suspended (a laptop asleep): as a resume. */
const SUSPENDED_MS = 30_000;
/** Sight must hold this long before the all-clear: the stream's replay and the records' read come in first. */
export const SETTLE_MS = 30_000;

export class SightWatch {
  /** Since when Tidewatch cannot see, or null. */
  private blindSince: number | null = null;
  private raised = false;
  /** Since when it sees again after a raised alarm (the all-clear waits SETTLE_MS). */
  private seeingSince: number | null = null;
  /** The computer woke at this time and the stream has not opened since. */
  private wokeAt: number | null = null;
  private lastTick: number;
  private lastBeat = 0;
  private beatFailing = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: SightDeps) {
    this.now = deps.now ?? Date.now;
    this.lastTick = this.now();
  }

  /** The blind alarm over the monitor's services. */
  static over(s: SightSources): SightWatch {
    const { link, notify, alarms } = s;
    const watch = new SightWatch({
      state: () => ({
        expected: link.mayAsk(),
        marginOpen: s.margin.isOpen(),
        offline: link.offline,
        storeError: s.storeHealth.current(),
        creditsSpent: s.plan.spent(),
        // An alarm no channel can carry is blindness too: the heartbeat stops, so a service outside tells.
        noChannel: notify.reach.noneReaches(),
      }),
      config: () => notify.config(),
      // The store refusing writes is one way to go blind: then the alarm goes out without the outbox.
      blind: (since, reasons, now) => notify.deliverUnstored(alarms.onBlind(since, reasons, now)),
      back: (since, now) => notify.deliverUnstored(alarms.onSight(since, now)),
      fetch: s.fetch,
      log: s.log,
    });
    s.events.on('marginStreamOpened', () => watch.noteStreamOpen());
    return watch;
  }

  start(): this {
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref?.();
    return this;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The OS reports a resume from sleep (Electron's powerMonitor), or a tick came very late. */
  noteResume(at = this.now()): void {
    this.wokeAt = at;
  }

  /** The margin stream opened: a wake's gap is being replayed from the stream's cursor. */
  noteStreamOpen(): void {
    this.wokeAt = null;
  }

  /** Why Tidewatch cannot see now, in words; empty when it sees. */
  reasons(): string[] {
    const s = this.deps.state();
    if (!s.expected) return [];
    const out: string[] = [];
    if (s.offline) out.push('the service cannot be reached');
    else if (!s.marginOpen) out.push('the margin stream is down (reconnecting)');
    if (s.storeError) out.push(`the store refuses writes (${s.storeError})`);
    if (s.creditsSpent) out.push("the plan's credits for this month are used up");
    if (s.noChannel) out.push(s.noChannel);
    if (this.wokeAt !== null) out.push('the computer just woke and the time asleep is not read yet');
    return out;
  }

  /** Whether the blind alarm is out. */
  get isBlind(): boolean {
    return this.raised;
  }

  tick(now = this.now()): void {
    if (now - this.lastTick > SUSPENDED_MS) this.noteResume(now);
    this.lastTick = now;
    const reasons = this.reasons();
    const cfg = this.deps.config();
    if (reasons.length > 0) {
      this.seeingSince = null;
      this.blindSince ??= now;
      if (!this.raised && now - this.blindSince >= cfg.blindAfterMin * 60_000) {
        this.raised = true;
        this.deps.blind(this.blindSince, reasons, now);
      }
      return;
    }
    if (this.raised) {
      this.seeingSince ??= now;
      if (now - this.seeingSince >= SETTLE_MS) {
        this.deps.back(this.blindSince!, now);
        this.raised = false;
        this.blindSince = null;
        this.seeingSince = null;
      }
    } else {
      this.blindSince = null;
    }
    this.heartbeat(cfg, now);
  }

  /** A GET on the heartbeat URL every so often while everything is seen (never while blind). */
  private heartbeat(cfg: ReturnType<SightDeps['config']>, now: number): void {
    if (!cfg.heartbeatUrl || this.raised || now - this.lastBeat < cfg.heartbeatEveryMin * 60_000) return;
    this.lastBeat = now;
    const f = this.deps.fetch ?? fetch;
    f(cfg.heartbeatUrl, { signal: AbortSignal.timeout(10_000) })
      .then((res) => {
        void res.body?.cancel();
        if (!res.ok) throw new Error(`it answered ${res.status}`);
        if (this.beatFailing) this.deps.log('heartbeat: the heartbeat URL answers again');
        this.beatFailing = false;
      })
      .catch((err: unknown) => {
        // Said once per failing streak: the outside service will alert on the missing beats itself.
        if (!this.beatFailing)
          this.deps.log(
            `heartbeat: the heartbeat URL did not take the ping (${err instanceof Error && err.name !== 'TypeError' ? err.message : 'the host cannot be reached'}); trying again each minute`,
          );
        this.beatFailing = true;
      });
  }
}
