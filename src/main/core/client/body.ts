/**
 * Reading what the service sends, within bounds: a body is read chunk by chunk (fetch has already
 * decompressed it, so a gzip bomb is counted at its real size) and refused as soon as it passes
 * the limit, and any text kept from the service is cut to a length a person can read.
 */

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`the answer is larger than ${formatBytes(limit)}`);
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/** The body as text, or BodyTooLargeError once more than `maxBytes` (decompressed) have arrived. */
export async function readBounded(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  // content-length counts compressed bytes; only an uncompressed one can refuse before reading.
  if (!res.headers.get('content-encoding') && Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  if (!res.body) return '';
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  let total = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
}

/** Longest text from the service that is kept in a message (errors, statuses, alerts). */
export const MESSAGE_MAX_CHARS = 300;

/** Cut `text` to `max` characters (on a code point boundary), saying that it was cut. */
export function cutText(text: string, max = MESSAGE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const chars = Array.from(flat.slice(0, max + 1)).slice(0, max - 1);
  return `${chars.join('')}…`;
}
