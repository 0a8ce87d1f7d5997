import { describe, expect, it, vi } from 'vitest';
import type { AlertRecord } from '../../src/shared/contract';
import { compose, fits, MESSAGE_LIMIT } from '../../src/main/core/notify/compose';
import { quietUntil } from '../../src/main/core/notify/quiet-hours';
import { SETTLE_MS, SightWatch, type SightState } from '../../src/main/core/notify/sight';

const alert = (id: number, over: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  rule: 'risk-threshold',
  level: 'warning',
  manager_id: `0x${id}`,
  owner: '0xo',
  event_id: null,
  title: 'Warning: SUI_USDC risk ratio 1.190',
  message:
    'Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the warning threshold (1.2). Assets $3,000, debt 2,521 USDC ($2,521): ratio 1.190. SUI at $2.61 (-4.1 %) liquidates it.',
  created_at: Date.UTC(2026, 10, 25, 12),
  acknowledged_at: null,
  snoozed_until: null,
  ...over,
});

describe('quiet hours (local time)', () => {
  const at = (h: number, m = 0): number => new Date(2026, 10, 25, h, m).getTime();
  it('across midnight: inside until the end, outside otherwise', () => {
    const q = { from: '22:00', to: '07:00' };
    expect(quietUntil(q, at(23, 30))).toBe(new Date(2026, 10, 26, 7, 0).getTime());
    expect(quietUntil(q, at(3))).toBe(at(7));
    expect(quietUntil(q, at(7))).toBeNull();
    expect(quietUntil(q, at(12))).toBeNull();
  });
  it('within a day, and none when from equals to', () => {
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(13))).toBe(at(14));
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(14, 1))).toBeNull();
    expect(quietUntil({ from: '09:00', to: '09:00' }, at(9))).toBeNull();
    expect(quietUntil(undefined, at(9))).toBeNull();
  });
});

describe('compose', () => {
  it('one alert: its words, the link, the alert number; amounts hidden when the channel says so', () => {
    const d = compose([{ alert: alert(7), repeat: 0, ackUrl: null }], {
      linkBase: 'http://127.0.0.1:5173/',
      hideAmounts: false,
    });
    expect(d.id).toBe('tidewatch-alert-7');
    expect(d.click).toBe('http://127.0.0.1:5173/#/manager/0x7');
    expect(d.message.split('\n').at(-1)).toBe('Tidewatch alert 7');
    const hidden = compose([{ alert: alert(7), repeat: 0, ackUrl: null }], { linkBase: null, hideAmounts: true });
    expect(hidden.message).not.toMatch(/\$3,000|2,521/);
    expect(hidden.message).toContain('ratio 1.190');
    expect(hidden.message).toContain('(Amounts hidden on this channel.)');
  });
  it('a repeat says so and carries the acknowledge link', () => {
    const d = compose([{ alert: alert(8, { level: 'critical' }), repeat: 2, ackUrl: 'http://h/ack/tok' }], {
      linkBase: null,
      hideAmounts: false,
    });
    expect(d.id).toBe('tidewatch-alert-8-r2');
    expect(d.title).toBe('Repeat 2, not acknowledged yet: Warning: SUI_USDC risk ratio 1.190');
    expect(d.message).toContain('Acknowledge (stops the repeats): http://h/ack/tok');
  });
  it('a burst: one message named for what happened, its level the highest; compact when the receiver is small', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ alert: alert(i + 1), repeat: 0, ackUrl: null }));
    const d = compose(items, { linkBase: null, hideAmounts: false });
    expect(d.title).toBe('20 positions crossed warning on SUI_USDC');
    expect(fits(d, MESSAGE_LIMIT['discord'])).toBe(false);
    const small = compose(items, { linkBase: null, hideAmounts: false, limit: MESSAGE_LIMIT['discord'] });
    expect(small.message.split('\n').at(-1)).toBe(`Tidewatch alerts ${items.map((i) => i.alert.id).join(', ')}`);
    expect(small.message.split('\n')[0]).toBe(
      '• Warning: SUI_USDC risk ratio 1.190: Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the warning threshold (1.2).',
    );
    const mixed = compose(
      [
        { alert: alert(1), repeat: 0, ackUrl: null },
        { alert: alert(2, { rule: 'liquidation', level: 'critical', title: 'Liquidated' }), repeat: 0, ackUrl: null },
      ],
      { linkBase: null, hideAmounts: false },
    );
    expect(mixed.title).toBe('Liquidated (+ 1 warning)');
    expect(mixed.message.split('\n')[0]).toBe('• Liquidated');
    expect(mixed.level).toBe('critical');
  });
});

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
});
