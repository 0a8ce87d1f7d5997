import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AlertRecord } from '../../shared/contract';
import { CORE_LOCALE, timeText } from '../../shared/format';
import { BASE_HEADERS } from './answer';

/** What the acknowledge link needs of the monitor (notify/notifier.ts). */
export interface AckLinks {
  /** The alert a token names, not spent. */
  peek(token: string): AlertRecord | undefined;
  /** Spend the token: the alert acknowledged, or undefined when unknown or spent. */
  spend(token: string): AlertRecord | undefined;
}

export const ACK_PATH = /^\/ack\/([A-Za-z0-9_-]{10,64})$/;

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...BASE_HEADERS,
    // Nothing runs on this page: a form that posts to itself.
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}@media(prefers-color-scheme:dark){body{color:#e6e8eb;background:#15181c}}button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#c0392b;color:#fff}</style>
</head><body>${body}</body></html>`);
}

/**
 * The acknowledge link in a message: `GET /ack/<token>` shows the alert and a button,
 * `POST` acknowledges it and spends the token (every token of that alert). A link preview (a chat
 * app fetching the URL) only GETs, so it acknowledges nothing. The token is the whole authority:
 * one random value per message, never the session token, good for this one alert once; so the
 * route answers whatever Host it is reached by (a reverse proxy on the way from a phone).
 */
export async function answerAck(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  links: AckLinks,
): Promise<void> {
  if (req.method === 'POST') {
    // The form's body is empty; read it off so the connection is clean.
    for await (const _ of req) void _;
    const a = links.spend(token);
    if (!a) {
      page(
        res,
        410,
        'Link used',
        '<h1>This link was already used</h1><p>The alert was acknowledged before, or the link is not one Tidewatch sent. Open Tidewatch to see its alerts.</p>',
      );
      return;
    }
    page(
      res,
      200,
      'Acknowledged',
      `<h1>Acknowledged</h1><p><strong>${escape(a.title)}</strong></p><p>Its repeats stop. The position is not changed: open Tidewatch to act on it.</p>`,
    );
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    page(res, 405, 'Not allowed', '<h1>Not allowed</h1>');
    return;
  }
  const a = links.peek(token);
  if (!a) {
    page(
      res,
      410,
      'Link used',
      '<h1>This link was already used</h1><p>The alert was acknowledged before, or the link is not one Tidewatch sent. Open Tidewatch to see its alerts.</p>',
    );
    return;
  }
  // The time as the machine Tidewatch runs on tells it, with its zone (the phone's may differ).
  const when = timeText(a.created_at, CORE_LOCALE);
  page(
    res,
    200,
    'Acknowledge the alert',
    `<h1>Acknowledge this alert?</h1><p><strong>${escape(a.title)}</strong><br><small>${escape(when)}</small></p><p>${escape(a.message)}</p>
<form method="post"><button type="submit">Acknowledge: stop the repeats</button></form>`,
  );
}
