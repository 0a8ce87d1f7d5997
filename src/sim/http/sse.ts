import type { IncomingMessage, ServerResponse } from 'node:http';

/** A client that stops reading is cut off once this much is queued (it will reconnect and resume). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface SseConnection {
  send(data: string, id?: string): void;
  close(): void;
  /** Cut the connection abruptly, as a network failure would. */
  destroy(): void;
  readonly closed: boolean;
}

/**
 * Open a Server-Sent-Events response: no `event:` field (consumers dispatch on the JSON `type`),
 * `id:` when given, and a `: ping` comment every `heartbeatMs` so clients can tell a quiet
 * stream from a dead one. `onBytes` is told the body bytes of every write, comments included:
 * the service bills a stream by the bytes its client receives.
 */
export function openSse(
  req: IncomingMessage,
  res: ServerResponse,
  heartbeatMs: number,
  onClose: () => void,
  onBytes: (bytes: number) => void = () => {},
): SseConnection {
  req.socket.setNoDelay(true);
  req.socket.setTimeout(0);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  const write = (chunk: string): void => {
    if (closed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      conn.close();
      return;
    }
    res.write(chunk);
    onBytes(Buffer.byteLength(chunk));
  };
  write(': connected\n\n');
  const timer = setInterval(() => write(': ping\n\n'), heartbeatMs);
  const cleanup = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    onClose();
  };
  const conn: SseConnection = {
    send(data, id) {
      write(id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`);
    },
    close() {
      cleanup();
      res.end();
      res.socket?.destroySoon?.();
    },
    destroy() {
      cleanup();
      res.destroy();
    },
    get closed() {
      return closed;
    },
  };
  req.on('close', cleanup);
  res.on('error', cleanup);
  // The client may be gone already (its 'close' came before this response was opened): close once
  // the caller has what it needs to undo (its subscription, its count of open streams).
  if (req.socket.destroyed) queueMicrotask(cleanup);
  return conn;
}
