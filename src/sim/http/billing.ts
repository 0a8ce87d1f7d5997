import { priceOf, STREAM_CREDITS_PER_KB } from '../../shared/credit-prices';

/**
 * What one key has cost since the sim started, as the real service would bill it:
 * every REST request answered with a 2xx at its published price (the margin endpoints at the
 * estimate the app's own meter counts them at), and every byte a stream response carried,
 * heartbeats included (the client receives them), at STREAM_CREDITS_PER_KB. Bytes are kept
 * exact and turned into credits only here, so the figure is not rounded per write.
 */
export interface Bill {
  /** The key's first 4 characters: a bill may be printed or shown, the key may not. */
  key: string;
  /** When the counting started (UNIX ms): the sim's start. */
  since: number;
  requests: number;
  requestCredits: number;
  /** By spec path pattern (`*` for a path parameter), as the price table names them. */
  byPath: Record<string, { requests: number; credits: number }>;
  streamedBytes: number;
  streamCredits: number;
  total: number;
  openStreams: number;
  /** The most streams the key had open at once: a plan's stream limit holds if this never passed it. */
  maxOpenStreams: number;
}

/** One open stream's share of its key's bill. */
export interface StreamMeter {
  /** Bytes written on the response (body bytes, as the client reads them). */
  bytes(n: number): void;
  closed(): void;
}

interface Account {
  requests: number;
  requestCredits: number;
  byPath: Map<string, { requests: number; credits: number }>;
  streamedBytes: number;
  openStreams: number;
  maxOpenStreams: number;
}

/** The key as a bill shows it: enough to tell keys apart, too little to use one. */
export function maskKey(key: string): string {
  return `${key.slice(0, 4)}…`;
}

/** The per-key bills of one sim. Requests refused (401, 429, any 4xx) never reach it. */
export class Billing {
  private readonly accounts = new Map<string, Account>();

  constructor(readonly since = Date.now()) {}

  /** A REST request to `path` (its raw spec path), routed as `pattern`, answered with a 2xx. */
  request(key: string, pattern: string, path: string): void {
    const a = this.account(key);
    const { credits } = priceOf(path);
    a.requests++;
    a.requestCredits += credits;
    const p = a.byPath.get(pattern) ?? { requests: 0, credits: 0 };
    p.requests++;
    p.credits += credits;
    a.byPath.set(pattern, p);
  }

  /** A stream opened with `key`: its bytes are billed to the key until `closed`. */
  stream(key: string): StreamMeter {
    const a = this.account(key);
    a.openStreams++;
    a.maxOpenStreams = Math.max(a.maxOpenStreams, a.openStreams);
    let open = true;
    return {
      bytes(n) {
        a.streamedBytes += n;
      },
      closed() {
        if (!open) return;
        open = false;
        a.openStreams--;
      },
    };
  }

  /** Whether the key was ever billed (or had a stream open). */
  has(key: string): boolean {
    return this.accounts.has(key);
  }

  /** The keys billed so far, in the order they were first seen. */
  keys(): string[] {
    return [...this.accounts.keys()];
  }

  /** The key's bill: zeros for a key that has cost nothing. */
  bill(key: string): Bill {
    const a = this.accounts.get(key) ?? emptyAccount();
    const streamCredits = (a.streamedBytes / 1024) * STREAM_CREDITS_PER_KB;
    return {
      key: maskKey(key),
      since: this.since,
      requests: a.requests,
      requestCredits: a.requestCredits,
      byPath: Object.fromEntries([...a.byPath].map(([path, p]) => [path, { ...p }])),
      streamedBytes: a.streamedBytes,
      streamCredits,
      total: a.requestCredits + streamCredits,
      openStreams: a.openStreams,
      maxOpenStreams: a.maxOpenStreams,
    };
  }

  private account(key: string): Account {
    let a = this.accounts.get(key);
    if (!a) this.accounts.set(key, (a = emptyAccount()));
    return a;
  }
}

function emptyAccount(): Account {
  return { requests: 0, requestCredits: 0, byPath: new Map(), streamedBytes: 0, openStreams: 0, maxOpenStreams: 0 };
}

/** A route's path as the price table writes it: each `:param` segment becomes `*`. */
export function patternOf(segments: readonly string[]): string {
  return `/${segments.map((s) => (s.startsWith(':') ? '*' : s)).join('/')}`;
}

/** One line of a bill for a log: what it cost and how. */
export function billLine(b: Bill): string {
  const credits = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return (
    `bill ${b.key}: ${b.requests} requests ${credits(b.requestCredits)} credits, ` +
    `${b.streamedBytes.toLocaleString('en-US')} bytes streamed ${credits(b.streamCredits)} credits, ` +
    `total ${credits(b.total)} credits; streams open ${b.openStreams}, at most ${b.maxOpenStreams}`
  );
}
