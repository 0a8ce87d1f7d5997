/**
 * A minimal, independent Server-Sent-Events reader for testing the sim's streams (the app's
 * own client lives in src/main/core/streams; the tests of the sim do not lean on it).
 */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export interface SseReader {
  status: number;
  messages: SseMessage[];
  comments: string[];
  /** Body bytes read so far, comments included (what a service billing per KB charges for). */
  bytes: number;
  /** Wait until `predicate` holds for the messages received so far. */
  until(predicate: (r: SseReader) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream', ...headers } });
  const reader: SseReader = {
    status: res.status,
    messages: [],
    comments: [],
    bytes: 0,
    async until(predicate, timeoutMs = 10_000) {
      const start = Date.now();
      while (!predicate(reader)) {
        if (Date.now() - start > timeoutMs) {
          throw new Error(
            `SSE condition not met in ${timeoutMs} ms (${reader.messages.length} messages, ${reader.comments.length} comments)`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => controller.abort(),
  };
  if (!res.ok || !res.body) return reader;
  const body = res.body;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    let current: SseMessage = { data: '' };
    let hasData = false;
    try {
      for await (const chunk of body) {
        reader.bytes += (chunk as Uint8Array).byteLength;
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (hasData) reader.messages.push(current);
            current = { data: '' };
            hasData = false;
          } else if (line.startsWith(':')) {
            reader.comments.push(line.slice(1).trim());
          } else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') {
              current.data = hasData ? `${current.data}\n${value}` : value;
              hasData = true;
            } else if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return reader;
}
