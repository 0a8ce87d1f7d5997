import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTopic, type TidewatchApi, type Topic } from '../../shared/contract';
import { BASE_HEADERS, sendError, type WebHandler } from './answer';
import { PushWriter } from './push-writer';

/** Where topics are streamed: `/api/subscribe/<topic>`, or `/api/subscribe?topics=a,b,c`. */
export const SUBSCRIBE_PATH = '/api/subscribe';
/** How often an idle subscription sends a comment, so nothing on the way takes it for dead. */
const PING_MS = 15_000;

/**
 * Subscriptions as SSE, as the desktop's IpcBridge.subscribe is one over IPC: one topic per
 * connection at `/api/subscribe/<topic>` (its pushes unnamed), or several on one connection with
 * `?topics=a,b` (a browser keeps only six connections per host), each push named by its topic.
 * A new subscriber first gets the topic's initial payload, when there is one (the status).
 */
export class SubscribeHandler implements WebHandler {
  private readonly streams = new Set<ServerResponse>();

  constructor(
    private readonly api: TidewatchApi,
    /** Initial payload for a topic's new subscriber (e.g. the current status). */
    private readonly initial?: (topic: Topic) => unknown,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const single = url.pathname.length > `${SUBSCRIBE_PATH}/`.length;
    const topics = single
      ? [decodeURIComponent(url.pathname.slice(`${SUBSCRIBE_PATH}/`.length))]
      : (url.searchParams.get('topics') ?? '').split(',').filter(Boolean);
    const unknown = topics.filter((t) => !isTopic(t));
    if (topics.length === 0 || unknown.length > 0) {
      sendError(res, {
        kind: 'unknown-topic',
        message: `no topic "${unknown[0] ?? ''}" (status, margin, alerts, risk, pool:<name>)`,
      });
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...BASE_HEADERS,
    });
    res.write(': subscribed\n\n');
    this.streams.add(res);
    const writer = new PushWriter(res, single);
    const offs = (topics as Topic[]).map((topic) => {
      const first = this.initial?.(topic);
      if (first !== undefined) writer.push(topic, first);
      return this.api.subscribe(topic, (payload) => writer.push(topic, payload));
    });
    const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
    req.on('close', () => {
      clearInterval(ping);
      writer.close();
      for (const off of offs) off();
      this.streams.delete(res);
    });
  }

  /** End every open subscription (the shell is closing). */
  close(): void {
    for (const s of this.streams) s.end();
  }
}
