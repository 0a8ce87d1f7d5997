import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * Real HTTP servers on 127.0.0.1 that speak what the alert channels post to: ntfy's
 * publish API, the Telegram Bot API's sendMessage, Discord's and Slack's incoming webhooks, a
 * generic webhook verified per Standard Webhooks, and a heartbeat URL. Each keeps what arrived
 * (with the Tidewatch alert numbers a message carries) and answers as told: a share of failures,
 * or a 429 with the receiver's own retry hint, so retries and rate limits are tested for real.
 */
export interface Arrival {
  kind: 'ntfy' | 'telegram' | 'discord' | 'slack' | 'webhook' | 'heartbeat';
  /** The message's id (ntfy's X-Message-Id, the webhook's webhook-id), when the protocol carries one. */
  id: string | null;
  at: number;
  title: string;
  text: string;
  /** The alert numbers the message names ("Tidewatch alerts 12, 13"), or the webhook payload's. */
  alerts: number[];
  /** The repeat number of each alert in it (0: the alert itself). */
  repeats: number[];
  headers: IncomingMessage['headers'];
}

export interface ReceiverOptions {
  /** The share of requests answered 500 (0..1). */
  failRate?: number;
  /** The share answered 429 with a retry hint of `retryAfterSec`. */
  rateLimitRate?: number;
  retryAfterSec?: number;
  telegramToken?: string;
  telegramChat?: string;
  webhookSecret?: string;
  /** Decides each answer (for a test that needs one exactly): undefined falls through to the rates. */
  decide?: (kind: Arrival['kind']) => 'ok' | 'fail' | 'limit' | undefined;
}

export const TELEGRAM_TOKEN = '123456:test-bot-token';
export const TELEGRAM_CHAT = '4242';
export const WEBHOOK_SECRET = 'whsec_dGVzdC1yZWNlaXZlci1zaWduaW5nLXNlY3JldA==';

/** "Tidewatch alerts 12, 13 (repeat 1)" -> the numbers and repeats. */
export function alertsNamed(text: string): { alerts: number[]; repeats: number[] } {
  const m = /Tidewatch alerts? ([\d, ()a-z]+)$/m.exec(text);
  if (!m) return { alerts: [], repeats: [] };
  const parts = m[1]!.split(', ');
  return {
    alerts: parts.map((p) => Number(/^\d+/.exec(p)?.[0])),
    repeats: parts.map((p) => Number(/repeat (\d+)/.exec(p)?.[1] ?? 0)),
  };
}

export class Receivers {
  readonly arrivals: Arrival[] = [];
  /** Requests refused on purpose (failures and 429s), by kind. */
  readonly refused: Record<string, number> = {};
  /** Every request to a known route, taken or refused, in order, with its message id when the protocol carries one. */
  readonly requests: Array<Pick<Arrival, 'kind' | 'id' | 'at'>> = [];
  /** Called once each request has been answered: a test on a fake clock waits on this, not on time. */
  onAnswered: () => void = () => {};
  url = '';
  private server!: Server;

  constructor(public opts: ReceiverOptions = {}) {}

  static async start(opts: ReceiverOptions = {}): Promise<Receivers> {
    const r = new Receivers(opts);
    r.server = createServer((req, res) => void r.answer(req, res).finally(() => r.onAnswered()));
    await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
    return r;
  }

  close(): Promise<void> {
    return new Promise((ok) => {
      this.server.close(() => ok());
      this.server.closeAllConnections();
    });
  }

  /** The config of every channel pointed here (`name` prefix, level, more fields). */
  channels(extra: Record<string, unknown> = {}): Array<Record<string, unknown>> {
    return [
      { type: 'ntfy', url: `${this.url}/ntfy/tidewatch-test`, ...extra },
      {
        type: 'telegram',
        botToken: this.opts.telegramToken ?? TELEGRAM_TOKEN,
        chatId: this.opts.telegramChat ?? TELEGRAM_CHAT,
        apiRoot: this.url,
        ...extra,
      },
      { type: 'discord', url: `${this.url}/discord/api/webhooks/1/abc`, ...extra },
      { type: 'slack', url: `${this.url}/slack/services/T0/B0/xyz`, ...extra },
      { type: 'webhook', url: `${this.url}/hook`, secret: this.opts.webhookSecret ?? WEBHOOK_SECRET, ...extra },
    ];
  }

  of(kind: Arrival['kind']): Arrival[] {
    return this.arrivals.filter((a) => a.kind === kind);
  }

  private verdict(kind: Arrival['kind']): 'ok' | 'fail' | 'limit' {
    const told = this.opts.decide?.(kind);
    if (told) return told;
    const x = Math.random();
    if (x < (this.opts.failRate ?? 0)) return 'fail';
    if (x < (this.opts.failRate ?? 0) + (this.opts.rateLimitRate ?? 0)) return 'limit';
    return 'ok';
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const path = req.url ?? '/';
    const json = (status: number, x: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(x));
    };
    const after = this.opts.retryAfterSec ?? 1;
    const kind: Arrival['kind'] | null = path.startsWith('/ntfy/')
      ? 'ntfy'
      : path.startsWith('/bot')
        ? 'telegram'
        : path.startsWith('/discord/')
          ? 'discord'
          : path.startsWith('/slack/')
            ? 'slack'
            : path.startsWith('/hook')
              ? 'webhook'
              : path.startsWith('/ping/')
                ? 'heartbeat'
                : null;
    if (kind === null) return json(404, { error: 'no such route' });
    const messageId = req.headers['x-message-id'] ?? req.headers['webhook-id'];
    this.requests.push({ kind, id: typeof messageId === 'string' ? messageId : null, at: Date.now() });
    const keep = (title: string, text: string, id: string | null, named = alertsNamed(text)): void => {
      this.arrivals.push({ kind, id, at: Date.now(), title, text, ...named, headers: req.headers });
    };
    if (kind === 'heartbeat') {
      keep('', '', null, { alerts: [], repeats: [] });
      return json(200, { ok: true });
    }
    // Who is not who they say is refused whatever the rates say.
    if (kind === 'telegram') {
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(path);
      if (!m || decodeURIComponent(m[1]!) !== (this.opts.telegramToken ?? TELEGRAM_TOKEN))
        return json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const msg = JSON.parse(body) as { chat_id: string | number; text: string };
      if (String(msg.chat_id) !== (this.opts.telegramChat ?? TELEGRAM_CHAT))
        return json(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    }
    if (kind === 'webhook') {
      try {
        new Webhook(this.opts.webhookSecret ?? WEBHOOK_SECRET).verify(body, req.headers as Record<string, string>);
      } catch {
        return json(401, { error: 'bad signature' });
      }
    }
    const verdict = this.verdict(kind);
    if (verdict !== 'ok') this.refused[kind] = (this.refused[kind] ?? 0) + 1;
    if (verdict === 'fail') return json(500, { error: 'try later' });
    if (verdict === 'limit') {
      if (kind === 'telegram')
        return json(429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${after}`,
          parameters: { retry_after: after },
        });
      if (kind === 'discord')
        return json(429, { message: 'You are being rate limited.', retry_after: after, global: false });
      return json(429, { error: 'slow down' }, { 'retry-after': String(after) });
    }
    switch (kind) {
      case 'ntfy': {
        const t = String(req.headers['title'] ?? '');
        const m = /^=\?UTF-8\?B\?(.+)\?=$/.exec(t);
        keep(
          m ? Buffer.from(m[1]!, 'base64').toString('utf8') : t,
          body,
          String(req.headers['x-message-id'] ?? '') || null,
        );
        return json(200, { id: 'x', event: 'message' });
      }
      case 'telegram': {
        const text = (JSON.parse(body) as { text: string }).text;
        const [title, ...rest] = text.split('\n');
        keep(title!.replace(/<\/?b>/g, ''), rest.join('\n'), null);
        return json(200, { ok: true, result: { message_id: this.arrivals.length } });
      }
      case 'discord': {
        const text = (JSON.parse(body) as { content: string }).content;
        const [title, ...rest] = text.split('\n');
        keep(title!.replace(/\*\*/g, ''), rest.join('\n'), null);
        res.writeHead(204).end();
        return;
      }
      case 'slack': {
        const text = (JSON.parse(body) as { text: string }).text;
        const [title, ...rest] = text.split('\n');
        keep(title!.replace(/\*/g, ''), rest.join('\n'), null);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      case 'webhook': {
        const p = JSON.parse(body) as { id: string; title: string; message: string };
        const m = /^tidewatch-alert-(\d+)(?:-r(\d+))?$/.exec(p.id);
        keep(
          p.title,
          p.message,
          String(req.headers['webhook-id'] ?? ''),
          m ? { alerts: [Number(m[1])], repeats: [Number(m[2] ?? 0)] } : { alerts: [], repeats: [] },
        );
        return json(200, { ok: true });
      }
    }
  }
}
