import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../src/shared/contract';
import { parseNotifyConfig, type ChannelConfig } from '../../src/main/core/notify/config';
import { DeliveryError, deliveryOf, sendNtfy, sendWebhook } from '../../src/main/core/notify/senders';

/** A real HTTP server on 127.0.0.1 that keeps what it is sent and answers as told. */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base: string;
const received: Received[] = [];
let answer: { status: number; headers?: Record<string, string> } = { status: 200 };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.status === 200 ? '{"id":"ok"}' : '{"error":"no"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const alert: AlertRecord = {
  id: 42, rule: 'risk-threshold', level: 'critical', manager_id: '0x28f3aa', owner: '0xowner', event_id: null,
  title: 'Critical: SUI_USDC risk ratio 1.146 — act now', message: 'Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the critical threshold (1.15).',
  created_at: Date.UTC(2026, 10, 25, 12), acknowledged_at: null, snoozed_until: null,
};
const channel = <T extends ChannelConfig['type']>(json: string): Extract<ChannelConfig, { type: T }> =>
  parseNotifyConfig(`{"channels":[${json}]}`, { TW_SECRET: SECRET }).config.channels[0] as Extract<ChannelConfig, { type: T }>;

describe('the senders, against a real HTTP server', () => {
  it('posts to ntfy: the message as the body, title (UTF-8), priority, tags, click and token as headers', async () => {
    received.length = 0;
    answer = { status: 200 };
    const c = channel<'ntfy'>(`{"type":"ntfy","url":"${base}/my-topic","token":"tk_abc","tags":["tidewatch"]}`);
    await sendNtfy(c, deliveryOf(alert, 'http://127.0.0.1:8080/'));
    const r = received[0]!;
    expect(r.path).toBe('/my-topic');
    expect(r.body).toBe(alert.message);
    expect(r.headers['priority']).toBe('5');
    expect(r.headers['tags']).toBe('rotating_light,tidewatch');
    expect(r.headers['click']).toBe('http://127.0.0.1:8080/#/manager/0x28f3aa');
    expect(r.headers['authorization']).toBe('Bearer tk_abc');
    const m = /^=\?UTF-8\?B\?(.+)\?=$/.exec(String(r.headers['title']))!;
    expect(Buffer.from(m[1]!, 'base64').toString('utf8')).toBe(alert.title);
  });

  it('posts one signed JSON object per alert to a webhook; the receiver verifies it with the Standard Webhooks library', async () => {
    received.length = 0;
    answer = { status: 200 };
    const c = channel<'webhook'>(`{"type":"webhook","url":"${base}/hook","secret":"env:TW_SECRET"}`);
    const d = deliveryOf(alert, null);
    await sendWebhook(c, d);
    await sendWebhook(c, d); // a retry: the same id, so the receiver can drop it
    const [a, b] = received;
    const verified = new Webhook(SECRET).verify(a!.body, a!.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toEqual({ id: 'tidewatch-alert-42', rule: 'risk-threshold', level: 'critical', title: alert.title, message: alert.message, manager_id: '0x28f3aa', owner: '0xowner', created_at: '2026-11-25T12:00:00.000Z' });
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    // A forged body fails verification.
    expect(() => new Webhook(SECRET).verify(a!.body.replace('critical', 'info'), a!.headers as Record<string, string>)).toThrow();
  });

  it('says in plain words what went wrong, when to come back, and whether retrying can help; never the URL', async () => {
    const c = channel<'webhook'>(`{"type":"webhook","url":"${base}/hook?token=s3cr3t","name":"ops"}`);
    const failure = async (): Promise<DeliveryError> => {
      try {
        await sendWebhook(c, deliveryOf(alert, null));
      } catch (err) {
        expect(err).toBeInstanceOf(DeliveryError);
        expect((err as Error).message).not.toContain('s3cr3t');
        expect((err as Error).message).not.toContain('127.0.0.1');
        return err as DeliveryError;
      }
      throw new Error('it was delivered');
    };
    answer = { status: 429, headers: { 'retry-after': '7' } };
    expect(await failure()).toMatchObject({ message: 'the webhook (ops) asked to slow down (429); it is sent again when it allows.', retryAfterMs: 7_000, permanent: false });
    answer = { status: 401 };
    expect(await failure()).toMatchObject({ message: "the webhook (ops) refused the credentials (401): check the channel's token or secret.", permanent: true });
    answer = { status: 503 };
    expect(await failure()).toMatchObject({ permanent: false, retryAfterMs: null });
    const gone = channel<'webhook'>('{"type":"webhook","url":"http://127.0.0.1:1/hook"}');
    await expect(sendWebhook(gone, deliveryOf(alert, null))).rejects.toThrow('the webhook (webhook) could not be reached (the host is down, unknown or unreachable); it is tried again.');
  });
});
