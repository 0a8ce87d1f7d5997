import * as v from 'valibot';
import { errorMessageOf } from '../../../shared/api';
import { backoffMs, RequestLimiter } from './limiter';
import { NAMING_PROFILES, type NamingProfileName } from './naming';
import { kindOfStatus, parseRetryAfter, redact, ServiceError } from './errors';

export interface ServiceConfig {
  baseUrl: string;
  /** Host of the streams; defaults to baseUrl. */
  streamUrl?: string;
  apiKey: string;
  naming?: NamingProfileName;
  /** Requests per second (default 10, the smallest plan's limit). */
  requestsPerSecond?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  timeoutMs?: number;
  /** Attempts for retryable failures (429, 5xx, network, timeout), including the first. */
  attempts?: number;
  fetch?: typeof fetch;
}

export type QueryValue = string | number | undefined | readonly string[];

/**
 * GET with everything decisions.md asks of the client: api-key in the query (and never in a
 * message), typed errors, timeouts, retries with backoff that honour Retry-After, client-side
 * pacing, and validation of every answer against the shared schemas.
 */
export class ServiceHttp {
  readonly limiter: RequestLimiter;
  private config: Required<Omit<ServiceConfig, 'streamUrl' | 'fetch'>> & { streamUrl: string; fetch: typeof fetch };

  constructor(config: ServiceConfig) {
    this.config = ServiceHttp.complete(config);
    this.limiter = new RequestLimiter(this.config.requestsPerSecond, this.config.concurrency);
  }

  private static complete(c: ServiceConfig) {
    return {
      baseUrl: c.baseUrl.replace(/\/+$/, ''),
      streamUrl: (c.streamUrl ?? c.baseUrl).replace(/\/+$/, ''),
      apiKey: c.apiKey,
      naming: c.naming ?? 'spec',
      requestsPerSecond: c.requestsPerSecond ?? 10,
      concurrency: c.concurrency ?? 4,
      timeoutMs: c.timeoutMs ?? 15_000,
      attempts: c.attempts ?? 4,
      fetch: c.fetch ?? globalThis.fetch,
    };
  }

  reconfigure(config: ServiceConfig): void {
    this.config = ServiceHttp.complete(config);
    this.limiter.configure(this.config.requestsPerSecond, this.config.concurrency);
  }

  get apiKey(): string {
    return this.config.apiKey;
  }

  get profile() {
    return NAMING_PROFILES[this.config.naming];
  }

  /** The URL of a spec path on the REST host (or the stream host), api-key included. */
  url(specPath: string, query: Record<string, QueryValue> = {}, host: 'rest' | 'stream' = 'rest'): string {
    const base = host === 'rest' ? this.config.baseUrl : this.config.streamUrl;
    const search = new URLSearchParams();
    for (const [k, val] of Object.entries(query)) {
      if (val === undefined) continue;
      const name = this.profile.query(k);
      if (Array.isArray(val)) for (const one of val) search.append(name, one);
      else search.append(name, String(val));
    }
    search.set('api-key', this.config.apiKey);
    return `${base}${this.profile.path(specPath)}?${search.toString()}`;
  }

  redact(text: string): string {
    return redact(text, this.config.apiKey);
  }

  async get<S extends v.GenericSchema>(specPath: string, query: Record<string, QueryValue>, schema: S): Promise<v.InferOutput<S>> {
    let attempt = 0;
    for (;;) {
      try {
        return await this.limiter.run(() => this.once(specPath, query, schema));
      } catch (err) {
        const e = err as ServiceError;
        attempt++;
        // A refused connection is rarely fixed in seconds: one quick retry, then the caller's cache.
        const attempts = e instanceof ServiceError && e.kind === 'network' ? Math.min(2, this.config.attempts) : this.config.attempts;
        if (!(e instanceof ServiceError) || !e.retryable || attempt >= attempts) throw err;
        const wait = e.retryAfterMs ?? backoffMs(attempt, 500, 8_000);
        if (e.kind === 'rate-limited') this.limiter.pauseFor(wait);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async once<S extends v.GenericSchema>(specPath: string, query: Record<string, QueryValue>, schema: S): Promise<v.InferOutput<S>> {
    const url = this.url(specPath, query);
    const shown = `GET ${this.redact(url.replace(/^https?:\/\/[^/]+/, ''))}`;
    let res: Response;
    try {
      res = await this.config.fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError') {
        throw new ServiceError('timeout', `${shown}: no answer in ${this.config.timeoutMs} ms`);
      }
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      throw new ServiceError('network', `${shown}: ${cause ?? this.redact(e.message)}`);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const reason = this.redact(errorMessageOf(body) ?? (res.statusText || `HTTP ${res.status}`));
      const kind = kindOfStatus(res.status);
      throw new ServiceError(kind, `${shown}: ${res.status} ${reason}`, res.status, kind === 'rate-limited' ? parseRetryAfter(res.headers.get('retry-after')) : undefined);
    }
    if (body === undefined) throw new ServiceError('invalid-response', `${shown}: the answer is not JSON`, res.status);
    const parsed = v.safeParse(schema, this.profile.toSpec(body));
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const path = v.getDotPath(issue) ?? '(root)';
      throw new ServiceError('invalid-response', `${shown}: field ${path}: ${issue.message}`, res.status, undefined, path);
    }
    return parsed.output;
  }
}
