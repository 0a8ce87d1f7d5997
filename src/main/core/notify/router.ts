import type { AlertRecord } from '../../../shared/contract';
import type { Enqueue } from '../store/outbox-repo';
import type { AlertRouting } from '../store/risk-alert-repo';
import { carries, type ChannelConfig } from './config';
import type { OutboxWorker } from './outbox-worker';
import { quietHeld, quietUntil } from './quiet-hours';

/** Rules about delivery itself (Tidewatch cannot see; a channel not reached): every channel carries them, whatever its level and rules. */
export const TO_EVERY_CHANNEL: ReadonlySet<AlertRecord['rule']> = new Set<AlertRecord['rule']>(['blind', 'channel']);

/** A position out of danger is told wherever its critical alert went: to each channel that takes those. */
const RECOVERY_AS = { rule: 'risk-threshold', level: 'critical' } as const;

/**
 * Where a new alert goes besides the screen. `RiskAlertRepo.addAlert` asks `route` inside the
 * transaction that stores the alert (alerts/alert-services.ts wires it: `RiskAlertRepo.routeWith`)
 * and queues the rows it answers in the outbox (store/outbox-repo.ts); once that commits with a
 * row queued, `queued` wakes the outbox worker (notify/outbox-worker.ts), which sends them. The
 * notifier routes the escalation's repeats and an alert the store could not keep here too.
 */
export class AlertRouter implements AlertRouting {
  /** The channel a "not reached" alert is about: not queued on it (it would wait behind the rest). */
  private around: string | null = null;

  constructor(
    private readonly channels: () => readonly ChannelConfig[],
    private readonly worker: Pick<OutboxWorker, 'kick'>,
    /** An alert for the Alerts page and the digest only (a watched wallet's, its group's rule info): it goes to no channel. */
    private readonly digestOnly: (a: AlertRecord) => boolean = () => false,
    /** The channels the daily digest goes to, by name (Settings `digestChannels`); empty: every channel. */
    private readonly digestChannels: () => readonly string[] = () => [],
  ) {}

  /**
   * The channels a new alert goes to, and when: the blind alarm and its all-clear, and a channel
   * not reached, to every channel (but that one); others by level and rule; a warning in a
   * channel's quiet hours waits for their end; a watched wallet's position whose group's rule is
   * info, to none (the digest tells it); a position out of danger (`recovered`, level info) to each
   * channel its critical alert went to. The desktop's channel is the shell's.
   */
  route(a: AlertRecord): Enqueue[] {
    const out: Enqueue[] = [];
    if (this.digestOnly(a)) return out;
    if (a.rule === 'digest') return this.digestRoute(a);
    for (const c of this.channels()) {
      if (c.type === 'desktop' || c.name === this.around) continue;
      if (!TO_EVERY_CHANNEL.has(a.rule) && !carries(c, a.rule === 'recovered' ? RECOVERY_AS : a)) continue;
      const until = a.level === 'critical' || a.rule === 'blind' ? null : quietUntil(c.quietHours, a.created_at);
      out.push(
        until === null
          ? { channel: c.name, dueAt: a.created_at }
          : { channel: c.name, dueAt: until, held: quietHeld(c.quietHours!, until) },
      );
    }
    return out;
  }

  /**
   * The daily digest: to the channels it is set to go to (every channel when none is named),
   * whatever their level and rules, at once: its time was the user's choice, quiet hours or not.
   */
  private digestRoute(a: AlertRecord): Enqueue[] {
    const named = new Set(this.digestChannels());
    return this.channels()
      .filter((c) => c.type !== 'desktop' && (named.size === 0 || named.has(c.name)))
      .map((c) => ({ channel: c.name, dueAt: a.created_at }));
  }

  /** Rows were queued and committed: the worker looks for work now. */
  queued(): void {
    this.worker.kick();
  }

  /** Run `write` with `channel` left out of every route (the alert that says it is not reached). */
  routingAround<T>(channel: string, write: () => T): T {
    this.around = channel;
    try {
      return write();
    } finally {
      this.around = null;
    }
  }
}
