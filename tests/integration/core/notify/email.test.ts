import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { parseNotifyConfig, type ChannelConfig } from '../../../../src/main/core/notify/config';
import { DeliveryError, deliveryOf, sendEmail } from '../../../../src/main/core/notify/senders';

/** A real SMTP server on 127.0.0.1 (smtp-server) that takes one login and keeps what arrives, parsed. */
const arrived: ParsedMail[] = [];
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === 'me' && auth.password === 'p4ss') cb(null, { user: 'me' });
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, _session, cb) {
      simpleParser(stream).then((m) => {
        arrived.push(m);
        cb();
      }, cb);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const alert: AlertRecord = {
  id: 7,
  rule: 'liquidation',
  level: 'critical',
  manager_id: '0x28f3aa',
  owner: '0xowner',
  event_id: 'e1',
  title: 'Liquidated',
  message: 'Margin manager 0x28f3…fbf6 of 0xowne…wner was liquidated at a risk ratio of 1.121.',
  created_at: Date.UTC(2026, 10, 25),
  acknowledged_at: null,
  snoozed_until: null,
};
const email = (password: string): Extract<ChannelConfig, { type: 'email' }> =>
  parseNotifyConfig(
    `{"channels":[{"type":"email","smtp":{"host":"127.0.0.1","port":${port},"security":"none","user":"me","password":"env:PW"},"from":"tidewatch@example.org","to":"me@example.org"}]}`,
    { PW: password },
  ).config.channels[0] as Extract<ChannelConfig, { type: 'email' }>;

describe('e-mail over SMTP (nodemailer), against a real SMTP server', () => {
  it('logs in and sends the alert: subject, text with the link, the alert id as message id', async () => {
    await sendEmail(email('p4ss'), deliveryOf(alert, 'http://127.0.0.1:8080'));
    const m = arrived.at(-1)!;
    expect(m.subject).toBe('Liquidated');
    expect(m.text).toBe(`${alert.message}\n\nOpen the position: http://127.0.0.1:8080/#/manager/0x28f3aa\n`);
    expect(m.messageId).toBe('<tidewatch-alert-7@tidewatch.local>');
    expect(m.from?.text).toBe('tidewatch@example.org');
    expect(m.headers.get('x-tidewatch-alert')).toBe('tidewatch-alert-7');
  });

  it('says a refused login in plain words and that retrying cannot help; an unreachable server is tried again', async () => {
    const err = await sendEmail(email('wrong'), deliveryOf(alert, null)).catch((e: unknown) => e as DeliveryError);
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({
      message: 'e-mail (email): the SMTP server refused the login (535): check the user and password.',
      permanent: true,
    });
    const gone = { ...email('p4ss'), smtp: { ...email('p4ss').smtp, port: 1 } };
    expect(await sendEmail(gone, deliveryOf(alert, null), undefined, 3_000).catch((e: unknown) => e)).toMatchObject({
      permanent: false,
    });
  });
});
