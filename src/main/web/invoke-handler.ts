import type { IncomingMessage, ServerResponse } from 'node:http';
import { isContractMethod, type TidewatchApi } from '../../shared/contract';
import { INTERNAL, toWire } from '../../shared/wire';
import { sendError, sendJson, type WebHandler } from './answer';

/** Where contract calls are made: `POST /api/invoke/<method>` with a JSON body of arguments. */
export const INVOKE_PREFIX = '/api/invoke/';
const MAX_BODY = 1024 * 1024;

/**
 * A contract call over HTTP, as the desktop's IpcBridge.invoke is one over IPC: the method is
 * checked, the arguments read as JSON (the contract validates them), and the answer is
 * `{"result": …}` or `{"error": WireError}` with the kind's status. An error main did not expect
 * is logged and answered as `internal`. A request that closes before its answer cancels the call.
 */
export class InvokeHandler implements WebHandler {
  constructor(
    private readonly api: TidewatchApi,
    private readonly log: (line: string) => void,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, url: URL, startedAt: number): Promise<void> {
    if (req.method !== 'POST') {
      sendError(res, { kind: 'method', message: 'use POST with a JSON body of arguments' }, { allow: 'POST' });
      return;
    }
    const method = url.pathname.slice(INVOKE_PREFIX.length);
    if (!isContractMethod(method)) {
      sendError(res, { kind: 'unknown-method', message: `no contract method "${method}"` });
      return;
    }
    let args: unknown;
    try {
      const text = await readBody(req);
      args = text.length > 0 ? JSON.parse(text) : {};
    } catch (err) {
      sendError(res, {
        kind: 'bad-argument',
        message: `the body must be a JSON object of arguments (${(err as Error).message})`,
      });
      return;
    }
    // The page went away or asked again: stop the work it asked for (range fetches included).
    const cancel = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) cancel.abort();
    });
    try {
      const result = await this.api.invoke(method, args as never, { signal: cancel.signal });
      sendJson(res, 200, { result }, {}, startedAt);
    } catch (err) {
      if (res.destroyed) return;
      const told = toWire(err);
      if (told) sendError(res, told, {}, startedAt);
      else {
        this.log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        sendError(res, INTERNAL);
      }
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body over 1 MiB'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
