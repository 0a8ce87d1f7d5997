import { randomBytes } from 'node:crypto';
import type {
  AlertRecord,
  ChannelStatus,
  DeliveryEntry,
  NotifyChannelView,
  NotifyTestResult,
  NotifyView,
  UnreachedChannel,
} from '../../../shared/contract';
import { clockText, CORE_LOCALE } from '../../../shared/format';
import type { CoreBus } from '../events';
import type { SecretStore } from '../settings';
import type { RiskAlertRepo } from '../store/risk-alert-repo';
import type { Enqueue } from '../store/outbox-repo';
import { carries, parseNotifyConfig, secretFieldsOf, type ChannelConfig, type NotifyConfig } from './config';
import { OutboxWorker, type ChannelSender, type OutboxChannels } from './outbox-worker';
import { quietHeld, quietUntil, quietZone } from './quiet-hours';
import { ChannelReach, channelWords } from './reach';
import { AlertRouter, TO_EVERY_CHANNEL } from './router';
import { sendOn, type Delivery } from './senders';
import { testChannels } from './channel-test';
import { compose, type ComposeOptions } from './compose';

export interface NotifierDeps {
  repo: RiskAlertRepo;
  /** The channels set in Settings, as one config document with their secrets (kept like the api-key). */
  stored: SecretStore;
  /** `serve --notify-config FILE`: its channels and options, for this run (never written). */
  file?: { path: string; config: NotifyConfig; secrets: string[] } | null;
  /** Privacy mode: amounts masked on every channel. */
  privacy: () => boolean;
  /** An alert for the Alerts page and the digest only (a watched wallet's, its group's rule info): no channel carries it. */
  digestOnly?: (a: AlertRecord) => boolean;
  /** The channels the daily digest goes to, by name (Settings); empty: every channel. */
  digestChannels?: () => readonly string[];
  /** Where a link in a message points when the config names none (serve's own address), or null. */
  publicUrl: () => string | null;
  /**
   * Where it publishes an alert changed (`alertsUpdated`: acknowledged by a link, a delivery
   * logged; the Alerts page reads again) and a change of the channels not reached (`reachChanged`).
   */
  events: Pick<CoreBus, 'emit'>;
  fetch?: typeof fetch;
  log: (line: string) => void;
  redact: (text: string) => string;
  now?: () => number;
}

/** The local clock with its zone, "12:55 PM EST", for a delivery's words and the log (as the blind alarm's). */
const clock = (ms: number): string => clockText(ms, CORE_LOCALE);

/** The alert that a channel is not reached, in words: its title and message. */
export function unreachedWords(u: UnreachedChannel, now: number): { title: string; message: string } {
  const mins = Math.max(1, Math.floor((now - u.since) / 60_000));
  return {
    title: `Alerts are not reaching ${u.words}`,
    message:
      // No clock time: the page that shows it may be in another zone than this machine.
      `Nothing has reached ${u.words} for ${mins} min: ${u.reason.replace(/\.?$/, '.')} ` +
      `${u.waiting} alert${u.waiting === 1 ? '' : 's'} wait for it; Tidewatch keeps trying. ` +
      'Check the channel in Settings → Alert channels ("Send a test").',
  };
}

/** Rules whose critical alerts repeat until acknowledged. */
const ESCALATED = new Set<AlertRecord['rule']>(['liquidation', 'risk-threshold']);

const EMPTY: NotifyConfig = {
  channels: [],
  escalateEveryMin: 5,
  blindAfterMin: 3,
  heartbeatUrl: null,
  heartbeatEveryMin: 1,
  linkBase: null,
};

/**
 * Alerts away from the desk: which channels carry an alert (level, rules, quiet hours: the
 * router, notify/router.ts, which the alert repository asks for every alert it stores once
 * alerts/alert-services.ts wires it: `RiskAlertRepo.routeWith`), the
 * outbox worker that sends them, the escalation that repeats a critical alert until it is
 * acknowledged (in the app, on the page, or by the one-time link in the message), and the
 * channels' configuration from the command line's file and from Settings.
 */
export class Notifier implements ChannelSender, OutboxChannels {
  readonly worker: OutboxWorker;
  /** Which channels carry a new alert: asked in the transaction that stores it. */
  readonly router: AlertRouter;
  /** Whether each channel reaches the trader: the status, the banner, the blind alarm. */
  readonly reach: ChannelReach;
  private storedDoc: { config: NotifyConfig; secrets: string[] };
  private escalation: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly deps: NotifierDeps) {
    this.now = deps.now ?? Date.now;
    this.storedDoc = this.readStored();
    this.worker = new OutboxWorker({
      outbox: deps.repo.outbox,
      alerts: deps.repo,
      channels: this,
      sender: this,
      onLogged: () => this.alertsUpdated([]),
      redact: (t) => deps.redact(t),
      log: (line) => deps.log(line),
      now: this.now,
    });
    this.router = new AlertRouter(() => this.channels(), this.worker, deps.digestOnly, deps.digestChannels);
    this.reach = new ChannelReach({
      channels: () => this.channels(),
      facts: (name) => ({ failing: this.worker.spellOf(name), ...deps.repo.outbox.waitingOn(name) }),
      onUnreached: (u, now) => this.sayUnreached(u, now),
      reroute: (from, to, u, now) => this.reroute(from, to, u, now),
      onChange: () => {
        deps.events.emit('reachChanged', { unreached: this.reach.unreached });
        this.alertsUpdated([]);
      },
      log: (line) => deps.log(deps.redact(line)),
      now: this.now,
    });
  }

  /** Alerts changed after they were raised (`[]`: the page reads them again). */
  private alertsUpdated(alerts: AlertRecord[]): void {
    this.deps.events.emit('alertsUpdated', { alerts });
  }

  start(): this {
    this.worker.kick();
    this.scheduleEscalation();
    this.reach.start();
    return this;
  }

  close(): void {
    this.closed = true;
    this.worker.close();
    this.reach.close();
    if (this.escalation) clearTimeout(this.escalation);
  }

  /** The escalation looks every 15 s, or twice per interval when that is shorter. */
  private scheduleEscalation(): void {
    if (this.closed) return;
    const every = this.config().escalateEveryMin * 60_000;
    this.escalation = setTimeout(
      () => {
        this.escalate();
        this.scheduleEscalation();
      },
      every > 0 ? Math.min(15_000, every / 2) : 15_000,
    );
    this.escalation.unref?.();
  }

  private readStored(): { config: NotifyConfig; secrets: string[] } {
    const text = this.deps.stored.get();
    if (!text) return { config: EMPTY, secrets: [] };
    try {
      return parseNotifyConfig(text, {}, 'the channels saved in Settings', this.deps.file?.config.channels);
    } catch (err) {
      this.deps.log(`alert channels: ${(err as Error).message}; they are left out until saved again`);
      return { config: EMPTY, secrets: [] };
    }
  }

  /** The options in force: the file's when one was given, else those saved in Settings. */
  config(): NotifyConfig {
    const file = this.deps.file?.config;
    const base = file ?? this.storedDoc.config;
    return { ...base, channels: [...(file?.channels ?? []), ...this.storedDoc.config.channels] };
  }

  channels(): ChannelConfig[] {
    return this.config().channels;
  }

  /** Every secret of every channel, for the one redaction. */
  secrets(): string[] {
    return [...(this.deps.file?.secrets ?? []), ...this.storedDoc.secrets];
  }

  private linkBase(): string | null {
    return this.config().linkBase ?? this.deps.publicUrl();
  }

  /** The desktop notification's channel: the configured one, else warnings and above of the rules it always showed. */
  desktopCarries(a: AlertRecord, now = this.now()): boolean {
    if (this.deps.digestOnly?.(a)) return false;
    const desktop = this.channels().filter((c) => c.type === 'desktop');
    if (desktop.length === 0)
      return a.level !== 'info' && !TO_EVERY_CHANNEL.has(a.rule)
        ? ['liquidation', 'risk-threshold', 'stream-auth', 'large-liquidation'].includes(a.rule)
        : TO_EVERY_CHANNEL.has(a.rule);
    return desktop.some(
      (c) =>
        (TO_EVERY_CHANNEL.has(a.rule) || carries(c, a)) &&
        (a.level === 'critical' || quietUntil(c.quietHours, now) === null),
    );
  }

  /**
   * A channel's spell passed a minute: one alert says so (a desktop or browser notification, the
   * other channels), once per spell; its `since` names the spell, so a restart does not say it again.
   */
  private sayUnreached(u: UnreachedChannel, now: number): void {
    const a = this.router.routingAround(u.channel, () =>
      this.deps.repo.addAlert({
        dedupe_key: `channel:${u.channel}:warning:${u.since}`,
        rule: 'channel',
        level: 'warning',
        manager_id: null,
        owner: null,
        event_id: null,
        ...unreachedWords(u, now),
        created_at: now,
      }),
    );
    this.deps.log(`alert delivery: ${u.words} not reached since ${clock(u.since)}: ${u.short}`);
    if (a) this.alertsUpdated([a]);
  }

  /**
   * A channel not reached past its fallback's time: every alert waiting on it goes to the fallback
   * too, once (a warning waits out the fallback's quiet hours; its level and rules do not apply:
   * the user chose it to carry this channel's alerts). The failing channel keeps trying its own.
   */
  private reroute(from: ChannelConfig, to: ChannelConfig, u: UnreachedChannel, now: number): void {
    const waiting = this.deps.repo.outbox.waitingWithout(from.name, to.name);
    if (waiting.length === 0) return;
    const items = waiting.map((w) => {
      const until = w.level === 'critical' ? null : quietUntil(to.quietHours, now);
      return until === null
        ? { alertId: w.alert_id, dueAt: now }
        : { alertId: w.alert_id, dueAt: until, held: quietHeld(to.quietHours!, until) };
    });
    const mins = Math.max(1, Math.floor((now - u.since) / 60_000));
    const n = this.deps.repo.outbox.reroute(from.name, to.name, items, now, {
      from: `not reached for ${mins} min: sent to ${channelWords(to)} instead`,
      to: `instead of ${u.words}, not reached for ${mins} min`,
    });
    if (n === 0) return;
    this.deps.log(
      `alert delivery: ${u.words} not reached for ${mins} min; ${n} alert${n === 1 ? '' : 's'} sent to ${channelWords(to)} instead`,
    );
    this.worker.kick();
    this.alertsUpdated([]);
  }

  /** The delivery log of these alerts, a row still waiting on a channel not reached said as not delivered. */
  deliveryLog(alertIds: readonly number[], now = this.now()): Map<number, DeliveryEntry[]> {
    const unreached = new Map(
      this.reach.unreached.map((u) => [
        u.channel,
        `not reached for ${Math.max(1, Math.floor((now - u.since) / 60_000))} min: ${u.short}`,
      ]),
    );
    return this.deps.repo.outbox.log(alertIds, unreached, now);
  }

  /** Send a formed message on a channel (senders.ts `sendOn`: ntfy, Telegram, ..., a webhook). */
  send(c: ChannelConfig, d: Delivery): Promise<void> {
    return sendOn(c, d, this.deps.fetch ?? fetch);
  }

  /** How a message on `c` is written: links to the configured base, amounts hidden on that channel or in privacy mode. */
  composeOptions(c: ChannelConfig): ComposeOptions {
    return { linkBase: this.linkBase(), hideAmounts: c.hideAmounts || this.deps.privacy() };
  }

  /**
   * An alert that could not be stored (id 0: the store refuses writes, which is itself a way to go
   * blind) goes straight to its channels, once, without the outbox; a stored one is the outbox's.
   */
  deliverUnstored(a: AlertRecord | undefined): void {
    if (!a || a.id !== 0) return;
    for (const e of this.router.route(a)) {
      const c = this.channels().find((x) => x.name === e.channel);
      if (!c) continue;
      const d = compose([{ alert: a, repeat: 0, ackUrl: null }], this.composeOptions(c));
      d.id = `tidewatch-unstored-${a.rule}-${a.level}-${a.created_at}`;
      d.payload.id = d.id;
      this.send(c, d).catch((err: unknown) =>
        this.deps.log(
          `alert delivery: ${this.deps.redact((err as Error).message)} (an alert the store could not keep: not retried)`,
        ),
      );
    }
  }

  /** A one-time link that acknowledges the alert, when messages can link anywhere. */
  ackUrl(a: AlertRecord): string | null {
    const base = this.linkBase();
    if (!base || !ESCALATED.has(a.rule)) return null;
    const token = randomBytes(18).toString('base64url');
    this.deps.repo.outbox.addAckToken(token, a.id, this.now());
    return `${base.replace(/\/+$/, '')}/ack/${token}`;
  }

  /** The alert a link's token names, without spending it (the page that asks to confirm). */
  alertOfToken(token: string): AlertRecord | undefined {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return undefined;
    const id = this.deps.repo.outbox.peekAckToken(token);
    return id === undefined ? undefined : this.deps.repo.alert(id);
  }

  /** The link's token was used: the alert is acknowledged (once); undefined when the token is unknown or spent. */
  acknowledgeByToken(token: string): AlertRecord | undefined {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return undefined;
    const id = this.deps.repo.outbox.spendAckToken(token);
    if (id === undefined) return undefined;
    const a = this.deps.repo.acknowledge(id, this.now());
    if (a) this.alertsUpdated([a]);
    return a;
  }

  /**
   * Critical alerts not acknowledged (nor snoozed) go again every `escalateEveryMin` on each
   * channel that carries them, once that channel's last send went out (a channel that fails holds
   * its own repeats only, never the others'); only the newest of a manager repeats (a liquidation
   * supersedes the critical crossing before it), and not once it is acknowledged or snoozed, nor
   * once the position is out of danger.
   */
  escalate(now = this.now()): number {
    const every = this.config().escalateEveryMin * 60_000;
    if (every <= 0) return 0;
    try {
      // The newest critical of each manager, acknowledged or snoozed ones too: acknowledging a
      // liquidation (or snoozing the newest crossing) answers the older crossings before it, and
      // the position out of danger since (`recovered`) answers them all.
      const critical = this.deps.repo
        .alerts(true, 2000)
        .filter(
          (a) =>
            ((a.level === 'critical' && ESCALATED.has(a.rule)) || a.rule === 'recovered') &&
            now - a.created_at < 7 * 86_400_000,
        );
      const newest = new Map<string, AlertRecord>();
      for (const a of critical) if (!newest.has(a.manager_id ?? `#${a.id}`)) newest.set(a.manager_id ?? `#${a.id}`, a);
      const open = [...newest.values()].filter(
        (a) =>
          a.rule !== 'recovered' && a.acknowledged_at === null && (a.snoozed_until === null || a.snoozed_until <= now),
      );
      const repeats: Array<{ alertId: number; repeat: number; to: Enqueue[] }> = [];
      for (const a of open) {
        const rows = this.deps.repo.outbox.rowsOf(a.id);
        for (const e of this.router.route(a)) {
          const mine = rows.filter((r) => r.channel === e.channel);
          if (mine.length === 0 || mine.some((r) => r.state === 'pending')) continue;
          const last = mine.reduce((x, r) => (r.repeat > x.repeat ? r : x));
          if (last.state !== 'sent' || now - (last.sent_at ?? now) < every) continue;
          repeats.push({ alertId: a.id, repeat: last.repeat + 1, to: [{ channel: e.channel, dueAt: now }] });
        }
      }
      if (repeats.length > 0) {
        this.deps.repo.outbox.enqueueRepeats(repeats, now);
        this.worker.kick();
      }
      return repeats.length;
    } catch (err) {
      this.deps.log(
        `alert escalation: the store cannot be read (${this.deps.redact((err as Error).message)}); trying again`,
      );
      return 0;
    }
  }

  // ---- Settings ----------------------------------------------------------------------

  view(): NotifyView {
    const c = this.config();
    const fileNames = new Set(this.deps.file?.config.channels.map((x) => x.name) ?? []);
    return {
      channels: c.channels.map((ch) =>
        channelView(ch, fileNames.has(ch.name) ? 'file' : 'settings', this.deps.repo.outbox.channelStatus(ch.name)),
      ),
      escalateEveryMin: c.escalateEveryMin,
      blindAfterMin: c.blindAfterMin,
      heartbeatSet: c.heartbeatUrl !== null,
      heartbeatEveryMin: c.heartbeatEveryMin,
      linkBase: c.linkBase,
      file: this.deps.file ? this.deps.file.path.split(/[\\/]/).pop()! : null,
      pending: this.deps.repo.outbox.pendingCount(),
    };
  }

  /** Save a channel in Settings (a secret left out keeps its saved value); returns the view. */
  saveChannel(input: Record<string, unknown>, replaces?: string): NotifyView {
    const stored = this.storedRaw();
    const name = typeof input['name'] === 'string' && input['name'] ? input['name'] : undefined;
    const previous = stored.channels.find((x) => x['name'] === (replaces ?? name));
    if (name && this.deps.file?.config.channels.some((x) => x.name === name))
      throw new RangeError(`a channel named "${name}" comes from the notify config file; choose another name`);
    const merged: Record<string, unknown> = { ...input };
    if (previous && previous['type'] === input['type']) {
      for (const field of secretFieldsOf(String(input['type']))) {
        if (get(merged, field) === undefined || get(merged, field) === '') set(merged, field, get(previous, field));
      }
    }
    const channels = stored.channels.filter((x) => x !== previous);
    channels.push(merged);
    this.saveStored({ ...stored, channels });
    this.worker.reset(replaces ?? name);
    return this.view();
  }

  removeChannel(name: string): NotifyView {
    const stored = this.storedRaw();
    if (!stored.channels.some((x) => x['name'] === name))
      throw new RangeError(`no channel named "${name}" is saved in Settings`);
    const leaning = this.channels().filter((c) => c.fallback?.channel === name);
    if (leaning.length > 0)
      throw new RangeError(
        `"${name}" is the fallback of ${leaning.map((c) => `"${c.name}"`).join(', ')}: choose another fallback there first`,
      );
    this.saveStored({ ...stored, channels: stored.channels.filter((x) => x['name'] !== name) });
    this.deps.repo.outbox.dropChannelsExcept(
      this.channels().map((c) => c.name),
      this.now(),
    );
    return this.view();
  }

  updateOptions(
    patch: Partial<
      Pick<NotifyConfig, 'escalateEveryMin' | 'blindAfterMin' | 'heartbeatUrl' | 'heartbeatEveryMin' | 'linkBase'>
    >,
  ): NotifyView {
    const stored = this.storedRaw();
    this.saveStored({ ...stored, ...patch });
    return this.view();
  }

  /** What is saved, with names filled in (so a secret can be kept by name). */
  private storedRaw(): Record<string, unknown> & { channels: Array<Record<string, unknown>> } {
    const text = this.deps.stored.get();
    const raw = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const named = this.storedDoc.config.channels;
    const channels = (Array.isArray(raw['channels']) ? (raw['channels'] as Array<Record<string, unknown>>) : []).map(
      (c, i) => ({ ...c, name: c['name'] ?? named[i]?.name }),
    );
    return { ...raw, channels };
  }

  /** Validate the whole document, then keep it (a bad one throws and nothing changes). */
  private saveStored(doc: Record<string, unknown>): void {
    const text = JSON.stringify(doc);
    const parsed = parseNotifyConfig(text, {}, 'the channel', this.deps.file?.config.channels);
    const names = new Set(this.deps.file?.config.channels.map((c) => c.name) ?? []);
    const clash = parsed.config.channels.find((c) => names.has(c.name));
    if (clash)
      throw new RangeError(`a channel named "${clash.name}" comes from the notify config file; choose another name`);
    this.deps.stored.set(text);
    this.storedDoc = parsed;
  }

  /** A test message on every channel, or on one by name (notify/channel-test.ts). */
  async test(name?: string): Promise<NotifyTestResult[]> {
    const targets = this.channels().filter((c) => c.type !== 'desktop' && (name === undefined || c.name === name));
    if (name !== undefined && targets.length === 0) throw new RangeError(`no channel is named "${name}"`);
    return testChannels(
      targets,
      (c, d) => this.send(c, d),
      (t) => this.deps.redact(t),
      this.now,
    );
  }
}

const get = (o: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (x, k) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined),
      o,
    );

function set(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let x = o;
  for (const k of keys.slice(0, -1)) {
    x[k] = { ...((x[k] as Record<string, unknown> | undefined) ?? {}) };
    x = x[k] as Record<string, unknown>;
  }
  if (value !== undefined) x[keys.at(-1)!] = value;
}

/** A channel as Settings shows it: its fields, and of each secret only whether it is set. */
function channelView(c: ChannelConfig, source: 'file' | 'settings', status: ChannelStatus): NotifyChannelView {
  const secretFields = secretFieldsOf(c.type);
  const fields: Record<string, string | number | boolean | string[] | null> = {};
  const walk = (o: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(o)) {
      const path = `${prefix}${k}`;
      if (
        ['type', 'name', 'minLevel', 'rules', 'quietHours', 'hideAmounts', 'minIntervalSec', 'fallback'].includes(
          path,
        ) ||
        secretFields.includes(path)
      )
        continue;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${path}.`);
      else fields[path] = v as string | number | boolean | string[] | null;
    }
  };
  walk(c as unknown as Record<string, unknown>, '');
  return {
    name: c.name,
    type: c.type,
    source,
    minLevel: c.minLevel,
    rules: c.rules ?? null,
    // Named with the zone they are applied on, so the page shows them on that clock.
    quietHours: c.quietHours ? { from: c.quietHours.from, to: c.quietHours.to, zone: quietZone(c.quietHours) } : null,
    hideAmounts: c.hideAmounts,
    minIntervalSec: c.minIntervalSec ?? null,
    fallback: c.fallback ? { channel: c.fallback.channel, afterMin: c.fallback.afterMin } : null,
    fields,
    secrets: Object.fromEntries(
      secretFields.map((f) => [f, typeof get(c as unknown as Record<string, unknown>, f) === 'string']),
    ),
    status,
  };
}
