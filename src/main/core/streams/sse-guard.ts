/** What an oversized event's data is replaced with; `readIncoming` (margin-stream.ts) turns it into an invalid row. */
export const OVERSIZE_MARKER = '\u0000tidewatch-oversize:';

/** Default bound of one SSE event (all its lines together), in characters. */
export const SSE_EVENT_MAX_CHARS = 1024 * 1024;

/** The size an oversized event had, from its (replaced) data; null for a normal event. */
export function oversizeOf(data: string): number | null {
  const at = data.indexOf(OVERSIZE_MARKER);
  if (at < 0) return null;
  const n = Number(data.slice(at + OVERSIZE_MARKER.length).split('\n')[0]);
  return Number.isFinite(n) ? n : 0;
}

/**
 * Sits between the socket and the SSE parser and bounds what one event may hold. A line or an
 * event past `maxChars` is not kept: its remaining lines are dropped as they arrive (so a 300 MB
 * line costs no more memory than `maxChars`), its `id:` and `event:` lines still pass, and its
 * data becomes one marker line. The event then arrives with its id, marked as oversized: it is
 * stored as invalid and the cursor moves past it, so the events after it are not lost.
 */
export class SseSizeGuard {
  /** The current, unfinished line (only its start while it is being skipped). */
  private line = '';
  private skippingLine = false;
  /** Characters of the current event so far. */
  private eventChars = 0;
  private eventOversize = false;
  /** How many characters the oversized event really had. */
  private oversizeChars = 0;

  constructor(private readonly maxChars = SSE_EVENT_MAX_CHARS) {}

  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  private pendingCr = false;

  /** Feed decoded text; returns the text the parser may see (line ends normalised to LF). */
  feed(chunk: string): string {
    return this.passThrough(chunk) ?? this.reframe(chunk);
  }

  /**
   * The common case, without copying line by line: LF line ends only and no limit reached in this
   * chunk, so what the parser may see is the chunk itself (the unfinished last line held back).
   * Undefined when the chunk needs `reframe`; nothing has changed then.
   */
  private passThrough(chunk: string): string | undefined {
    if (this.skippingLine || this.eventOversize || this.pendingCr || chunk.includes('\r')) return undefined;
    let pos = 0;
    let lineChars = this.line.length;
    let eventChars = this.eventChars;
    for (;;) {
      const nl = chunk.indexOf('\n', pos);
      if (nl < 0) {
        if (lineChars + chunk.length - pos > this.maxChars) return undefined;
        break;
      }
      const len = lineChars + nl - pos;
      if (len > this.maxChars) return undefined;
      eventChars = len === 0 ? 0 : eventChars + len + 1;
      if (eventChars > this.maxChars) return undefined;
      lineChars = 0;
      pos = nl + 1;
    }
    const last = chunk.lastIndexOf('\n');
    this.eventChars = eventChars;
    if (last < 0) {
      this.line += chunk;
      return '';
    }
    const out = this.line + chunk.slice(0, last + 1);
    this.line = chunk.slice(last + 1);
    return out;
  }

  private reframe(chunk: string): string {
    let out = '';
    let pos = 0;
    if (this.pendingCr && chunk.startsWith('\n')) pos = 1;
    this.pendingCr = false;
    while (pos < chunk.length) {
      const nl = nextTerminator(chunk, pos);
      if (nl < 0) {
        this.partial(chunk.slice(pos));
        break;
      }
      this.partial(chunk.slice(pos, nl));
      out += this.endLine();
      if (chunk[nl] === '\r') {
        if (nl + 1 === chunk.length) this.pendingCr = true;
        pos = chunk[nl + 1] === '\n' ? nl + 2 : nl + 1;
      } else {
        pos = nl + 1;
      }
    }
    return out;
  }

  private partial(text: string): void {
    if (text.length === 0) return;
    if (this.skippingLine) {
      this.oversizeChars += text.length;
      return;
    }
    if (this.line.length + text.length > this.maxChars) {
      // Keep the line's start (to know its field) and drop the rest as it comes.
      if (!this.eventOversize) this.oversizeChars = this.eventChars;
      this.oversizeChars += this.line.length + text.length;
      this.line = (this.line + text.slice(0, 64)).slice(0, 64);
      this.skippingLine = true;
      this.eventOversize = true;
      return;
    }
    this.line += text;
  }

  private endLine(): string {
    const line = this.line;
    const skipped = this.skippingLine;
    this.line = '';
    this.skippingLine = false;
    if (skipped) return '';
    if (line.length === 0) {
      // A blank line ends the event.
      const out = this.eventOversize ? `data:${OVERSIZE_MARKER}${this.oversizeChars}\n\n` : '\n';
      this.eventChars = 0;
      this.eventOversize = false;
      this.oversizeChars = 0;
      return out;
    }
    this.eventChars += line.length + 1;
    if (this.eventOversize) this.oversizeChars += line.length + 1;
    else if (this.eventChars > this.maxChars) {
      this.eventOversize = true;
      this.oversizeChars = this.eventChars;
    }
    if (!this.eventOversize) return `${line}\n`;
    // Keep what identifies the event; drop its content.
    const field = fieldOf(line);
    return (field === 'id' || field === 'event') && line.length <= 1024 ? `${line}\n` : '';
  }
}

function nextTerminator(text: string, from: number): number {
  const n = text.indexOf('\n', from);
  const r = text.indexOf('\r', from);
  if (n < 0) return r;
  if (r < 0) return n;
  return Math.min(n, r);
}

function fieldOf(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? line : line.slice(0, colon);
}
