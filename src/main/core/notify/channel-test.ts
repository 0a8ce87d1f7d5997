import type { AlertRecord, NotifyTestResult } from '../../../shared/contract';
import { CORE_LOCALE, quietHoursText } from '../../../shared/format';
import { compose } from './compose';
import type { ChannelConfig } from './config';
import { quietZone } from './quiet-hours';
import type { Delivery } from './senders';

/**
 * A test message on each channel (Settings' "Send a test", `tidewatch notify-test`): sent now,
 * outside the outbox (nothing stored), each result in plain words (the sender's, never a URL or
 * a secret: `redact` passes them all the same).
 */
export async function testChannels(
  channels: readonly ChannelConfig[],
  send: (c: ChannelConfig, d: Delivery) => Promise<void>,
  redact: (text: string) => string = (t) => t,
  now: () => number = Date.now,
): Promise<NotifyTestResult[]> {
  const at = now();
  return Promise.all(
    channels
      .filter((c) => c.type !== 'desktop')
      .map(async (c): Promise<NotifyTestResult> => {
        const alert: AlertRecord = {
          id: 0,
          rule: 'risk-threshold',
          level: c.minLevel,
          manager_id: null,
          owner: null,
          event_id: null,
          title: 'Tidewatch test message',
          message: `This channel (${c.name}) works: Tidewatch's alerts will arrive here (${c.minLevel === 'critical' ? 'critical only' : `${c.minLevel} and above`}${c.quietHours ? `; warnings wait out quiet hours ${quietHoursText({ ...c.quietHours, zone: quietZone(c.quietHours) }, CORE_LOCALE, at)}` : ''}).`,
          created_at: at,
          acknowledged_at: null,
          snoozed_until: null,
        };
        const d = compose([{ alert, repeat: 0, ackUrl: null }], { linkBase: null, hideAmounts: false });
        d.id = `tidewatch-test-${at}-${c.name}`;
        d.payload.id = d.id;
        const started = now();
        try {
          await send(c, d);
          return {
            channel: c.name,
            type: c.type,
            ok: true,
            message: 'Sent: check that it arrived.',
            ms: now() - started,
          };
        } catch (err) {
          // A test is not retried: the sender's "it is tried again" does not apply.
          const message = redact((err as Error).message).replace(/;? it is (?:tried|sent) again[^.]*\./, '.');
          return { channel: c.name, type: c.type, ok: false, message, ms: now() - started };
        }
      }),
  );
}
