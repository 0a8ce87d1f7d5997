import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { MARGIN_STREAM_PRIOR_PER_DAY } from '../main/core/budget/cost-model';
import { ServiceError } from '../main/core/client/errors';
import { ServiceClient } from '../main/core/client/service-client';
import { forecastFromStore } from '../main/core/credits/store-forecast';
import type { Pool } from '../shared/api';
import { CORE_LOCALE, countText, percentText } from '../shared/format';
import { SCHEMA_VERSION } from '../main/core/store/migrations';
import { Store, STORE_FILE } from '../main/core/store/store';
import { connectSse } from '../main/core/streams/sse-connection';
import { parse } from './args';
import { DEFAULT_DATA_DIR, resolveService, SERVICE_OPTIONS } from './service-options';

export const DOCTOR_USAGE = `tidewatch doctor: check each key, each endpoint family, both streams and the store

  tidewatch doctor [--base-url URL [--stream-url URL] [--api-key-file PATH] [--stream-key-file PATH]
                   [--naming spec|deepbook]] [--data-dir DIR]
                   (the key: TIDEWATCH_API_KEY, --api-key-file, or a prompt; --api-key KEY warns;
                   stream keys: TIDEWATCH_STREAM_KEY or --stream-key-file, per pool
                   TIDEWATCH_POOL_STREAM_KEYS=SUI_USDC=KEY,...)

  Each key is checked against what it is used for: the api-key on REST, the stream key (or the
  api-key when there is none) on both streams, each pool's own stream key on that pool's stream.

  Without a key and URLs it checks the Demo network. Exit code 0 when every check passes.`;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The service could not be reached at all (not a refusal). */
  unreachable?: boolean;
}

async function check(name: string, run: () => Promise<string>): Promise<Check> {
  const started = Date.now();
  try {
    const detail = await run();
    return { name, ok: true, detail: `${detail} (${Date.now() - started} ms)` };
  } catch (err) {
    const e = err as Error;
    const advice =
      err instanceof ServiceError && err.kind !== 'network' && err.kind !== 'timeout' ? ` ${err.advice}` : '';
    const unreachable = err instanceof ServiceError && (err.kind === 'network' || err.kind === 'timeout');
    return { name, ok: false, detail: `${e.message}${advice}`, unreachable };
  }
}

function streamCheck(
  client: ServiceClient,
  path: string,
  query: Record<string, string>,
  pool?: string,
): Promise<string> {
  const url = client.http.url(path, query, 'stream', pool);
  const keyName = client.http.streamKeyName(pool === undefined ? 'margin' : `pool:${pool}`);
  return new Promise((resolve, reject) => {
    let settled = false;
    const conn = connectSse(
      url,
      {
        onOpen: () => {
          settled = true;
          conn.close();
          resolve(`${keyName} accepted: 200 text/event-stream`);
        },
        onEvent: () => {},
      },
      { watchdogMs: 20_000, redact: (s) => client.http.redact(s) },
    );
    void conn.done.then((end) => {
      if (!settled) reject(new Error(`${end.message}${end.kind === 'auth' ? `: ${keyName} was rejected` : ''}`));
    });
  });
}

/**
 * The store, read only: doctor never moves, repairs or writes a store (the app does that at its
 * next start, and says so); it reports what it finds.
 */
async function storeCheck(dir: string): Promise<string> {
  const file = join(dir, STORE_FILE);
  if (!existsSync(file)) return `${dir}: no store yet (serve or the app creates it)`;
  let store: Store;
  try {
    store = Store.openReadOnly(dir);
  } catch (err) {
    throw new Error(
      `${file} cannot be opened (${(err as Error).message}). Nothing was changed; Tidewatch moves it aside and starts a new store at its next start.`,
      { cause: err },
    );
  }
  try {
    const verdict = String(store.db.pragma('quick_check', { simple: true }));
    if (verdict !== 'ok') {
      throw new Error(
        `${file} is damaged (quick_check: ${verdict.slice(0, 200)}). Nothing was changed; Tidewatch moves it aside and starts a new store at its next start.`,
      );
    }
    const version = store.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new Error(`${file} is from a newer Tidewatch (schema ${version}; this one knows ${SCHEMA_VERSION}).`);
    accessSync(dir, constants.W_OK);
    return `${dir}: ${store.margin.count()} margin events, ${store.market.count()} trades, schema ${version}${version < SCHEMA_VERSION ? ` (migrated to ${SCHEMA_VERSION} at the next start)` : ''}`;
  } finally {
    store.close();
  }
}

/**
 * What the store's settings and watch list would spend a day on the service (cost-model.ts), in
 * one line for the report and one per read below it.
 */
async function creditsForecast(dir: string, pools: Pool[], demo: boolean): Promise<string> {
  if (!existsSync(join(dir, STORE_FILE)))
    return `no store yet, nothing watched: about ${MARGIN_STREAM_PRIOR_PER_DAY} credits a day (the margin stream)`;
  let store: Store;
  try {
    store = Store.openReadOnly(dir);
  } catch {
    throw new Error(`${dir}: the store cannot be read, so no forecast (see the store check)`);
  }
  try {
    const f = forecastFromStore(store, pools);
    const share =
      f.shareOfPlanDay === null
        ? ''
        : `: ${percentText(f.shareOfPlanDay * 100, 0, CORE_LOCALE)} of the ${f.planLabel} plan's day`;
    const lines = f.lines
      .map(
        (l) =>
          `\n        ${l.what}: ${
            l.perHour === undefined
              ? `${countText(l.perDay, CORE_LOCALE)} a day`
              : l.perHour === null
                ? 'not measured yet'
                : `${countText(l.perHour, CORE_LOCALE)} an hour while open`
          } (${l.detail})`,
      )
      .join('');
    return `about ${countText(f.perDay, CORE_LOCALE)} credits a day at these settings${share}${demo ? ' (the Demo network itself is free)' : ''}${lines}\n       `;
  } finally {
    store.close();
  }
}

export async function doctorCommand(args: string[]): Promise<number> {
  const o = parse(args, { ...SERVICE_OPTIONS, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (o.help) {
    console.log(DOCTOR_USAGE);
    return 0;
  }
  const target = await resolveService(o);
  const client = new ServiceClient({
    baseUrl: target.baseUrl,
    streamUrl: target.streamUrl,
    apiKey: target.apiKey,
    streamKeys: target.streamKeys,
    naming: target.naming,
    attempts: 2,
    timeoutMs: 10_000,
  });
  const checks: Check[] = [];
  let pools: Pool[] = [];
  try {
    let pool = 'SUI_USDC';
    checks.push(
      await check('api key', async () => {
        pools = await client.pools();
        pool = pools[0]?.pool_name ?? pool;
        return `accepted; ${pools.length} pools`;
      }),
    );
    if (checks[0]!.unreachable) {
      // Nothing answers: one verdict, not the same failure once per endpoint family.
      checks[0] = {
        name: 'service',
        ok: false,
        detail: `${checks[0]!.detail} Nothing else of the service was checked: check the base URL and your network, then run doctor again.`,
      };
      checks.push(await check('store', async () => storeCheck(o['data-dir'] ?? DEFAULT_DATA_DIR)));
      return report(checks, target, client);
    }
    checks.push(
      await check(
        'nft',
        async () => `address NFTs answered (${(await client.addressNfts(`0x${'0'.repeat(64)}`)).items.length} items)`,
      ),
    );
    checks.push(
      await check('exchange', async () => {
        const depth = await client.depth(pool, 5);
        const trades = await client.trades(pool, { limit: 5 });
        const candles = await client.candles(pool, '1h', { limit: 5 });
        return `${pool}: ${depth.bids.length}+${depth.asks.length} levels, ${trades.length} trades, ${candles.length} candles`;
      }),
    );
    checks.push(
      await check('margin', async () => {
        const counts = await Promise.all([
          client.supplyReferrals({ perPage: 1 }),
          client.supplierCaps({ perPage: 1 }),
          client.marginManagers(undefined, { perPage: 1 }),
          client.liquidations(undefined, { perPage: 1 }),
          client.activeSupplies(undefined, { perPage: 1 }),
          client.activeLoans(undefined, { perPage: 1 }),
        ]);
        return `6 lists answered (${counts.map((c) => c.items.length).join('/')} items on page 0)`;
      }),
    );
    checks.push(
      await check('the margin stream', () => streamCheck(client, '/dex-margin/manager-updates', { 'last-id': '$' })),
    );
    checks.push(
      await check(`the pool stream (${pool})`, () => streamCheck(client, `/dex/${pool}/live-trades`, {}, pool)),
    );
    for (const own of Object.keys(target.streamKeys.pools ?? {}).filter((p) => p !== pool)) {
      checks.push(
        await check(`the pool stream (${own})`, () =>
          streamCheck(client, `/dex/${encodeURIComponent(own)}/live-trades`, {}, own),
        ),
      );
    }
    checks.push(await check('store', async () => storeCheck(o['data-dir'] ?? DEFAULT_DATA_DIR)));
    checks.push(
      await check('credits', async () =>
        creditsForecast(o['data-dir'] ?? DEFAULT_DATA_DIR, pools, target.network === 'demo'),
      ),
    );
  } finally {
    await target.sim?.close();
  }
  return report(checks, target, client);
}

function report(checks: Check[], target: { network: string; baseUrl: string }, client: ServiceClient): number {
  const width = Math.max(...checks.map((c) => c.name.length));
  console.log(`Tidewatch doctor: ${target.network === 'demo' ? 'Demo network' : client.http.redact(target.baseUrl)}`);
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(failed === 0 ? 'all checks passed' : `${failed} of ${checks.length} checks failed`);
  return failed === 0 ? 0 : 1;
}
