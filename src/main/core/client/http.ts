import * as v from 'valibot';
import { errorMessageOf } from '../../../shared/api';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { BodyTooLargeError, cutText, formatBytes, readBounded } from './body';
import { kindOfStatus, parseRetryAfter, redact, ServiceError } from './errors';
import { LimiterPausedError, RequestLimiter } from './limiter';
import { NAMING_PROFILES, type NamingProfileName } from './naming';
import { allStreamKeys, streamKeyFor, type StreamKeys } from './stream-keys';

export interface ServiceConfig {
  baseUrl: string;
  /** Host of the streams; defaults to baseUrl. */
  streamUrl?: string;
  apiKey: string;
  /** Keys of the streams (the real service's are separate from the api-key); none: the api-key. */
  streamKeys?: StreamKeys;
  naming?: NamingProfileName;
  /** Requests per second (default 10, the smallest plan's limit). */
  requestsPerSecond?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Until the answer starts (connection made and headers received); default 10 s. */
  connectTimeoutMs?: number;
  /** Until the whole answer has been read; default 30 s. */
  timeoutMs?: number;
  /** Largest answer accepted, counted after decompression while reading; default 8 MB. */
  maxResponseBytes?: number;
  /** Longest wait a 429's Retry-After may impose (default 60 s); a longer one is read as this. */
  retryAfterCapMs?: number;
  /** Attempts for retryable failures (429, 5xx, network, timeout), including the first. */
  attempts?: number;
  fetch?: typeof fetch;
  /** A request the service answered with 2xx (what it charges credits for: credits/credit-meter.ts). */
  onAnswered?: (specPath: string) => void;
}

export type QueryValue = string | number | undefined | readonly string[];

/**
 * GET with everything docs/service.md asks of the client: api-key in the query (and never in a
 * message), typed errors, timeouts, retries with backoff that honour Retry-After, client-side
 * pacing, and validation of every answer against the shared schemas.
 */
export class ServiceHttp {
  readonly limiter: RequestLimiter;
  private config: Required<Omit<ServiceConfig, 'streamUrl' | 'fetch' | 'streamKeys' | 'onAnswered'>> & {
    streamUrl: string;
    fetch: typeof fetch;
    streamKeys: StreamKeys;
    onAnswered?: (specPath: string) => void;
  };

  constructor(config: ServiceConfig) {
    this.config = ServiceHttp.complete(config);
    this.limiter = new RequestLimiter(this.config.requestsPerSecond, this.config.concurrency);
  }

  private static complete(c: ServiceConfig) {
    return {
      baseUrl: c.baseUrl.replace(/\/+$/, ''),
      streamUrl: (c.streamUrl ?? c.baseUrl).replace(/\/+$/, ''),
      apiKey: c.apiKey,
      streamKeys: c.streamKeys ?? {},
      naming: c.naming ?? 'spec',
      requestsPerSecond: c.requestsPerSecond ?? 10,
      concurrency: c.concurrency ?? 4,
      connectTimeoutMs: c.connectTimeoutMs ?? 10_000,
      timeoutMs: c.timeoutMs ?? 30_000,
      maxResponseBytes: c.maxResponseBytes ?? 8 * 1024 * 1024,
      retryAfterCapMs: c.retryAfterCapMs ?? 60_000,
      attempts: c.attempts ?? 4,
      fetch: c.fetch ?? globalThis.fetch,
      onAnswered: c.onAnswered,
    };
  }

  reconfigure(config: ServiceConfig): void {
    const next = ServiceHttp.complete(config);
    // Another service or key: a pause the old one asked for no longer applies.
    if (next.baseUrl !== this.config.baseUrl || next.apiKey !== this.config.apiKey) this.limiter.clearPause();
    this.config = next;
    this.limiter.configure(this.config.requestsPerSecond, this.config.concurrency);
  }

  get apiKey(): string {
    return this.config.apiKey;
  }

  /** Whether what this client asks is charged (a service, not the free Demo network). */
  get metered(): boolean {
    return this.config.onAnswered !== undefined;
  }

  get profile() {
    return NAMING_PROFILES[this.config.naming];
  }

  /**
   * The URL of a spec path on the REST host (or the stream host), its key included: the api-key,
   * or for a stream the stream key (`pool`'s own for its pool stream) when one is set.
   */
  url(
    specPath: string,
    query: Record<string, QueryValue> = {},
    host: 'rest' | 'stream' = 'rest',
    pool?: string,
  ): string {
    const base = host === 'rest' ? this.config.baseUrl : this.config.streamUrl;
    const search = new URLSearchParams();
    for (const [k, val] of Object.entries(query)) {
      if (val === undefined) continue;
      const name = this.profile.query(k);
      if (Array.isArray(val)) for (const one of val) search.append(name, one);
      else search.append(name, String(val));
    }
    search.set(
      'api-key',
      (host === 'stream' ? streamKeyFor(this.config.streamKeys, pool) : undefined) ?? this.config.apiKey,
    );
    return `${base}${this.profile.path(specPath)}?${search.toString()}`;
  }

  /** Which key a stream (`margin`, `pool:<name>`) sends, in words, for what a refusal says. */
  streamKeyName(streamId: string): string {
    const pool = streamId.startsWith('pool:') ? streamId.slice(5) : undefined;
    if (pool !== undefined && this.config.streamKeys.pools?.[pool]) return `${pool}'s stream key`;
    return this.config.streamKeys.all ? 'the stream key' : 'the API key';
  }

  /** The keys this client sends: the API key and every stream key. */
  secrets(): Array<string | null> {
    return [this.config.apiKey, ...allStreamKeys(this.config.streamKeys)];
  }

  redact(text: string, ...more: string[]): string {
    return redact(text, ...this.secrets(), ...more);
  }

  /**
   * A call of any number of requests (a contract call, the windows of a range) within the time one
   * answer may take (`timeoutMs`) in all: its turns at the limiter, every request and every retry
   * carry one deadline, so a service that trickles its answers, or holds every slot with requests
   * of its own, costs the call one timeout and not one per request or per wait. `run` gets the
   * signal its requests must carry; when the deadline passes they fail as a `timeout` (a kept copy
   * may answer then), while the caller's own signal still makes them `cancelled`.
   */
  async withinOneTimeout<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const late = deadlineError(this.config.timeoutMs);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(late), this.config.timeoutMs);
    timer.unref();
    try {
      return await run(signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal);
    } catch (err) {
      // What stopped at the deadline without saying why (an abort error from below) says so.
      if (deadline.signal.aborted && !signal?.aborted && stoppedBySignal(err)) throw late;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One GET, retried on 429/5xx/network/timeout with backoff. A wait the service imposes
   * (Retry-After, capped) is honoured only while it is short: a longer one fails this call at
   * once as `rate-limited`, so callers answer from the cache instead of waiting.
   */
  async get<S extends v.GenericSchema>(
    specPath: string,
    query: Record<string, QueryValue>,
    schema: S,
    signal?: AbortSignal,
  ): Promise<v.InferOutput<S>> {
    let attempt = 0;
    const started = Date.now();
    for (;;) {
      signal?.throwIfAborted();
      try {
        return await this.limiter.run(() => this.once(specPath, query, schema, signal), signal);
      } catch (err) {
        if (err instanceof LimiterPausedError) {
          throw new ServiceError(
            'rate-limited',
            `The service asked to wait ${Math.ceil(err.remainingMs / 1000)} s before more requests.`,
            429,
            err.remainingMs,
          );
        }
        const e = err as ServiceError;
        attempt++;
        // A refused connection is rarely fixed in seconds: one quick retry, then the caller's cache.
        // A service that did not answer in time is not asked again in this call: the caller's
        // cache answers now, the next call tries again.
        const attempts =
          e instanceof ServiceError && e.kind === 'timeout'
            ? 1
            : e instanceof ServiceError && e.kind === 'network'
              ? Math.min(2, this.config.attempts)
              : this.config.attempts;
        if (!(e instanceof ServiceError) || !e.retryable || attempt >= attempts) throw err;
        const wait = e.retryAfterMs ?? backoffDelay(RETRY_BACKOFF, attempt - 1);
        if (e.kind === 'rate-limited') this.limiter.pauseFor(wait);
        // Retries never take a call past the total timeout.
        if (wait > MAX_INLINE_WAIT_MS || Date.now() + wait - started > this.config.timeoutMs) throw err;
        await abortableSleep(wait, signal);
      }
    }
  }

  private async once<S extends v.GenericSchema>(
    specPath: string,
    query: Record<string, QueryValue>,
    schema: S,
    signal?: AbortSignal,
  ): Promise<v.InferOutput<S>> {
    const url = this.url(specPath, query);
    const shown = `GET ${this.redact(url.replace(/^https?:\/\/[^/]+/, ''))}`;
    const { connectTimeoutMs, timeoutMs, maxResponseBytes } = this.config;
    const timer = new AbortController();
    let timedOut: 'connect' | 'total' | null = null;
    const connectTimer = setTimeout(() => {
      timedOut = 'connect';
      timer.abort();
    }, connectTimeoutMs);
    const totalTimer = setTimeout(() => {
      timedOut = 'total';
      timer.abort();
    }, timeoutMs);
    const fail = (err: unknown): ServiceError => {
      // A deadline's own reason (fetch rejects with it) is copied below: each request keeps its own.
      if (err instanceof ServiceError && err !== signal?.reason) return err;
      if (signal?.aborted) {
        // A call's deadline (withinOneTimeout) aborts with the timeout it means; the caller's signal with a cancel.
        const reason: unknown = signal.reason;
        return reason instanceof ServiceError && reason.kind === 'timeout'
          ? new ServiceError('timeout', reason.message)
          : new ServiceError('cancelled', 'The request was cancelled.');
      }
      if (timedOut === 'connect')
        return new ServiceError('timeout', `The service did not answer within ${connectTimeoutMs / 1000} s.`);
      if (timedOut === 'total')
        return new ServiceError('timeout', `The service's answer took longer than ${timeoutMs / 1000} s.`);
      if (err instanceof BodyTooLargeError)
        return new ServiceError('invalid-response', `The service's answer is larger than ${formatBytes(err.limit)}.`);
      const e = err as Error & { cause?: { code?: string } };
      return new ServiceError(
        'network',
        `The service cannot be reached (${e.cause?.code ?? cutText(this.redact(e.message), 80)}).`,
      );
    };
    try {
      const res = await this.config.fetch(url, {
        headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' },
        signal: signal ? AbortSignal.any([timer.signal, signal]) : timer.signal,
      });
      clearTimeout(connectTimer);
      if (!res.ok) {
        const text = await readBounded(res, ERROR_BODY_MAX_BYTES).catch(() => '');
        const reason = cutText(
          this.redact(errorMessageOf(parseJson(text)) ?? (res.statusText || `HTTP ${res.status}`)),
        );
        const kind = kindOfStatus(res.status, reason);
        const retryAfter = kind === 'rate-limited' ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
        throw new ServiceError(
          kind,
          `The service answered ${res.status}: ${reason}`,
          res.status,
          retryAfter === undefined ? undefined : Math.min(retryAfter, this.config.retryAfterCapMs),
        );
      }
      this.config.onAnswered?.(specPath);
      const text = await readBounded(res, maxResponseBytes).catch((err: unknown) => {
        if (err instanceof BodyTooLargeError)
          throw new ServiceError(
            'invalid-response',
            `The service's answer is larger than ${formatBytes(maxResponseBytes)}.`,
            res.status,
          );
        throw err;
      });
      // The one redaction at the door: a key the service echoes anywhere in an answer goes no further.
      const body = parseJson(this.redact(text));
      if (body === undefined)
        throw new ServiceError('invalid-response', 'The service answered with something that is not JSON.', res.status);
      const parsed = v.safeParse(schema, this.profile.toSpec(body));
      if (!parsed.success) {
        const issue = parsed.issues[0];
        const path = v.getDotPath(issue) ?? '(root)';
        throw new ServiceError(
          'invalid-response',
          `The service's answer has an unexpected field ${cutText(path, 80)}: ${cutText(issue.message)}`,
          res.status,
          undefined,
          path,
        );
      }
      return parsed.output;
    } catch (err) {
      const e = fail(err);
      e.request ??= shown;
      throw e;
    } finally {
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
    }
  }
}

/** A GET's retries without a Retry-After: the first waits up to 1 s, doubling to 8 s (full jitter). */
const RETRY_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 8_000, jitter: 'full' };
/** Waits longer than this (a 429's Retry-After) are not spent inside a call: it fails and the caller serves its cache. */
const MAX_INLINE_WAIT_MS = 5_000;
/** An error page is read only this far: its message is all we keep. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

/** What a call that ran out of its one timeout says (withinOneTimeout). */
function deadlineError(ms: number): ServiceError {
  return new ServiceError('timeout', `The service took longer than ${ms / 1000} s to answer.`);
}

/** An error that says no more than that a signal fired. */
function stoppedBySignal(err: unknown): boolean {
  if (err instanceof ServiceError) return err.kind === 'cancelled';
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
