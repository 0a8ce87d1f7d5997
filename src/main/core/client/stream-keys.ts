/**
 * Stream keys (docs/service.md, Stream keys): the real service's stream clients take a key of their own, separate
 * from the REST api-key, and deployments may configure one per pool. A stream uses its pool's key,
 * else the stream key, else the api-key. Kept like the api-key (a SecretStore, JSON of this shape)
 * and never returned to the renderer: Settings says only whether they are set, and for which pools.
 */
export interface StreamKeys {
  /** For every stream without a key of its own. */
  all?: string;
  /** Per pool name (the pool stream), over `all`. */
  pools?: Record<string, string>;
}

export const POOL_NAME = /^[A-Za-z0-9_]{1,64}$/;
const MAX_KEY_CHARS = 512;

/** The key a stream uses: margin (`pool` undefined) or one pool's; undefined: the api-key. */
export function streamKeyFor(keys: StreamKeys | undefined, pool?: string): string | undefined {
  return (pool !== undefined ? keys?.pools?.[pool] : undefined) ?? keys?.all;
}

/** Every key in `keys` (for the one redaction). */
export function allStreamKeys(keys: StreamKeys | undefined): string[] {
  return [keys?.all, ...Object.values(keys?.pools ?? {})].filter((k): k is string => typeof k === 'string' && k !== '');
}

/** A key as given by a user: trimmed, one line, not empty, not absurdly long. */
export function checkKey(value: string, from: string): string {
  const k = value.trim();
  if (k === '') throw new RangeError(`${from} is empty`);
  if (k.length > MAX_KEY_CHARS) throw new RangeError(`${from} is longer than ${MAX_KEY_CHARS} characters`);
  if (/\s/.test(k)) throw new RangeError(`${from} contains spaces or line breaks: paste the key alone`);
  return k;
}

/** `POOL=KEY,POOL=KEY` (the environment's per-pool keys). */
export function parsePoolKeys(text: string, from: string): Record<string, string> {
  const pools: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf('=');
    const pool = at > 0 ? part.slice(0, at).trim() : '';
    if (!POOL_NAME.test(pool))
      throw new RangeError(
        `${from}: "${part.slice(0, Math.max(0, at)) || part.slice(0, 20)}" is not POOL=KEY with a pool name like SUI_USDC`,
      );
    pools[pool] = checkKey(part.slice(at + 1), `${from} for ${pool}`);
  }
  return pools;
}

/** Read what a SecretStore holds; anything unreadable counts as no keys (the user sets them again). */
export function decodeStreamKeys(text: string | null): StreamKeys {
  if (!text) return {};
  try {
    const raw = JSON.parse(text) as { all?: unknown; pools?: unknown };
    const keys: StreamKeys = {};
    if (typeof raw.all === 'string' && raw.all !== '') keys.all = raw.all;
    if (raw.pools && typeof raw.pools === 'object') {
      const pools = Object.entries(raw.pools as Record<string, unknown>).filter(
        ([p, k]) => POOL_NAME.test(p) && typeof k === 'string' && k !== '',
      );
      if (pools.length > 0) keys.pools = Object.fromEntries(pools) as Record<string, string>;
    }
    return keys;
  } catch {
    return {};
  }
}

/** What a SecretStore keeps: null when there is no key at all. */
export function encodeStreamKeys(keys: StreamKeys): string | null {
  const pools = Object.entries(keys.pools ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!keys.all && pools.length === 0) return null;
  return JSON.stringify({
    ...(keys.all ? { all: keys.all } : {}),
    ...(pools.length ? { pools: Object.fromEntries(pools) } : {}),
  });
}

/** `keys` with one key set or removed: the stream key (`pool` null) or a pool's. */
export function withStreamKey(keys: StreamKeys, pool: string | null, key: string | null): StreamKeys {
  if (pool === null) {
    const { all: _old, ...rest } = keys;
    return key === null ? rest : { ...rest, all: key };
  }
  const pools = { ...(keys.pools ?? {}) };
  if (key === null) delete pools[pool];
  else pools[pool] = key;
  return { ...keys, pools };
}
