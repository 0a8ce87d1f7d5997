import type { UnreachedChannel } from '../../../shared/contract';
import { NO_CHANNEL } from '../../../shared/status';
import type { ChannelConfig } from './config';

/**
 * Whether each alert channel reaches the trader (docs/notify.md#a-failing-channel). A channel is
 * in a failure spell from its first failed attempt after its last message went out, or from when
 * a critical alert began to wait on it without being tried; a spell past a minute makes it
 * "not reached": the status, the banner and the tray say so, one alert says so once per spell,
 * its fallback (if set) takes its waiting alerts after its own time, and when no channel is
 * reached the blind alarm counts it.
 */

/** A spell this long makes a channel "not reached". */
export const UNREACHED_AFTER_MS = 60_000;
/** How often the channels are judged. */
export const REACH_TICK_MS = 5_000;

/** A channel's failures since its last message went out. */
export interface FailureSpell {
  /** The first failure after the last message that went out. */
  since: number;
  /** The latest failure, and its reason in words. */
  at: number;
  detail: string;
}

/** What is known of a channel now: its failure spell, and what waits on it. */
export interface ChannelFacts {
  failing: FailureSpell | null;
  waiting: number;
  /** Since when the oldest critical alert never tried on it has been due, or null. */
  criticalSince: number | null;
}

const KIND_WORDS: Readonly<Record<ChannelConfig['type'], string>> = {
  ntfy: 'ntfy',
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
  email: 'e-mail',
  webhook: 'the webhook',
  desktop: 'desktop notifications',
};

/** A channel's name and kind in words: "phone (ntfy)"; the kind alone when the name is the kind's ("ntfy", "e-mail"). */
export function channelWords(c: Pick<ChannelConfig, 'name' | 'type'>): string {
  const kind = KIND_WORDS[c.type];
  return c.name === c.type || c.name.toLowerCase() === kind.toLowerCase()
    ? kind
    : `${c.name} (${kind.replace(/^the /, '')})`;
}

/**
 * A failure's reason in a few words for the status bar: "connection refused" from "ntfy (phone)
 * could not be reached: connection refused (nothing listens at that address); it is tried again."
 */
export function shortReason(detail: string): string {
  let s = detail
    .replace(/;? ?it is (?:tried|sent) again[^.]*\.?\s*$/, '')
    .replace(/\.\s*$/, '')
    .trim();
  const reached = /could not be reached: ([^(;]+)/.exec(s);
  if (reached) return reached[1]!.trim();
  // Without the channel that names itself first ("ntfy (phone) ", "e-mail (mail): ").
  s = s.replace(/^[^()]{0,40}\([^)]*\):? /, '').split(/\. /)[0]!;
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/** The channel's spell if it is past a minute (and something waits on it), else null. */
export function unreachedOf(
  c: ChannelConfig,
  f: ChannelFacts,
  now: number,
  fallback?: ChannelConfig,
): UnreachedChannel | null {
  if (f.waiting === 0) return null;
  const since = Math.min(f.failing?.since ?? Infinity, f.criticalSince ?? Infinity);
  if (!(now - since >= UNREACHED_AFTER_MS)) return null;
  const reason =
    f.failing?.detail ??
    `a critical alert has waited ${Math.floor((now - since) / 60_000)} min on it and was not sent (the channel did not answer)`;
  return {
    channel: c.name,
    words: channelWords(c),
    since,
    reason,
    short: f.failing ? shortReason(f.failing.detail) : 'a critical alert waits',
    waiting: f.waiting,
    fallback:
      c.fallback && fallback
        ? { channel: fallback.name, words: channelWords(fallback), at: since + c.fallback.afterMin * 60_000 }
        : null,
  };
}

export interface ChannelReachDeps {
  /** The channels alerts are sent on (the desktop's is the shell's: never judged here). */
  channels: () => ChannelConfig[];
  facts: (channel: string) => ChannelFacts;
  /** A channel's spell passed a minute: say so, once per spell (`since` names the spell). */
  onUnreached: (u: UnreachedChannel, now: number) => void;
  /** A spell passed its fallback's time: the waiting alerts go there too (once each: one row per alert and channel). */
  reroute: (from: ChannelConfig, to: ChannelConfig, u: UnreachedChannel, now: number) => void;
  /** Which channels are not reached changed (the status push). */
  onChange: () => void;
  log: (line: string) => void;
  now?: () => number;
}

/** Judges every channel each tick (5 s), keeps what it found for the status and the blind alarm. */
export class ChannelReach {
  private current: UnreachedChannel[] = [];
  /** Per channel not reached: the spell already said (its `since`). */
  private readonly said = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: ChannelReachDeps) {
    this.now = deps.now ?? Date.now;
  }

  start(): this {
    this.timer = setInterval(() => this.tick(), REACH_TICK_MS);
    this.timer.unref?.();
    return this;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The channels not reached as of the last tick. */
  get unreached(): readonly UnreachedChannel[] {
    return this.current;
  }

  /**
   * Why no channel reaches the trader, in words, when every channel alerts go to is not reached
   * (and there is at least one); else null. The blind alarm counts it.
   */
  noneReaches(): string | null {
    const channels = this.deps.channels().filter((c) => c.type !== 'desktop');
    if (channels.length === 0 || this.current.length < channels.length) return null;
    if (!channels.every((c) => this.current.some((u) => u.channel === c.name))) return null;
    return `${NO_CHANNEL} (${this.current.map((u) => `${u.words}: ${u.short}`).join('; ')})`;
  }

  tick(now = this.now()): readonly UnreachedChannel[] {
    let next: UnreachedChannel[] = [];
    try {
      const channels = this.deps.channels().filter((x) => x.type !== 'desktop');
      for (const c of channels) {
        const fb = c.fallback ? channels.find((x) => x.name === c.fallback!.channel) : undefined;
        const u = unreachedOf(c, this.deps.facts(c.name), now, fb);
        if (!u) continue;
        next.push(u);
        if (this.said.get(c.name) !== u.since) {
          this.said.set(c.name, u.since);
          this.deps.onUnreached(u, now);
        }
        // Every tick past its time: alerts queued on it since go too, each once.
        if (fb && u.fallback && now >= u.fallback.at) this.deps.reroute(c, fb, u, now);
      }
    } catch (err) {
      // The store cannot be read: what was known stands until it can.
      this.deps.log(`alert channels: their state cannot be read (${(err as Error).message}); trying again`);
      next = this.current;
    }
    for (const name of this.said.keys()) if (!next.some((u) => u.channel === name)) this.said.delete(name);
    const key = (l: readonly UnreachedChannel[]): string =>
      JSON.stringify(l.map((u) => [u.channel, u.since, u.short, u.waiting, u.fallback?.at]));
    const changed = key(next) !== key(this.current);
    this.current = next;
    if (changed) this.deps.onChange();
    return next;
  }
}
