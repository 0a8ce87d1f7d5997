import { describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, SightWatch, type SightState } from '../../../../src/main/core/notify/sight';

describe('the blind alarm', () => {
  function watch(
    state: Partial<SightState>,
    cfg = { blindAfterMin: 3, heartbeatUrl: 'http://hb/ping' as string | null, heartbeatEveryMin: 1 },
  ) {
    const s: SightState = {
      expected: true,
      marginOpen: true,
      offline: false,
      storeError: null,
      creditsSpent: false,
      noChannel: null,
      ...state,
    };
    const events: string[] = [];
    const pings: number[] = [];
    let now = 1_000_000;
    const w = new SightWatch({
      state: () => s,
      config: () => cfg,
      blind: (since, reasons) => events.push(`blind since ${since}: ${reasons.join('; ')}`),
      back: (since, at) => events.push(`back ${since}-${at}`),
      fetch: (async () => {
        pings.push(now);
        return new Response('ok');
      }) as typeof fetch,
      log: () => {},
      now: () => now,
    });
    return { s, w, events, pings, step: (ms: number) => w.tick((now += ms)) };
  }

  it('raises once after the grace, clears after sight holds, and pings only while it sees', () => {
    const { s, events, pings, step } = watch({});
    step(5_000);
    expect(pings).toHaveLength(1);
    s.offline = true;
    const blindAt = 1_000_000 + 10_000;
    step(5_000);
    for (let t = 0; t < 175_000; t += 5_000) step(5_000);
    expect(events).toEqual([]);
    step(5_000);
    expect(events).toEqual([`blind since ${blindAt}: the service cannot be reached`]);
    for (let t = 0; t < 60_000; t += 5_000) step(5_000);
    expect(events).toHaveLength(1);
    expect(pings).toHaveLength(1);
    s.offline = false;
    for (let t = 0; t < SETTLE_MS; t += 5_000) step(5_000);
    expect(events).toHaveLength(1);
    step(5_000);
    expect(events[1]).toMatch(/^back /);
    step(5_000);
    expect(pings).toHaveLength(2);
  });

  it('a spell shorter than the grace says nothing; a late tick counts as a wake from sleep', () => {
    const { s, w, events, step } = watch({});
    s.marginOpen = false;
    step(60_000);
    s.marginOpen = true;
    step(5_000);
    expect(events).toEqual([]);
    // The process was suspended for 10 minutes: blind until the stream opens again.
    step(600_000);
    expect(w.reasons()).toEqual(['the computer just woke and the time asleep is not read yet']);
    w.noteStreamOpen();
    expect(w.reasons()).toEqual([]);
  });

  it('says nothing when there is nothing to see with (no service or key set)', () => {
    const { w } = watch({ expected: false, offline: true });
    expect(w.reasons()).toEqual([]);
    vi.restoreAllMocks();
  });

  it('counts "no channel reaches you" as blindness: the alarm after the grace, no heartbeat meanwhile, the all-clear after', () => {
    const { s, w, events, pings, step } = watch({});
    step(5_000);
    expect(pings).toHaveLength(1);
    // Every channel has failed for a minute (notify/reach.ts says so in words).
    s.noChannel = 'no alert channel reaches you (phone (ntfy): connection refused)';
    const blindAt = 1_000_000 + 10_000;
    step(5_000);
    expect(w.reasons()).toEqual(['no alert channel reaches you (phone (ntfy): connection refused)']);
    for (let t = 0; t < 175_000; t += 5_000) step(5_000);
    expect(events).toEqual([]);
    step(5_000);
    expect(events).toEqual([`blind since ${blindAt}: no alert channel reaches you (phone (ntfy): connection refused)`]);
    expect(w.isBlind).toBe(true);
    // The heartbeat stops while blind: the service outside tells the trader.
    for (let t = 0; t < 120_000; t += 5_000) step(5_000);
    expect(pings).toHaveLength(1);
    // A channel is reached again.
    s.noChannel = null;
    for (let t = 0; t <= SETTLE_MS; t += 5_000) step(5_000);
    expect(events[1]).toMatch(/^back /);
  });
});
