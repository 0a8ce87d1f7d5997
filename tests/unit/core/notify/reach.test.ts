import { describe, expect, it } from 'vitest';
import type { UnreachedChannel } from '../../../../src/shared/contract';
import { parseNotifyConfig, type ChannelConfig } from '../../../../src/main/core/notify/config';
import {
  ChannelReach,
  channelWords,
  shortReason,
  UNREACHED_AFTER_MS,
  type ChannelFacts,
} from '../../../../src/main/core/notify/reach';

const REFUSED =
  'ntfy (phone) could not be reached: connection refused (nothing listens at that address); it is tried again.';

function channels(doc: unknown[]): ChannelConfig[] {
  return parseNotifyConfig(JSON.stringify({ channels: doc }), {}).config.channels;
}

/** A watch over channels whose facts the test sets, on a clock the test moves. */
function reachOf(list: ChannelConfig[]) {
  let now = Date.UTC(2026, 10, 25, 12, 55);
  const facts = new Map<string, ChannelFacts>(
    list.map((c) => [c.name, { failing: null, waiting: 0, criticalSince: null }]),
  );
  const said: UnreachedChannel[] = [];
  const rerouted: Array<{ from: string; to: string; at: number }> = [];
  let changes = 0;
  const reach = new ChannelReach({
    channels: () => list,
    facts: (name) => facts.get(name)!,
    onUnreached: (u) => said.push(u),
    reroute: (from, to, _u, at) => rerouted.push({ from: from.name, to: to.name, at }),
    onChange: () => changes++,
    log: () => {},
    now: () => now,
  });
  return {
    reach,
    facts,
    said,
    rerouted,
    changes: () => changes,
    at: () => now,
    step: (ms: number) => reach.tick((now += ms)),
  };
}

describe('a channel not reached', () => {
  it('names a channel in words: its name and kind, or the kind alone', () => {
    const [ntfy, phone, mail, hook] = channels([
      { type: 'ntfy', url: 'https://ntfy.sh/y' },
      { type: 'ntfy', name: 'phone', url: 'https://ntfy.sh/x' },
      { type: 'email', smtp: { host: 'smtp.example.org' }, from: 'a@example.org', to: 'b@example.org' },
      { type: 'webhook', name: 'ops', url: 'https://example.org/h' },
    ]);
    expect([phone, ntfy, mail, hook].map((c) => channelWords(c!))).toEqual([
      'phone (ntfy)',
      'ntfy',
      'e-mail',
      'ops (webhook)',
    ]);
  });

  it('says why in a few words for the status bar', () => {
    expect(shortReason(REFUSED)).toBe('connection refused');
    expect(shortReason('ntfy (phone) asked to slow down (429); it is sent again when it allows.')).toBe(
      'asked to slow down (429)',
    );
    expect(
      shortReason(
        'Telegram (tg) refused the message: chat not found (400). Check the bot token and the chat id, and that the bot may write to the chat.',
      ),
    ).toBe('refused the message: chat not found (400)');
    expect(shortReason('e-mail (email): the SMTP server refused the login (535): check the user and password.')).toBe(
      'the SMTP server refused the login (535): check the user and password',
    );
  });

  it('is flagged when its failures have lasted a minute, said once per spell, and cleared when a message goes out', () => {
    const { facts, said, step, at, changes } = reachOf(
      channels([{ type: 'ntfy', name: 'phone', url: 'https://x.y/t' }]),
    );
    const start = at();
    facts.set('phone', { failing: { since: start, at: start, detail: REFUSED }, waiting: 3, criticalSince: null });
    expect(step(UNREACHED_AFTER_MS - 1_000)).toEqual([]);
    expect(said).toEqual([]);
    const [u] = step(1_000);
    expect(u).toEqual({
      channel: 'phone',
      words: 'phone (ntfy)',
      since: start,
      reason: REFUSED,
      short: 'connection refused',
      waiting: 3,
      fallback: null,
    });
    expect(said).toHaveLength(1);
    expect(changes()).toBe(1);
    // Still failing, more alerts waiting: the same spell, said once.
    for (let i = 0; i < 100; i++) {
      facts.get('phone')!.failing!.at = at();
      facts.get('phone')!.waiting = 3 + i;
      step(5_000);
    }
    expect(said).toHaveLength(1);
    // A message went out: the spell is over.
    facts.set('phone', { failing: null, waiting: 0, criticalSince: null });
    expect(step(5_000)).toEqual([]);
    // It fails again: a new spell, said again once it is a minute old.
    const again = at();
    facts.set('phone', { failing: { since: again, at: again, detail: REFUSED }, waiting: 1, criticalSince: null });
    step(30_000);
    expect(said).toHaveLength(1);
    step(30_000);
    expect(said.map((s) => s.since)).toEqual([start, again]);
  });

  it('is flagged when a critical alert has waited a minute on it untried, and not for a failure with nothing waiting', () => {
    const { facts, said, step, at } = reachOf(
      channels([
        { type: 'ntfy', name: 'phone', url: 'https://x.y/t' },
        { type: 'webhook', url: 'https://x.y/h' },
      ]),
    );
    facts.set('phone', { failing: null, waiting: 1, criticalSince: at() });
    facts.set('webhook', {
      failing: { since: at(), at: at(), detail: 'the webhook (webhook) failed (503); it is tried again.' },
      waiting: 0,
      criticalSince: null,
    });
    step(59_999);
    expect(said).toEqual([]);
    const list = step(1);
    expect(list.map((u) => [u.channel, u.short])).toEqual([['phone', 'a critical alert waits']]);
    expect(list[0]!.reason).toMatch(/^a critical alert has waited 1 min on it/);
  });

  it('counts "no channel reaches you" only when every channel alerts go to is not reached', () => {
    const { reach, facts, step, at } = reachOf(
      channels([
        { type: 'ntfy', name: 'phone', url: 'https://x.y/t' },
        { type: 'email', smtp: { host: 'smtp.example.org' }, from: 'a@example.org', to: 'b@example.org' },
        { type: 'desktop' },
      ]),
    );
    facts.set('phone', { failing: { since: at(), at: at(), detail: REFUSED }, waiting: 2, criticalSince: null });
    step(UNREACHED_AFTER_MS);
    expect(reach.unreached).toHaveLength(1);
    expect(reach.noneReaches()).toBeNull();
    facts.set('email', {
      failing: {
        since: at(),
        at: at(),
        detail: 'e-mail (email): the SMTP server could not be reached: host name unknown; it is tried again.',
      },
      waiting: 2,
      criticalSince: null,
    });
    step(UNREACHED_AFTER_MS);
    expect(reach.noneReaches()).toBe(
      'no alert channel reaches you (phone (ntfy): connection refused; e-mail: host name unknown)',
    );
  });

  it("routes a channel's waiting alerts to its fallback only once its spell has lasted the fallback's minutes", () => {
    const { facts, said, rerouted, step, at } = reachOf(
      channels([
        { type: 'ntfy', name: 'phone', url: 'https://x.y/t', fallback: { channel: 'email', afterMin: 2 } },
        { type: 'email', smtp: { host: 'smtp.example.org' }, from: 'a@example.org', to: 'b@example.org' },
      ]),
    );
    const start = at();
    facts.set('phone', { failing: { since: start, at: start, detail: REFUSED }, waiting: 4, criticalSince: null });
    const [u] = step(UNREACHED_AFTER_MS);
    expect(u!.fallback).toEqual({ channel: 'email', words: 'e-mail', at: start + 2 * 60_000 });
    for (let t = UNREACHED_AFTER_MS; t < 2 * 60_000 - 5_000; t += 5_000) step(5_000);
    expect(rerouted).toEqual([]);
    step(5_000);
    expect(rerouted).toEqual([{ from: 'phone', to: 'email', at: start + 2 * 60_000 }]);
    // Each tick after, alerts queued on it since go too (the outbox takes each alert once).
    step(5_000);
    expect(rerouted).toHaveLength(2);
    expect(said).toHaveLength(1);
    // Reached again: nothing more goes to the fallback.
    facts.set('phone', { failing: null, waiting: 0, criticalSince: null });
    step(5_000);
    step(5_000);
    expect(rerouted).toHaveLength(2);
  });

  it('with no channel but the desktop, nothing is judged', () => {
    const { reach, step } = reachOf(channels([{ type: 'desktop' }]));
    step(10 * UNREACHED_AFTER_MS);
    expect(reach.unreached).toEqual([]);
    expect(reach.noneReaches()).toBeNull();
  });
});
