import type { AlertRecord } from '../../../shared/contract';
import { backoffDelay, type BackoffPolicy } from '../client/backoff';
import type { OutboxRepo, OutboxRow } from '../store/outbox-repo';
import type { RiskAlertRepo } from '../store/risk-alert-repo';
import { compose, fits, MESSAGE_LIMIT, messageId, type ComposeOptions, type Outgoing } from './compose';
import type { ChannelConfig } from './config';
import type { FailureSpell } from './reach';
import { DeliveryError, type Delivery } from './senders';

/** Where a formed message goes out: the notifier (notify/notifier.ts `Notifier.send` -> senders.ts `sendOn`). */
export interface ChannelSender {
  send(channel: ChannelConfig, delivery: Delivery): Promise<void>;
}

/** The channels the worker sends on and how each writes its message: the notifier's. */
export interface OutboxChannels {
  /** The channels the worker sends on (the desktop's is the shell's). */
  channels(): ChannelConfig[];
  /** How a message on `channel` is written: where its links point, whether amounts are hidden. */
  composeOptions(channel: ChannelConfig): ComposeOptions;
  /** A one-time acknowledge link for a critical alert's message, or null. */
  ackUrl(alert: AlertRecord): string | null;
}

export interface OutboxWorkerDeps {
  outbox: OutboxRepo;
  /** The stored alerts the outbox's rows name. */
  alerts: Pick<RiskAlertRepo, 'alert'>;
  channels: OutboxChannels;
  sender: ChannelSender;
  /** Something was sent or failed: the Alerts page's log changed. */
  onLogged: () => void;
  /** Texts that go into the store or the log pass it (a receiver's words may echo a secret). */
  redact: (text: string) => string;
  log: (line: string) => void;
  now?: () => number;
  /** The backoff's jitter draws, in [0, 1) (a test hands its own); Math.random by default. */
  random?: () => number;
}

/** The least time between two messages on a channel, unless it sets its own: a burst meanwhile becomes one message. */
export const MIN_INTERVAL_MS: Record<ChannelConfig['type'], number> = {
  ntfy: 5_000,
  telegram: 5_000,
  discord: 5_000,
  slack: 5_000,
  email: 30_000,
  webhook: 0,
  desktop: 0,
};
/** Backoff after a failure: 1 s doubling to 10 minutes (±20 %); after a refusal that retrying cannot help, 15 minutes. */
const BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 600_000, jitter: 0.2 };
const PERMANENT_MS = 900_000;
/** The least time between two messages when a critical alert is due. */
const CRITICAL_GAP_MS = 1_000;
/** The most alerts one message carries (the rest go in the next). */
const GROUP_MAX = 20;

/**
 * Sends the outbox, one message at a time per channel: a message formed earlier and not sent
 * (failed, or in flight when the process died) first and as it was, else every alert due on the
 * channel as one message (a webhook gets one per alert). Each channel keeps its own pace: a
 * minimum interval after a send, the receiver's Retry-After after a 429, a doubling backoff after
 * a failure. Nothing is dropped: a row leaves `pending` only when its message was taken. What is
 * due goes `kick` -> `run` -> `take` (bound as one message) -> `deliver`, which forms it
 * (compose.ts `compose`) and sends it through its `ChannelSender`.
 */
export class OutboxWorker {
  private readonly busy = new Set<string>();
  /** Per channel: not before this time (interval, rate limit, backoff). */
  private readonly notBefore = new Map<string, number>();
  /** Per channel: the time a critical alert may go despite the minimum interval (a rate limit or a backoff holds it too). */
  private readonly criticalAfter = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  /** Per channel: its failure spell (since the first failure after its last message went out), or null when it is reached; read from the log when first asked. */
  private readonly spells = new Map<string, FailureSpell | null>();
  private timer: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;
  private closed = false;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: OutboxWorkerDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  /** Look for work now (an alert was queued, a channel changed). */
  kick(): void {
    this.wake(0);
  }

  /**
   * A channel's pace starts afresh (its config changed): a backoff for a wrong token ends with the
   * fix, and what failed on it is tried again now.
   */
  reset(channel?: string): void {
    if (channel === undefined) {
      this.notBefore.clear();
      this.failures.clear();
      this.criticalAfter.clear();
    } else {
      this.notBefore.delete(channel);
      this.failures.delete(channel);
      this.criticalAfter.delete(channel);
    }
    try {
      this.deps.outbox.retryNow(channel, this.now());
    } catch (err) {
      // The store cannot be written: the rows go when their backoff ends, as before the change.
      this.deps.log(
        `alert delivery: failed messages cannot be tried again at once (${this.deps.redact((err as Error).message)})`,
      );
    }
    this.kick();
  }

  /** The channel's failure spell, or null: its last attempt went out (a restart reads it from the log). */
  spellOf(channel: string): FailureSpell | null {
    if (!this.spells.has(channel)) this.spells.set(channel, this.deps.outbox.channelStatus(channel).failing);
    return this.spells.get(channel) ?? null;
  }

  /** Whether every channel is idle (tests; shutdown). */
  get idle(): boolean {
    return this.busy.size === 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private wake(inMs: number): void {
    if (this.closed) return;
    const at = this.now() + Math.max(0, inMs);
    if (this.timer && at >= this.wakeAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.wakeAt = Infinity;
        this.run();
      },
      Math.min(Math.max(0, inMs), 2_147_000_000),
    );
  }

  private run(): void {
    if (this.closed) return;
    const now = this.now();
    let next = Infinity;
    try {
      for (const c of this.deps.channels.channels()) {
        if (c.type === 'desktop' || this.busy.has(c.name)) continue;
        const free = this.notBefore.get(c.name) ?? 0;
        // The minimum interval gathers a burst; a critical alert does not wait it out (1 s apart at most: Telegram's pace per chat).
        const urgent =
          free > now &&
          (this.criticalAfter.get(c.name) ?? Infinity) <= now &&
          this.deps.outbox.hasDueCritical(c.name, now);
        if (free > now && !urgent) {
          // A critical alert queued later kicks the worker itself: the wake at criticalAfter is for one already due.
          const critical = this.criticalAfter.get(c.name) ?? Infinity;
          next = Math.min(next, free, critical > now ? critical : Infinity);
          continue;
        }
        const rows = this.take(c, now);
        if (rows.length > 0) {
          void this.deliver(c, rows);
          continue;
        }
        // Only a channel free to send waits for its own next row: one held by a backoff wakes when that ends, not before.
        const due = this.deps.outbox.nextDueOn(c.name);
        if (due !== null) next = Math.min(next, Math.max(due, now + 250));
      }
    } catch (err) {
      // The store cannot be read (a full or locked disk): nothing is lost, the outbox is read again.
      this.deps.log(
        `alert delivery: the outbox cannot be read (${this.deps.redact((err as Error).message)}); trying again in 30 s`,
      );
      next = now + 30_000;
    }
    if (next < Infinity) this.wake(next - now);
  }

  /** The message a channel sends next: a bound group first, else what is due (bound now, committed before the send). */
  private take(c: ChannelConfig, now: number): OutboxRow[] {
    const open = this.deps.outbox.openGroup(c.name, now);
    if (open.length > 0) return open;
    let rows = this.deps.outbox.ungrouped(c.name, now, c.type === 'webhook' ? 1 : GROUP_MAX);
    if (rows.length === 0) return [];
    // As many as the receiver shows in one message (Discord's 2,000 characters): the rest go next.
    const opts = { ...this.deps.channels.composeOptions(c), limit: MESSAGE_LIMIT[c.type] ?? null };
    const items = rows.map((r) => {
      const alert =
        this.deps.alerts.alert(r.alert_id) ??
        ({ id: r.alert_id, level: 'info', title: '', message: '' } as AlertRecord);
      // A critical alert carries its acknowledge link when sent: room for one is kept.
      return { alert, repeat: r.repeat, ackUrl: alert.level === 'critical' ? 'x'.repeat(100) : null };
    });
    let n = rows.length;
    while (n > 1 && !fits(compose(items.slice(0, n), opts), opts.limit)) n--;
    rows = rows.slice(0, n);
    const id = messageId(items.slice(0, n));
    this.deps.outbox.bind(rows, id);
    return rows.map((r) => ({ ...r, group_id: id }));
  }

  private async deliver(c: ChannelConfig, rows: OutboxRow[]): Promise<void> {
    this.busy.add(c.name);
    const started = this.now();
    try {
      const items: Outgoing[] = [];
      for (const r of rows) {
        const alert = this.deps.alerts.alert(r.alert_id);
        if (alert)
          items.push({
            alert,
            repeat: r.repeat,
            ackUrl:
              alert.level === 'critical' && alert.acknowledged_at === null ? this.deps.channels.ackUrl(alert) : null,
          });
      }
      if (items.length > 0) {
        const d = compose(items, { ...this.deps.channels.composeOptions(c), limit: MESSAGE_LIMIT[c.type] ?? null });
        d.id = rows[0]!.group_id ?? d.id;
        d.payload.id = d.id;
        await this.deps.sender.send(c, d);
      }
      const now = this.now();
      this.deps.outbox.sent(rows, now, `${now - started} ms`);
      this.failures.delete(c.name);
      this.spells.set(c.name, null);
      const interval = c.minIntervalSec !== undefined ? c.minIntervalSec * 1000 : MIN_INTERVAL_MS[c.type];
      this.notBefore.set(c.name, now + interval);
      this.criticalAfter.set(c.name, now + Math.min(interval, CRITICAL_GAP_MS));
    } catch (err) {
      const now = this.now();
      const n = (this.failures.get(c.name) ?? 0) + 1;
      this.failures.set(c.name, n);
      const e = err instanceof DeliveryError ? err : new DeliveryError(`${c.name}: ${(err as Error).message}`);
      const delay =
        e.retryAfterMs !== null
          ? Math.max(1_000, e.retryAfterMs)
          : e.permanent
            ? PERMANENT_MS
            : backoffDelay(BACKOFF, n - 1, this.random);
      const message = this.deps.redact(e.message);
      this.notBefore.set(c.name, now + delay);
      this.criticalAfter.delete(c.name);
      this.spells.set(c.name, { since: this.spellOf(c.name)?.since ?? now, at: now, detail: message });
      try {
        this.deps.outbox.failed(rows, now, message, now + delay);
      } catch (storeErr) {
        this.deps.log(
          `alert delivery: a failure could not be noted (${this.deps.redact((storeErr as Error).message)})`,
        );
      }
      this.deps.log(`alert delivery: ${message} (attempt ${n}; next in ${Math.round(delay / 1000)} s)`);
    } finally {
      this.busy.delete(c.name);
      this.deps.onLogged();
      this.kick();
    }
  }
}
