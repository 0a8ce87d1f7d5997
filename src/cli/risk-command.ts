import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PortfolioSummary, PositionSummary } from '../shared/contract';
import { modelOf } from '../shared/portfolio';
import type { Pool } from '../shared/api';
import { ALL, isStable, shockPortfolio, type Shocks } from '../shared/risk-model';
import { CORE_LOCALE, POSITION_USD_DIGITS, shortIdText, timeText, usdText } from '../shared/format';
import { shockSentenceText, shocksText } from '../shared/shock-text';
import { ratioText } from '../shared/units';
import { describeForLog } from '../main/core/client/errors';
import { ServiceClient } from '../main/core/client/service-client';
import { loadAssetBook } from '../main/core/risk/asset-book';
import { managerHistory } from '../main/core/risk/manager-history';
import { OracleBook } from '../main/core/risk/oracle-book';
import { readPortfolio } from '../main/core/risk/portfolio';
import { PriceBook } from '../main/core/risk/prices';
import { PORTFOLIO_CACHE_KEY } from '../main/core/risk/risk-refresh';
import { thresholdsFrom } from '../main/core/risk/thresholds';
import { DEFAULT_SETTINGS, MemorySecretStore, SettingsService } from '../main/core/settings';
import { Store, STORE_FILE } from '../main/core/store/store';
import { parse, UsageError } from './args';
import { DEFAULT_DATA_DIR, resolveService, SERVICE_OPTIONS } from './service-options';

export const RISK_USAGE = `tidewatch risk: the watched positions under a price shock (the Portfolio's what-if)

  tidewatch risk --shock SUI=-15% [--shock ALL=-10%]... [--watch OWNER]... [--json] [--data-dir DIR]
                 [--base-url URL --api-key-file PATH ...]

  --shock ASSET=MOVE   a move of one asset's price (-15%, +20%, or -0.15); ALL moves every
                       non-stable asset; stablecoins never move. Repeat for several assets.
                       An asset the valuation does not know, or a stablecoin, is refused (exit 2).
  --watch OWNER        read these wallets now from the service (the Demo network without a key);
                       without it, the last Portfolio the store keeps is shocked (offline too).
  --json               one JSON document: each position now and shocked, and the totals.

  The same model as the Portfolio's shock panel: each position's ratio, equity and level at the
  shocked prices, and those pushed below their liquidation ratio liquidated by the protocol's rule.
  Without --watch the figures are the Portfolio's own valuation snapshot (the one every view of the
  app shows, with its time); with it, a valuation made now by the same code as the app's.`;

/** "SUI=-15%", "ALL=+20%", "DEEP=-0.1" into a Shocks object. */
export function parseShocks(specs: readonly string[]): Shocks {
  const out: Record<string, number> = {};
  for (const spec of specs) {
    const m = /^([A-Za-z0-9_*]+)=([+-]?\d+(?:\.\d+)?)(%?)$/.exec(spec.trim());
    if (!m) throw new UsageError(`--shock takes ASSET=MOVE like SUI=-15% (got "${spec}")`);
    const symbol = m[1]!.toUpperCase();
    const value = Number(m[2]);
    const move = m[3] === '%' || Math.abs(value) >= 1 ? value / 100 : value;
    if (!(move > -1) || move > 10)
      throw new UsageError(`--shock ${symbol} must be above -100% and at most +1000% (got "${spec}")`);
    out[symbol === 'ALL' || symbol === '*' ? ALL : symbol] = move;
  }
  return out;
}

/**
 * Why `shocks` name an asset no shock can move, in words that say what to do; null when each is
 * known and can move. A typo (FOO) or a stablecoin (counted at $1, never moved) would otherwise
 * answer "0 of 30 liquidated": false comfort. `known` is every asset symbol the valuation knows.
 */
export function shockAssetsError(shocks: Shocks, known: Iterable<string>): string | null {
  const symbols = new Set([...known].map((s) => s.toUpperCase()));
  const movable = [...symbols].filter((s) => !isStable(s)).sort();
  const stable = [...symbols].filter((s) => isStable(s)).sort();
  const choices = `${movable.join(', ')} (or ALL for every one of them)`;
  const none = 'Tidewatch knows no asset that moves yet: give --watch OWNER to read a wallet now, or shock ALL.';
  for (const symbol of Object.keys(shocks)) {
    if (symbol === ALL) continue;
    if (isStable(symbol))
      return `${symbol} is a stablecoin: Tidewatch counts it at $1, so a shock never moves it. ${movable.length > 0 ? `Shock ${choices} instead.` : none}`;
    if (!symbols.has(symbol))
      return movable.length > 0
        ? `Unknown asset ${symbol} in --shock. Known assets: ${choices}${stable.length > 0 ? `; stablecoins (${stable.join(', ')}) never move` : ''}. Check the spelling and run again.`
        : `Unknown asset ${symbol} in --shock. ${none}`;
  }
  return null;
}

/** Every asset symbol of these pools and of the Portfolio's positions and prices. */
function knownAssets(portfolio: PortfolioSummary, pools: readonly Pool[]): Set<string> {
  const out = new Set<string>();
  for (const p of pools) out.add(p.base_asset_symbol).add(p.quote_asset_symbol);
  for (const p of portfolio.prices) out.add(p.symbol);
  for (const w of portfolio.wallets)
    for (const p of w.positions) for (const s of [p.base_symbol, p.quote_symbol]) if (s) out.add(s);
  return out;
}

/** Money, moves and times by the product's rules (shared/format.ts), as the app writes them. */
const positionUsd = (n: number | null): string => (n === null ? '–' : usdText(n, CORE_LOCALE, POSITION_USD_DIGITS));
async function livePortfolio(
  owners: string[],
  o: Record<string, string | boolean | string[] | undefined>,
  store: Store | undefined,
): Promise<{ portfolio: PortfolioSummary; pools: Pool[] }> {
  const target = await resolveService(o as never);
  try {
    const client = new ServiceClient({
      baseUrl: target.baseUrl,
      streamUrl: target.streamUrl,
      apiKey: target.apiKey,
      streamKeys: target.streamKeys,
      naming: target.naming,
      attempts: 2,
      timeoutMs: 15_000,
    });
    const book = await loadAssetBook(client);
    const prices = new PriceBook(
      () => client,
      () => [...book.poolsById.values()],
    );
    const settings = store ? new SettingsService(store.settings, new MemorySecretStore()).get() : DEFAULT_SETTINGS;
    const deps = {
      prices,
      oracle: new OracleBook(),
      thresholds: thresholdsFrom(settings, store?.settings.thresholds() ?? {}),
      history: (id: string) => (store ? managerHistory(store.margin, id) : undefined),
    };
    const read = await readPortfolio(
      client,
      book,
      deps,
      owners.map((owner) => ({ owner, label: null, group: 'mine' as const, added_at: 0 })),
      undefined,
    );
    return { portfolio: read.portfolio, pools: [...book.poolsById.values()] };
  } finally {
    await target.sim?.close();
  }
}

export async function riskCommand(args: string[]): Promise<number> {
  const o = parse(args, {
    ...SERVICE_OPTIONS,
    shock: { type: 'string', multiple: true },
    watch: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(RISK_USAGE);
    return 0;
  }
  const shocks = parseShocks(o.shock ?? []);
  const dir = o['data-dir'] ?? DEFAULT_DATA_DIR;
  const store = existsSync(join(dir, STORE_FILE)) ? Store.open(dir) : undefined;
  let portfolio: PortfolioSummary | undefined;
  let pools: Pool[];
  try {
    if (o.watch && o.watch.length > 0) {
      try {
        ({ portfolio, pools } = await livePortfolio(o.watch, o, store));
      } catch (err) {
        console.error(
          `tidewatch: the wallets could not be read: ${describeForLog(err)}. Check the service (tidewatch doctor), or leave out --watch to shock the last Portfolio kept.`,
        );
        return 1;
      }
    } else {
      portfolio = store?.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY)?.data;
      // The pools as the app last read them (the Markets view), when it did.
      pools = store?.cache.load<Pool[]>('pools')?.data ?? [];
      if (!portfolio) {
        console.error(
          `tidewatch: no Portfolio is kept in ${dir} yet. Watch a wallet in the app (or serve), or give --watch OWNER to read one now.`,
        );
        return 1;
      }
    }
  } finally {
    store?.close();
  }
  const refused = shockAssetsError(shocks, knownAssets(portfolio, pools));
  if (refused) {
    console.error(`tidewatch: ${refused}`);
    return 2;
  }
  const positions: PositionSummary[] = portfolio.wallets.flatMap((w) => w.positions).filter((p) => p.debts.length > 0);
  const { rows, totals } = shockPortfolio(positions.map(modelOf), shocks);
  if (o.json) {
    console.log(
      JSON.stringify(
        {
          shocks,
          computed_at: portfolio.computed_at,
          source: o.watch && o.watch.length > 0 ? 'read-now' : 'portfolio-snapshot',
          totals,
          positions: positions.map((p, i) => ({
            manager_id: p.manager_id,
            owner: p.owner,
            pool: p.pool_name,
            side: p.side,
            ratio: p.risk_ratio,
            assets_usd: p.collateral_usd,
            debt_usd: p.debt_usd,
            equity_usd: p.equity_usd,
            liquidation_price: p.liquidation_price,
            distance_pct: p.distance_pct,
            level: p.level,
            valued_at: p.valued_at,
            shocked: rows[i],
          })),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  console.log(
    `Tidewatch risk: ${shocksText(shocks, CORE_LOCALE) || 'no shock'}, from the valuation of ${timeText(portfolio.computed_at, CORE_LOCALE)} (${o.watch && o.watch.length > 0 ? 'read now from the service' : "the Portfolio's, as the app last kept it"})`,
  );
  console.log('');
  const table = positions.map((p, i) => {
    const r = rows[i]!;
    return [
      p.pool_name ?? '?',
      shortIdText(p.manager_id),
      p.side ?? '–',
      `${p.risk_ratio === null ? '–' : ratioText(p.risk_ratio)} -> ${r.ratio === null ? '–' : ratioText(r.ratio)}`,
      // A position's own money, to the cent as in the app: one rule for the column.
      `${positionUsd(p.equity_usd)} -> ${positionUsd(r.equity)}`,
      `${p.level} -> ${r.liquidated ? 'LIQUIDATED' : r.level}`,
    ];
  });
  const head = ['pool', 'manager', 'side', 'ratio', 'equity', 'level'];
  const widths = head.map((h, c) => Math.max(h.length, ...table.map((row) => row[c]!.length)));
  for (const row of [head, ...table]) console.log(row.map((x, c) => x.padEnd(widths[c]!)).join('  '));
  console.log('');
  console.log(`${shockSentenceText(shocks, totals, CORE_LOCALE)}.`);
  return 0;
}
