import type { Settings } from '../../../shared/contract';
import type { ServiceConfig } from './http';
import type { StreamKeys } from './stream-keys';

/** The Demo network a shell started (src/sim). */
export interface DemoTarget {
  baseUrl: string;
  apiKey: string;
}

/**
 * What this run talks to, from the effective settings: the Demo network (its own key, no stream
 * keys, no pacing to protect) or the configured service with the stored keys.
 */
export function serviceConfigOf(
  s: Settings,
  demo: DemoTarget | undefined,
  keys: { apiKey: string | null; streamKeys: StreamKeys },
  hooks: { fetch?: typeof globalThis.fetch; timeoutMs?: number; onAnswered?: (specPath: string) => void } = {},
): ServiceConfig {
  const baseUrl = demo?.baseUrl ?? (s.baseUrl || 'http://127.0.0.1:9');
  return {
    baseUrl,
    streamUrl: demo?.baseUrl ?? (s.streamUrl || baseUrl),
    apiKey: keys.apiKey ?? '',
    streamKeys: demo ? undefined : keys.streamKeys,
    naming: demo ? 'spec' : s.naming,
    // The pacing protects a paid plan's limits; the Demo network runs on this machine and has none.
    requestsPerSecond: demo ? Math.max(s.requestsPerSecond, 200) : s.requestsPerSecond,
    concurrency: demo ? Math.max(s.concurrency, 8) : s.concurrency,
    fetch: hooks.fetch,
    timeoutMs: hooks.timeoutMs,
    // The Demo network is free: only the service's answers are counted.
    onAnswered: demo ? undefined : hooks.onAnswered,
  };
}

/** What makes it another service (URLs, keys, naming): a change forgets what was learnt and reconnects. */
export function serviceIdentity(c: ServiceConfig): string {
  return JSON.stringify([c.baseUrl, c.streamUrl, c.apiKey, c.streamKeys, c.naming]);
}
