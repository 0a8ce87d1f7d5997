import type { ServerResponse } from 'node:http';
import type { ErrorBody } from '../../shared/api';

/**
 * An error answer of the reference service: `{"error": {"status", "code", "message"}, "message"}`.
 * The top-level `message` repeats the text for clients that read only it (the real service's SDK
 * does; without it they print "[object Object]"): docs/service.md, Error responses.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badParameter = (message: string): HttpError => new HttpError(400, 'bad_parameter', message);
export const notFound = (message: string): HttpError => new HttpError(404, 'not_found', message);

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  const body: ErrorBody = { error: { status: err.status, code: err.code, message: err.message }, message: err.message };
  sendJson(res, err.status, body, err.headers);
}
