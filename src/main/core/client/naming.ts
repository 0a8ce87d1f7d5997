/**
 * The service naming profile (docs/service.md, Naming profiles): the service contract says `dex`
 * where the real service says `deepbook`. Every such name is here, so switching a deployment is one
 * setting. The client always speaks spec naming (the contract's) inside; this table translates at
 * the edge.
 */
export type NamingProfileName = 'spec' | 'deepbook';

export interface NamingProfile {
  name: NamingProfileName;
  /** A spec path (`/dex/...`, `/dex-margin/...`) as the service names it. */
  path(specPath: string): string;
  /** A spec query parameter name as the service names it. */
  query(specName: string): string;
  /** An object from the service, with its field names and event types in spec naming. */
  toSpec<T>(value: T): T;
}

const DEEPBOOK_FIELDS: Record<string, string> = {
  taker_fee_is_deep: 'taker_fee_is_token',
  maker_fee_is_deep: 'maker_fee_is_token',
  deepbook_pool_id: 'dex_pool_id',
  deepbook_pool_ids: 'dex_pool_ids',
};
const DEEPBOOK_QUERY: Record<string, string> = { dexPoolId: 'deepbookPoolId' };

function renameDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameDeep);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = DEEPBOOK_FIELDS[k] ?? k;
    out[key] = k === 'type' && typeof v === 'string' ? v.replace(/^deepbook_/, 'dex_') : renameDeep(v);
  }
  return out;
}

export const NAMING_PROFILES: Record<NamingProfileName, NamingProfile> = {
  spec: {
    name: 'spec',
    path: (p) => p,
    query: (q) => q,
    toSpec: (v) => v,
  },
  deepbook: {
    name: 'deepbook',
    path: (p) =>
      p
        .replace(/^\/dex-margin\//, '/deepbook-margin/')
        .replace(/^\/dex\//, '/deepbook/')
        .replace(/\/registered-dex-pools$/, '/registered-deepbook-pools'),
    query: (q) => DEEPBOOK_QUERY[q] ?? q,
    toSpec: <T>(v: T) => renameDeep(v) as T,
  },
};
