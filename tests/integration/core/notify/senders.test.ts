import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { isoTime } from '../../../../src/shared/format';
import { parseNotifyConfig, type ChannelConfig } from '../../../../src/main/core/notify/config';
import { refusingPort } from '../../../support/refusing-port';
import {
  DeliveryError,
  deliveryOf,
  sendChatWebhook,
  sendNtfy,
  sendTelegram,
  sendWebhook,
} from '../../../../src/main/core/notify/senders';

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
  id: 42,
  rule: 'risk-threshold',
  level: 'critical',
  manager_id: '0x28f3aa',
  owner: '0xowner',
  event_id: null,
  title: 'Critical: SUI_USDC risk ratio 1.146 — act now',
  message: 'Margin manager 0x28f3…fbf6 (SUI_USDC) fell below the critical threshold (1.15).',
  created_at: Date.UTC(2026, 10, 25, 12),
  acknowledged_at: null,
  snoozed_until: null,
};
const channel = <T extends ChannelConfig['type']>(json: string): Extract<ChannelConfig, { type: T }> =>
  parseNotifyConfig(`{"channels":[${json}]}`, { TW_SECRET: SECRET }).config.channels[0] as Extract<
    ChannelConfig,
    { type: T }
  >;

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
    const verified = new Webhook(SECRET).verify(a!.body, a!.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verified).toEqual({
      id: 'tidewatch-alert-42',
      rule: 'risk-threshold',
      level: 'critical',
      title: alert.title,
      message: alert.message,
      manager_id: '0x28f3aa',
      owner: '0xowner',
      // The instant in the monitor's zone, with its offset (docs/formats.md).
      created_at: isoTime(Date.UTC(2026, 10, 25, 12)),
    });
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    // A forged body fails verification.
    expect(() =>
      new Webhook(SECRET).verify(a!.body.replace('critical', 'info'), a!.headers as Record<string, string>),
    ).toThrow();
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
    expect(await failure()).toMatchObject({
      message: 'the webhook (ops) asked to slow down (429); it is sent again when it allows.',
      retryAfterMs: 7_000,
      permanent: false,
    });
    answer = { status: 401 };
    expect(await failure()).toMatchObject({
      message: "the webhook (ops) refused the credentials (401): check the channel's token or secret.",
      permanent: true,
    });
    answer = { status: 503 };
    expect(await failure()).toMatchObject({ permanent: false, retryAfterMs: null });
    const gone = channel<'webhook'>('{"type":"webhook","url":"http://127.0.0.1:1/hook"}');
    await expect(sendWebhook(gone, deliveryOf(alert, null))).rejects.toThrow(
      'the webhook (webhook) could not be reached: the host is down, unknown or unreachable; it is tried again.',
    );
    // A port nothing listens on says so (the status bar shows "connection refused").
    const refused = channel<'webhook'>(`{"type":"webhook","url":"http://127.0.0.1:${await refusingPort()}/hook"}`);
    await expect(sendWebhook(refused, deliveryOf(alert, null))).rejects.toThrow(
      'the webhook (webhook) could not be reached: connection refused (nothing listens at that address); it is tried again.',
    );
  });
});

describe('chat senders, against a real HTTP server speaking their APIs', () => {
  it('sends to Telegram\'s Bot API under the configured root, and tells "chat not found" and a 429\'s retry_after apart', async () => {
    received.length = 0;
    answer = { status: 200 };
    const c = channel<'telegram'>(`{"type":"telegram","botToken":"123:tok","chatId":"-1001","apiRoot":"${base}/tg"}`);
    await sendTelegram(c, deliveryOf(alert, 'http://127.0.0.1:8080'));
    expect(received[0]!.path).toBe('/tg/bot123:tok/sendMessage');
    const sent = JSON.parse(received[0]!.body) as { chat_id: string; text: string; parse_mode: string };
    expect(sent).toMatchObject({ chat_id: '-1001', parse_mode: 'HTML' });
    expect(sent.text).toBe(
      `<b>${alert.title}</b>\n${alert.message}\n<a href="http://127.0.0.1:8080/#/manager/0x28f3aa">Open the position</a>`,
    );
    const notFound = createServer((_req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}'),
    );
    const slow = createServer((_req, res) =>
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end(
          '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}',
        ),
    );
    for (const s of [notFound, slow]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const at = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      const err = await sendTelegram({ ...c, apiRoot: at(notFound) }, deliveryOf(alert, null)).catch(
        (e: unknown) => e as DeliveryError,
      );
      expect(err).toMatchObject({ permanent: true });
      expect((err as Error).message).toBe(
        'Telegram (telegram) refused the message: Bad Request: chat not found (400). Check the bot token and the chat id, and that the bot may write to the chat.',
      );
      expect((err as Error).message).not.toContain('123:tok');
      expect(
        await sendTelegram({ ...c, apiRoot: at(slow) }, deliveryOf(alert, null)).catch((e: unknown) => e),
      ).toMatchObject({ retryAfterMs: 3_000, permanent: false });
    } finally {
      for (const s of [notFound, slow]) await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it("posts to Discord and Slack incoming webhooks, honouring Discord's retry_after and Slack's Retry-After", async () => {
    received.length = 0;
    answer = { status: 200 };
    const discord = channel<'discord'>(`{"type":"discord","url":"${base}/discord"}`);
    const slack = channel<'slack'>(`{"type":"slack","url":"${base}/slack"}`);
    await sendChatWebhook(discord, deliveryOf(alert, null));
    await sendChatWebhook(slack, deliveryOf(alert, null));
    expect(JSON.parse(received[0]!.body)).toEqual({
      content: `**${alert.title}**\n${alert.message}`,
      allowed_mentions: { parse: [] },
    });
    expect(JSON.parse(received[1]!.body)).toEqual({ text: `*${alert.title}*\n${alert.message}` });
    const limited = createServer((_req, res) =>
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' })
        .end('{"message":"You are being rate limited.","retry_after":1.5,"global":false}'),
    );
    await new Promise<void>((r) => limited.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(limited.address() as AddressInfo).port}/x`;
    try {
      expect(
        await sendChatWebhook({ ...discord, url }, deliveryOf(alert, null)).catch((e: unknown) => e),
      ).toMatchObject({ retryAfterMs: 1_500 });
      expect(await sendChatWebhook({ ...slack, url }, deliveryOf(alert, null)).catch((e: unknown) => e)).toMatchObject({
        retryAfterMs: 2_000,
      });
    } finally {
      await new Promise<void>((r) => limited.close(() => r()));
    }
  });
});
