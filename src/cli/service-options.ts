import { homedir } from 'node:os';
import { join } from 'node:path';
import { startSim, type RunningSim } from '../sim';
import { UsageError } from './args';
import type { StreamKeys } from '../main/core/client/stream-keys';
import { API_KEY_ENV, KEY_MOVED_ENV, readApiKey, readStreamKeys, STREAM_KEY_MOVED_ENV } from './api-key';
import { randomBytes } from 'node:crypto';

/** The options every command that talks to the service shares. */
export const SERVICE_OPTIONS = {
  'base-url': { type: 'string' },
  'stream-url': { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  'stream-key': { type: 'string' },
  'stream-key-file': { type: 'string' },
  naming: { type: 'string' },
  seed: { type: 'string' },
  speed: { type: 'string' },
} as const;

export const DEFAULT_DATA_DIR = join(homedir(), '.tidewatch');

export interface ServiceTarget {
  network: 'demo' | 'custom';
  baseUrl: string;
  streamUrl: string;
  apiKey: string;
  /** Keys of the streams, when they take their own (none: the api-key). */
  streamKeys: StreamKeys;
  naming: 'spec' | 'deepbook';
  /** Set when the Demo network was started in this process. */
  sim?: RunningSim;
  /** Demo network options, as given. */
  speed?: number;
  seed?: number;
}

function checkUrl(name: string, value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL (got "${value}")`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * Without a key and URLs: the Demo network (src/sim) in this process on a random loopback port.
 * With them: the service they name.
 */
export async function resolveService(
  o: {
    'base-url'?: string;
    'stream-url'?: string;
    'api-key'?: string;
    'api-key-file'?: string;
    'stream-key'?: string;
    'stream-key-file'?: string;
    naming?: string;
    seed?: string;
    speed?: string;
  },
  opts: { startDemo?: boolean } = {},
): Promise<ServiceTarget> {
  const naming = (o.naming ?? 'spec') as 'spec' | 'deepbook';
  if (naming !== 'spec' && naming !== 'deepbook')
    throw new UsageError(`--naming must be spec or deepbook (got "${o.naming}")`);
  const keyGiven = o['api-key'] !== undefined || o['api-key-file'] !== undefined || process.env[KEY_MOVED_ENV] === '1';
  const streamKeyGiven =
    o['stream-key'] !== undefined || o['stream-key-file'] !== undefined || process.env[STREAM_KEY_MOVED_ENV] === '1';
  if (o['base-url'] || o['stream-url'] || keyGiven || streamKeyGiven) {
    if (!o['base-url'])
      throw new UsageError('the real service needs --base-url (and --stream-url if streams live elsewhere)');
    const baseUrl = checkUrl('base-url', o['base-url']);
    const apiKey = await readApiKey(o, { prompt: true });
    if (apiKey === undefined) {
      throw new UsageError(
        `the real service needs a key: set ${API_KEY_ENV}, or give --api-key-file PATH (or run in a terminal to be asked)`,
      );
    }
    return {
      network: 'custom',
      baseUrl,
      streamUrl: o['stream-url'] ? checkUrl('stream-url', o['stream-url']) : baseUrl,
      apiKey,
      streamKeys: readStreamKeys(o),
      naming,
    };
  }
  const speed = o.speed === undefined ? 1 : Number(o.speed);
  if (!(speed > 0)) throw new UsageError(`--speed must be a positive number (got "${o.speed}")`);
  const seed = o.seed === undefined ? undefined : Number(o.seed);
  if (seed !== undefined && !Number.isInteger(seed))
    throw new UsageError(`--seed must be an integer (got "${o.seed}")`);
  if (opts.startDemo === false)
    return { network: 'demo', baseUrl: '', streamUrl: '', apiKey: '', streamKeys: {}, naming: 'spec', speed, seed };
  const apiKey = randomBytes(12).toString('hex');
  const sim = await startSim({ apiKeys: [apiKey], port: 0, host: '127.0.0.1', speed, seed });
  return {
    network: 'demo',
    baseUrl: sim.url,
    streamUrl: sim.url,
    apiKey,
    streamKeys: {},
    naming: 'spec',
    sim,
    speed,
    seed,
  };
}
