import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ACK_PATH, answerAck, type AckLinks } from './ack-page';
import { sendError, type WebHandler } from './answer';
import { INTERNAL } from '../../shared/wire';
import { INVOKE_PREFIX } from './invoke-handler';
import { SUBSCRIBE_PATH } from './subscribe-handler';
import type { Access, WebAuth } from './web-auth';

/** The concerns the router hands requests to, and what it asks of the rest of the shell. */
export interface RouterParts {
  auth: WebAuth;
  /** `POST /api/invoke/<method>`: a command, for the header token or the page with our Origin. */
  invoke: WebHandler;
  /** `/api/subscribe/<topic>` and `/api/subscribe?topics=…`: reads. */
  subscribe: WebHandler;
  /** Everything else: the built renderer, a read. */
  files: WebHandler;
  /** The acknowledge links of messages sent away from the desk (`/ack/<token>`). */
  ack?: AckLinks;
  /** Where internal errors are logged (one line, redacted by the caller). */
  log: (line: string) => void;
}

interface Route {
  matches(path: string): boolean;
  access: Access;
  handler: WebHandler;
}

/**
 * The web shell's one request listener, as the desktop's IpcBridge is its one set of channels:
 * an acknowledge link first (it carries its own authority), then WebAuth screens the request,
 * the route it asks for is found, WebAuth says whether the request may do what that route does,
 * and the route's handler answers. A malformed address is the caller's mistake (400); anything
 * else that throws is logged and answered as an internal error, never with its details.
 */
export class WebRouter {
  private readonly routes: readonly Route[];
  private readonly files: Route;

  constructor(private readonly parts: RouterParts) {
    this.routes = [
      { matches: (p) => p.startsWith(INVOKE_PREFIX), access: 'command', handler: parts.invoke },
      {
        matches: (p) => p === SUBSCRIBE_PATH || p.startsWith(`${SUBSCRIBE_PATH}/`),
        access: 'read',
        handler: parts.subscribe,
      },
    ];
    this.files = { matches: () => true, access: 'read', handler: parts.files };
  }

  register(server: Server): void {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    try {
      // An acknowledge link carries its own one-time authority (web/ack-page.ts): any Host, no session.
      const ack = this.parts.ack ? ACK_PATH.exec(new URL(req.url ?? '/', 'http://x').pathname) : null;
      if (ack && this.parts.ack) {
        await answerAck(req, res, ack[1]!, this.parts.ack);
        return;
      }
      const who = this.parts.auth.admit(req, res);
      if (!who) return;
      const route = this.routes.find((x) => x.matches(who.url.pathname)) ?? this.files;
      const refused = this.parts.auth.refusal(who, route.access);
      if (refused) {
        sendError(res, refused);
        return;
      }
      await route.handler.handle(req, res, who.url, startedAt);
    } catch (err) {
      if (res.headersSent) res.destroy();
      // A malformed percent-escape (`/%`, `/%ff%fe`) is the caller's mistake, not ours.
      else if (err instanceof URIError)
        sendError(res, { kind: 'bad-request', message: 'the address is not valid (a malformed %-escape)' });
      else {
        this.parts.log(
          `internal error serving a request: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
        sendError(res, INTERNAL);
      }
    }
  }
}
