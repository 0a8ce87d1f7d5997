/**
 * Every failure of the data service as one typed error (docs/service.md, Error responses).
 * Messages never contain the api-key: every text that may hold a URL passes `redact`.
 */
import { WIRE_ERRORS, type WireError } from '../../../shared/wire';

export type ServiceErrorKind =
  | 'auth'
  | 'not-found'
  | 'bad-request'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'invalid-response'
  /** The caller gave up (its AbortSignal fired): nobody is waiting for an answer. */
  | 'cancelled'
  /** A 403 that speaks of credits, quota or plan: the key is fine, the plan's allowance is used up. */
  | 'quota';

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** The request that failed (`GET /path?…`, key redacted): for logs, never shown to the user. */
  request?: string;
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly status?: number,
    /** For 429: how long the service asked us to wait. */
    readonly retryAfterMs?: number,
    /** For invalid-response: the dot path of the field at fault. */
    readonly fieldPath?: string,
  ) {
    super(message);
  }

  /** Worth another try with backoff (429, 5xx, network, timeout); never auth or bad input. */
  get retryable(): boolean {
    return this.kind === 'rate-limited' || this.kind === 'server' || this.kind === 'network' || this.kind === 'timeout';
  }

  /** What the user should do about it, for the views (shared/wire.ts WIRE_ERRORS). */
  get advice(): string {
    return WIRE_ERRORS[this.kind].advice;
  }

  /** As the page is told it (shared/wire.ts): the kind, the message and what to do. */
  toWire(): WireError {
    return { kind: this.kind, message: this.message, advice: this.advice };
  }
}

/** A 403's message that is about the plan's allowance, not the key (docs/service.md, Error responses). */
const QUOTA_WORDS = /credit|quota|plan\b|allowance|insufficient balance/i;

export function kindOfStatus(status: number, message = ''): ServiceErrorKind {
  if (status === 403 && QUOTA_WORDS.test(message)) return 'quota';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'bad-request';
}

/**
 * Every form a secret takes in text a service or a URL may echo back: raw, URL-encoded (once and
 * twice, `encodeURI` too), form-encoded (space as `+`), JSON-escaped, base64 and base64url (with
 * and without padding). Percent-escapes are matched in either case when redacting.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < 3) return [];
  const forms = new Set<string>([secret]);
  const uri = encodeURIComponent(secret);
  forms.add(uri);
  forms.add(encodeURIComponent(uri));
  forms.add(encodeURI(secret));
  forms.add(new URLSearchParams({ k: secret }).toString().slice(2));
  forms.add(JSON.stringify(secret).slice(1, -1));
  forms.add(JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'));
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  for (const b of [b64, b64.replace(/\+/g, '-').replace(/\//g, '_')]) {
    forms.add(b);
    forms.add(b.replace(/=+$/, ''));
  }
  return [...forms].filter((f) => f.length >= 3);
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form as a pattern: percent-escapes in either case (`%2b` is `%2B`). */
const formPattern = (form: string): string =>
  form
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part) =>
      /^%[0-9A-Fa-f]{2}$/.test(part)
        ? `%[${part[1]!.toLowerCase()}${part[1]!.toUpperCase()}][${part[2]!.toLowerCase()}${part[2]!.toUpperCase()}]`
        : escapeRegex(part),
    )
    .join('');

/**
 * The forms of all the secrets as two patterns: the plain ones together, and the percent-encoded
 * ones (escapes in either case), tried only on a text with a `%` in it. Every stream event passes
 * the redaction, so it makes one pass over all the secrets, not one per secret (docs/operations.md,
 * A liquidation's way to its alert, has the figures).
 */
interface SecretPatterns {
  plain: RegExp | undefined;
  encoded: RegExp | undefined;
}
const patterns = new Map<string, SecretPatterns>();
/** The secrets of the last call and their patterns: the same few secrets come with every event. */
let last: { secrets: readonly string[]; found: SecretPatterns } | undefined;
function patternsOf(secrets: readonly string[]): SecretPatterns {
  if (last && last.secrets.length === secrets.length && last.secrets.every((s, i) => s === secrets[i]))
    return last.found;
  const key = secrets.join('\0');
  let found = patterns.get(key);
  if (!found) {
    // Longest first, so a form that contains another is replaced whole.
    const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    const union = (list: string[]): RegExp | undefined =>
      list.length > 0 ? new RegExp(list.map(formPattern).join('|'), 'g') : undefined;
    const isEncoded = (f: string): boolean => /%[0-9A-Fa-f]{2}/.test(f);
    found = { plain: union(forms.filter((f) => !isEncoded(f))), encoded: union(forms.filter(isEncoded)) };
    if (patterns.size > 16) patterns.clear();
    patterns.set(key, found);
  }
  last = { secrets, found };
  return found;
}

/** An `api-key=` value in a URL or a form body; looked for only where the text names one. */
const API_KEY_PARAM = /((?:[?&]|\b)api-key=)[^&\s"'<>]*/gi;
const NAMES_API_KEY = /api-key=/i;

/**
 * The one redaction (every error, log line, status, alert, export and answer passes it): the
 * secrets in every form `secretForms` knows, and any `api-key=` value in a URL or form body.
 */
export function redact(text: string, ...secrets: Array<string | null | undefined>): string {
  let out = NAMES_API_KEY.test(text) ? text.replace(API_KEY_PARAM, '$1***') : text;
  const kept = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 3);
  if (kept.length === 0) return out;
  const { plain, encoded } = patternsOf(kept);
  // Encoded forms first: a plain form may sit inside one (a key with no character to escape).
  if (encoded && out.includes('%')) out = out.replace(encoded, '***');
  if (plain) out = out.replace(plain, '***');
  return out;
}

/** Retry-After in seconds or an HTTP date, in ms; undefined when absent or unreadable. Callers cap it. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) {
    const ms = Math.round(Number(value) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An error as one log line: the request that failed (key redacted) and what happened. */
export function describeForLog(err: unknown): string {
  if (err instanceof ServiceError) return err.request ? `${err.request}: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}
