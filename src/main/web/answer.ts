import type { IncomingMessage, ServerResponse } from 'node:http';
import { WIRE_ERRORS, type WireError } from '../../shared/wire';

/** Headers every answer carries: no Referer to anywhere, no framing, no sniffing. */
export const BASE_HEADERS = {
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * One concern of the web shell (invoke, subscribe, the built files), given a request the router
 * has admitted: its URL, and when it came (for the `Server-Timing` of a JSON answer).
 */
export interface WebHandler {
  handle(req: IncomingMessage, res: ServerResponse, url: URL, startedAt: number): void | Promise<void>;
}

/**
 * A JSON answer. Given when its request came (`startedAt`), it says in a `Server-Timing` header
 * how long it took here, from the request to its JSON (a browser's developer tools show it):
 * the rest of a call's time, the transport's and the caller's, is then told apart from outside.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  startedAt?: number,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(startedAt === undefined ? {} : { 'server-timing': `app;dur=${(performance.now() - startedAt).toFixed(2)}` }),
    ...BASE_HEADERS,
    ...headers,
  });
  res.end(text);
}

/** A failure as `{"error": WireError}`, with its kind's HTTP status (shared/wire.ts WIRE_ERRORS). */
export function sendError(
  res: ServerResponse,
  error: WireError,
  headers: Record<string, string> = {},
  startedAt?: number,
): void {
  // Every refusal says what to do: the table's advice where the sender gave none.
  const advice = error.advice ?? WIRE_ERRORS[error.kind].advice;
  const told = advice === undefined || advice === error.message ? error : { ...error, advice };
  sendJson(res, WIRE_ERRORS[error.kind].status, { error: told }, headers, startedAt);
}
