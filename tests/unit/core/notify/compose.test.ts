import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { compose, fits, MESSAGE_LIMIT } from '../../../../src/main/core/notify/compose';

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
