import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { Webhook } from 'standardwebhooks';
import type { AlertLevel, AlertRecord } from '../../../shared/contract';
import { isoTime } from '../../../shared/format';
import type { ChannelConfig } from './config';

/**
 * One message for one channel: the alert's words and, for receivers that take data, the alert as
 * one JSON object. `id` stays the same across retries and restarts, so a receiver can drop a
 * message it already has (Standard Webhooks' `webhook-id`).
 */
export interface Delivery {
  id: string;
  level: AlertLevel;
  title: string;
  message: string;
  /** The manager page, when a link base is configured. */
  click: string | null;
  /** The one-time acknowledge link of a single critical alert (ntfy shows it as a button). */
  ackUrl?: string | null;
  payload: WebhookPayload;
}

/** The generic webhook's body: one alert. */
export interface WebhookPayload {
  id: string;
  rule: AlertRecord['rule'];
  level: AlertLevel;
  title: string;
  message: string;
  manager_id: string | null;
  owner: string | null;
  /** ISO 8601 in the monitor's zone with its offset ("2026-11-23T06:05:12.000-05:00"). */
  created_at: string;
}

/** A message for an alert (its id the alert's, stable across retries and restarts). */
export function deliveryOf(a: AlertRecord, linkBase: string | null): Delivery {
  const id = `tidewatch-alert-${a.id}`;
  const click = linkBase && a.manager_id ? `${linkBase.replace(/\/+$/, '')}/#/manager/${a.manager_id}` : null;
  return {
    id,
    level: a.level,
    title: a.title,
    message: a.message,
    click,
    payload: {
      id,
      rule: a.rule,
      level: a.level,
      title: a.title,
      message: a.message,
      manager_id: a.manager_id,
      owner: a.owner,
      created_at: isoTime(a.created_at),
    },
  };
}

/**
 * A delivery that failed, in words for the Alerts page and `notify-test` (never a URL or a
 * secret): `retryAfterMs` when the receiver said when to come back (429), `permanent` when trying
 * again cannot help until the config changes (a refused token, a missing topic or chat).
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly permanent = false,
  ) {
    super(message);
  }
}

type Fetch = typeof fetch;

/** Seconds or an HTTP date, as Retry-After gives it. */
function retryAfterOf(res: Response): number | null {
  const h = res.headers.get('retry-after');
  if (!h) return null;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/** What an answer other than 2xx means, in words naming the receiver. */
function refused(res: Response, who: string): DeliveryError {
  if (res.status === 429)
    return new DeliveryError(
      `${who} asked to slow down (429); it is sent again when it allows.`,
      retryAfterOf(res) ?? 60_000,
    );
  if (res.status === 401 || res.status === 403)
    return new DeliveryError(
      `${who} refused the credentials (${res.status}): check the channel's token or secret.`,
      null,
      true,
    );
  if (res.status === 404)
    return new DeliveryError(`${who} does not know the address (404): check the channel's URL or topic.`, null, true);
  if (res.status >= 500) return new DeliveryError(`${who} failed (${res.status}); it is tried again.`);
  return new DeliveryError(
    `${who} would not take the message (${res.status}): check the channel's settings.`,
    null,
    true,
  );
}

/** The socket's error codes a trader can act on, in words (the status bar shows the first words). */
const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (nothing listens at that address)',
  ENOTFOUND: 'host name unknown',
  EAI_AGAIN: 'host name unknown (the name server did not answer)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Why a request got no answer, from the error's code or its cause's (fetch wraps it in `cause`). */
export function networkCause(err: unknown): string {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    const byCode = typeof code === 'string' ? NETWORK_CAUSES[code] : undefined;
    if (byCode) return byCode;
    const m = /\b(E[A-Z_]{4,})\b/.exec(String((e as { message?: unknown }).message ?? ''));
    const byMessage = m ? NETWORK_CAUSES[m[1]!] : undefined;
    if (byMessage) return byMessage;
    e = (e as { cause?: unknown }).cause;
  }
  return 'the host is down, unknown or unreachable';
}

/** A request that never got an answer, in words (the host, a timeout), never with its URL. */
async function post(fetchFn: Fetch, url: string, init: RequestInit, who: string, timeoutMs: number): Promise<Response> {
  try {
    return await fetchFn(url, { ...init, method: 'POST', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError')
      throw new DeliveryError(`${who} did not answer within ${Math.round(timeoutMs / 1000)} s; it is tried again.`);
    throw new DeliveryError(`${who} could not be reached: ${networkCause(err)}; it is tried again.`);
  }
}

/** ntfy's priorities: 5 urgent, 4 high, 3 default. */
const NTFY_PRIORITY: Record<AlertLevel, string> = { critical: '5', warning: '4', info: '3' };
const NTFY_TAG: Record<AlertLevel, string> = {
  critical: 'rotating_light',
  warning: 'warning',
  info: 'information_source',
};

/**
 * ntfy's publish API (docs.ntfy.sh/publish): the message as the body, the title, priority, tags
 * and click URL as headers, an access token as a bearer token when the topic needs one.
 */
export async function sendNtfy(
  c: Extract<ChannelConfig, { type: 'ntfy' }>,
  d: Delivery,
  fetchFn: Fetch = fetch,
  timeoutMs = 15_000,
): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    // Header values are Latin-1: ntfy takes RFC 2047 words for anything else.
    title: `=?UTF-8?B?${Buffer.from(d.title, 'utf8').toString('base64')}?=`,
    priority: NTFY_PRIORITY[d.level],
    tags: [NTFY_TAG[d.level], ...(c.tags ?? [])].join(','),
    'x-message-id': d.id,
  };
  if (d.click) headers['click'] = d.click;
  // A button on the notification that acknowledges without opening anything (ntfy's http action).
  if (d.ackUrl) headers['actions'] = `http, Acknowledge, ${d.ackUrl}, method=POST, clear=true`;
  if (c.token) headers['authorization'] = `Bearer ${c.token}`;
  const res = await post(fetchFn, c.url, { headers, body: d.message }, `ntfy (${c.name})`, timeoutMs);
  if (!res.ok) throw refused(res, `ntfy (${c.name})`);
}

/**
 * A generic webhook: one JSON object per alert, signed per Standard Webhooks (its library) when a
 * secret is set: `webhook-id` (the alert's, the same on a retry), `webhook-timestamp`,
 * `webhook-signature` (v1, HMAC-SHA256 of id.timestamp.body), so a receiver can verify it and
 * drop a repeat.
 */
export async function sendWebhook(
  c: Extract<ChannelConfig, { type: 'webhook' }>,
  d: Delivery,
  fetchFn: Fetch = fetch,
  now = new Date(),
  timeoutMs = 15_000,
): Promise<void> {
  const body = JSON.stringify(d.payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': d.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
  };
  if (c.secret) headers['webhook-signature'] = new Webhook(c.secret).sign(d.id, now, body);
  const res = await post(fetchFn, c.url, { headers, body }, `the webhook (${c.name})`, timeoutMs);
  if (!res.ok) throw refused(res, `the webhook (${c.name})`);
}

/** A JSON answer's body, or null when it is not JSON. */
async function jsonOf(res: Response): Promise<Record<string, unknown> | null> {
  try {
    const x = (await res.json()) as unknown;
    return x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Telegram's words for "it will never work": the Bot API's `description` says which. */
const TELEGRAM_PERMANENT = [400, 401, 403, 404];

/**
 * Telegram's Bot API (`sendMessage` under the configured root, as for a self-hosted Bot API
 * server): the title in bold and the message as HTML, a link when one is configured. A 429
 * carries `parameters.retry_after` (seconds); "chat not found", "Unauthorized" and "bot was
 * blocked" cannot be helped by retrying.
 */
export async function sendTelegram(
  c: Extract<ChannelConfig, { type: 'telegram' }>,
  d: Delivery,
  fetchFn: Fetch = fetch,
  timeoutMs = 15_000,
): Promise<void> {
  const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const open = d.click?.includes('#/manager/') ? 'Open the position' : 'Open the alerts';
  const text = `<b>${escape(d.title)}</b>\n${escape(d.message)}${d.click ? `\n<a href="${escape(d.click)}">${open}</a>` : ''}`;
  const who = `Telegram (${c.name})`;
  const res = await post(
    fetchFn,
    `${c.apiRoot.replace(/\/+$/, '')}/bot${c.botToken}/sendMessage`,
    {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: c.chatId, text, parse_mode: 'HTML', disable_web_page_preview: true }),
    },
    who,
    timeoutMs,
  );
  if (res.ok) return;
  const body = await jsonOf(res);
  const description =
    typeof body?.['description'] === 'string' ? (body['description'] as string).replace(c.botToken, '•••') : null;
  if (res.status === 429) {
    const after = (body?.['parameters'] as { retry_after?: unknown } | undefined)?.retry_after;
    throw new DeliveryError(
      `${who} asked to slow down (429); it is sent again when it allows.`,
      typeof after === 'number' ? after * 1000 : (retryAfterOf(res) ?? 60_000),
    );
  }
  if (description && TELEGRAM_PERMANENT.includes(res.status)) {
    throw new DeliveryError(
      `${who} refused the message: ${description} (${res.status}). Check the bot token and the chat id, and that the bot may write to the chat.`,
      null,
      true,
    );
  }
  throw refused(res, who);
}

/**
 * Discord's and Slack's incoming webhooks: the title and the message as one text (Discord
 * `content`, Slack `text`). Both answer 429 when posted to too fast: Discord with `retry_after`
 * (seconds) in its body, Slack with Retry-After.
 */
export async function sendChatWebhook(
  c: Extract<ChannelConfig, { type: 'discord' | 'slack' }>,
  d: Delivery,
  fetchFn: Fetch = fetch,
  timeoutMs = 15_000,
): Promise<void> {
  const who = `${c.type === 'discord' ? 'Discord' : 'Slack'} (${c.name})`;
  const text = `**${d.title}**\n${d.message}${d.click ? `\n${d.click}` : ''}`;
  const body =
    c.type === 'discord'
      ? { content: text.slice(0, 2000), allowed_mentions: { parse: [] } }
      : { text: text.replace(/\*\*/g, '*') };
  const res = await post(
    fetchFn,
    c.url,
    { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    who,
    timeoutMs,
  );
  if (res.ok) return;
  if (res.status === 429 && c.type === 'discord') {
    const after = (await jsonOf(res))?.['retry_after'];
    if (typeof after === 'number')
      throw new DeliveryError(`${who} asked to slow down (429); it is sent again when it allows.`, after * 1000);
  }
  throw refused(res, who);
}

/** What nodemailer's transport needs of us (a test may hand its own). */
export type MailTransportFactory = (options: SMTPTransport.Options) => Pick<Transporter, 'sendMail' | 'close'>;

/**
 * E-mail over SMTP with nodemailer: the title as the subject, the message (and the link) as the
 * text; STARTTLS on 587 unless `security` says otherwise, TLS on 465, `none` for a local relay.
 * The message id is the alert's, so a mail client can tell a repeat. A refused login or
 * recipient cannot be helped by retrying; a busy or unreachable server can.
 */
export async function sendEmail(
  c: Extract<ChannelConfig, { type: 'email' }>,
  d: Delivery,
  transportOf: MailTransportFactory = createTransport,
  timeoutMs = 15_000,
): Promise<void> {
  const who = `e-mail (${c.name})`;
  const security = c.smtp.security ?? (c.smtp.port === 465 ? 'tls' : 'starttls');
  const transport = transportOf({
    host: c.smtp.host,
    port: c.smtp.port,
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    ...(c.smtp.user ? { auth: { user: c.smtp.user, pass: c.smtp.password ?? '' } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({
      from: c.from,
      to: c.to,
      subject: d.title,
      text: `${d.message}${d.click ? `\n\nOpen the position: ${d.click}` : ''}\n`,
      messageId: `<${d.id}@tidewatch.local>`,
      headers: { 'X-Tidewatch-Alert': d.id, 'X-Priority': d.level === 'critical' ? '1' : '3' },
    });
  } catch (err) {
    const e = err as { code?: string; responseCode?: number };
    if (e.code === 'EAUTH')
      throw new DeliveryError(
        `${who}: the SMTP server refused the login${e.responseCode ? ` (${e.responseCode})` : ''}: check the user and password.`,
        null,
        true,
      );
    if (e.code === 'EENVELOPE')
      throw new DeliveryError(
        `${who}: the SMTP server refused the sender or a recipient${e.responseCode ? ` (${e.responseCode})` : ''}: check from and to.`,
        null,
        true,
      );
    if (e.code === 'ETLS')
      throw new DeliveryError(
        `${who}: the SMTP server's TLS failed: check the port and security (starttls on 587, tls on 465).`,
        null,
        true,
      );
    if (e.responseCode !== undefined && e.responseCode >= 500)
      throw new DeliveryError(`${who}: the SMTP server refused the message (${e.responseCode}).`, null, true);
    if (e.responseCode !== undefined)
      throw new DeliveryError(`${who}: the SMTP server is busy (${e.responseCode}); it is tried again.`);
    throw new DeliveryError(`${who}: the SMTP server could not be reached: ${networkCause(err)}; it is tried again.`);
  } finally {
    transport.close();
  }
}

/** Send on a channel of any kind (the desktop's is the shell's: nothing to do here). */
export function sendOn(c: ChannelConfig, d: Delivery, fetchFn: Fetch = fetch): Promise<void> {
  switch (c.type) {
    case 'ntfy':
      return sendNtfy(c, d, fetchFn);
    case 'telegram':
      return sendTelegram(c, d, fetchFn);
    case 'discord':
    case 'slack':
      return sendChatWebhook(c, d, fetchFn);
    case 'email':
      return sendEmail(c, d);
    case 'webhook':
      return sendWebhook(c, d, fetchFn);
    case 'desktop':
      return Promise.resolve();
  }
}
