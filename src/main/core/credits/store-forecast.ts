import type { Pool } from '../../../shared/api';
import type { CreditForecast, PortfolioSummary } from '../../../shared/contract';
import { forecast, MARGIN_STREAM_PRIOR_PER_DAY, recordsReadCredits } from '../budget/cost-model';
import { thresholdsFrom } from '../risk/thresholds';
import { CADENCE_RULES } from '../risk/cadence';
import { planReads, PRICE_READ_CREDITS, readPlanOf, type GuardedPosition } from '../risk/price-schedule';
import { isStable, pricingPoolOf } from '../risk/prices';
import { PORTFOLIO_CACHE_KEY } from '../risk/risk-refresh';
import { PRIOR_DAILY_VOL } from '../risk/volatility';
import { MemorySecretStore, monthlyBudgetOf, planOf, SettingsService } from '../settings';
import type { Store } from '../store/store';
import { CREDITS_KEY, type CreditCounts } from './credit-meter';
import { guardStreamOf, liquidationsRead, POOLS_READ } from './credit-plan';
import { ESTIMATED_CREDITS } from '../../../shared/credit-prices';
import { LIQUIDATION_MAP_PRIOR_PAGES } from '../risk/liquidation-map';

/**
 * The forecast from a store alone (`tidewatch doctor`): the settings, the watch list and the last
 * Portfolio kept in the store, the exchange's pools, volatility at its prior and the margin
 * stream at its assumed cost. The running app's figure (Settings -> Credits) also uses what it
 * measured; this one is what the same settings would cost from a cold start.
 */
export function forecastFromStore(store: Store, pools: readonly Pool[], now = Date.now()): CreditForecast {
  const settings = new SettingsService(store.settings, new MemorySecretStore()).get();
  const owners = store.settings.watchList().length;
  const portfolio = store.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY)?.data;
  const thresholdsOf = thresholdsFrom(settings, store.settings.thresholds());
  const usd = new Map((portfolio?.prices ?? []).map((p) => [p.symbol, p.usd]));
  const byName = new Map(pools.map((p) => [p.pool_name, p]));
  const symbolOf = new Map(
    pools.flatMap((p) => [
      [p.base_asset_id, p.base_asset_symbol],
      [p.quote_asset_id, p.quote_asset_symbol],
    ]),
  );
  const guarded: GuardedPosition[] = [];
  for (const w of portfolio?.wallets ?? []) {
    for (const p of w.positions) {
      const pool = p.pool_name ? byName.get(p.pool_name) : undefined;
      if (!pool || !p.debt_usd) continue;
      const thresholds = thresholdsOf(p.manager_id, { liquidation: p.liquidation_ratio });
      guarded.push({ position: p, thresholds, baseAsset: pool.base_asset_id, quoteAsset: pool.quote_asset_id });
    }
  }
  const spent = store.settings.get<CreditCounts>(CREDITS_KEY)?.thisMonth ?? 0;
  const records = {
    id: 'margin records',
    intervalMs: settings.recordsRefreshSec * 1000,
    credits: recordsReadCredits(owners),
    maxMs: 86_400_000,
  };
  // The liquidation map's pages as the last run read them (the store keeps its map), else the prior.
  const liquidationsCredits =
    (store.liquidationMap.lastRead()?.pages ?? LIQUIDATION_MAP_PRIOR_PAGES) * ESTIMATED_CREDITS;
  const plan = planReads(
    guarded,
    CADENCE_RULES.guard,
    {
      monthly: monthlyBudgetOf(settings),
      spentThisMonth: spent,
      fixedPerDay: MARGIN_STREAM_PRIOR_PER_DAY,
      streamsToday: 0,
      records,
      events: [],
      pools: POOLS_READ,
      liquidations: liquidationsRead(liquidationsCredits),
    },
    {
      readable: (a) => !isStable(symbolOf.get(a) ?? '') && pricingPoolOf(pools, a) !== undefined,
      quoteUsd: (a) => (isStable(symbolOf.get(a) ?? '') ? 1 : (usd.get(symbolOf.get(a) ?? '') ?? null)),
      sigma: () => PRIOR_DAILY_VOL / Math.sqrt(86_400),
      now,
    },
  );
  return {
    ...forecast({
      plan: { name: settings.plan, plan: planOf(settings) },
      budget: monthlyBudgetOf(settings),
      marginStreamRate: null,
      reads: readPlanOf(plan, (a) => symbolOf.get(a) ?? a),
      priceCredits: PRICE_READ_CREDITS,
      owners,
      recordsCredits: recordsReadCredits(owners),
      liquidationsCredits,
      events: [],
      poolStreams: [],
      guardStream: guardStreamOf(settings),
    }),
    preview: false,
    demo: null,
  };
}
