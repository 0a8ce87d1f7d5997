import type { PortfolioSummary, PositionSummary, UsdPrice, WalletSummary } from '../../../src/shared/contract';
import { DAY_MS, sizeOf, valueAt, type Holdings, type RiskThresholds } from '../../../src/shared/risk-model';
import { DEFAULT_RISK_PARAMS } from '../../../src/main/core/risk/risk-params';
import { modelPosition } from './position';

/** A minute ago: the prices read "1 min ago". */
export const NOW = Date.now() - 60_000;

/** The protocol's documented defaults (docs/service.md): SHORT_SUI and LONG_DEEP are below the minimum borrow ratio. */
export const PARAMS = DEFAULT_RISK_PARAMS;

export const THRESHOLDS: RiskThresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };

export const usdc: UsdPrice = { symbol: 'USDC', usd: 1, source: 'stablecoin', at: NOW };

export const oracle = (symbol: string, usd: number, exchange: number | null = null): UsdPrice => ({
  symbol,
  usd,
  source: 'oracle',
  at: NOW,
  oracle_at: NOW - 60_000,
  learnt_from: 'ratio',
  exchange_usd: exchange,
});

const PRICE_DECIMALS: Record<string, number> = { SUI: 4, DEEP: 5, WAL: 5, XBTC: 1 };

/** A position whose every figure is the risk model's at its prices: the figures of a row agree with each other. */
export function position(
  id: string,
  pool: [string, string],
  h: Holdings,
  base: UsdPrice,
  patch: Partial<PositionSummary> = {},
): PositionSummary {
  const v = valueAt(h, { base: base.usd, quote: usdc.usd });
  return {
    ...modelPosition({
      id,
      pool,
      h,
      base,
      quote: usdc,
      params: PARAMS,
      thresholds: THRESHOLDS,
      now: NOW,
      // Its pool's tick's decimals, as on the Demo network: SUI_USDC's 0.0001, DEEP_USDC's and
      // WAL_USDC's 0.00001, XBTC_USDC's 0.1.
      priceDecimals: PRICE_DECIMALS[pool[0]] ?? 4,
      pnl: {
        net_deposited_usd: v.equity - 100,
        pnl_usd: 100,
        break_even_price: base.usd - 100 / sizeOf(h),
        break_even_moved_at: null,
        estimated: false,
        note: null,
      },
      interest: {
        apr: 0.082,
        apr_source: 'curve',
        accrued: 12.5,
        accrued_usd: 12.5,
        symbol: pool[1],
        liquidation_in_ms: null,
      },
    }),
    ...patch,
  };
}

export const SUI = oracle('SUI', 3.5, 3.41);

export const DEEP = oracle('DEEP', 0.05);

/** Long SUI at 1.25 (ok), short SUI at 1.19 (warning), long DEEP at 1.136 (critical, 1 % from liquidation). */
export const LONG_SUI = position(
  '0xlong',
  ['SUI', 'USDC'],
  { base: 1000, quote: 0, debtBase: 0, debtQuote: 2800 },
  SUI,
  {
    exchange_view: { base_usd: 3.41, quote_usd: 1, ratio: 3410 / 2800, difference_pct: -2.57 },
  },
);

export const SHORT_SUI = position(
  '0xshort',
  ['SUI', 'USDC'],
  { base: 0, quote: 5000, debtBase: 1200, debtQuote: 0 },
  SUI,
  {
    pnl: {
      net_deposited_usd: 600,
      pnl_usd: 200,
      break_even_price: 3.5 + 200 / 1200,
      // A liquidation an hour ago moved it.
      break_even_moved_at: NOW - 3_600_000,
      estimated: true,
      note: "Some SUI moves are valued at the nearest price Tidewatch knows, not their own time's.",
    },
    interest: {
      apr: 0.121,
      apr_source: 'observed',
      accrued: 3.2,
      accrued_usd: 11.2,
      symbol: 'SUI',
      liquidation_in_ms: 12 * DAY_MS + 3_600_000,
    },
  },
);

export const LONG_DEEP = position(
  '0xdeep',
  ['DEEP', 'USDC'],
  { base: 100_000, quote: 0, debtBase: 0, debtQuote: 4400 },
  DEEP,
  {
    pnl: {
      net_deposited_usd: null,
      pnl_usd: null,
      break_even_price: null,
      break_even_moved_at: null,
      estimated: false,
      note: 'Opened before the history Tidewatch keeps: its deposits are not known.',
    },
  },
);

/**
 * Long WAL on WAL_USDC (tick 0.00001) and short XBTC on XBTC_USDC (tick 0.1), above $10,000 each:
 * their prices at their ticks ("$0.19681", "$99,778.5"), their money to the cent ("$20,480.00").
 */
export const LONG_WAL = position(
  '0xwal',
  ['WAL', 'USDC'],
  { base: 100_000, quote: 0, debtBase: 0, debtQuote: 17_000 },
  oracle('WAL', 0.2048),
);

export const SHORT_XBTC = position(
  '0xxbtc',
  ['XBTC', 'USDC'],
  { base: 0, quote: 15_000, debtBase: 0.13, debtQuote: 0 },
  oracle('XBTC', 97_250),
);

export const WALLET: WalletSummary = {
  owner: '0xowner',
  label: 'Desk',
  positions: [LONG_DEEP, SHORT_SUI, LONG_SUI],
  supplies: [],
  totals: { collateral_usd: 13_500, debt_usd: 11_400, equity_usd: 2_100, supplied_usd: 0, unpriced: 0 },
};

/** The prices listed under the Portfolio, each at its pool's tick (SUI_USDC's 4, DEEP_USDC's 5), as its rows write it. */
export const SUMMARY: PortfolioSummary = {
  wallets: [WALLET],
  prices: [
    { ...SUI, price_decimals: 4 },
    { ...DEEP, price_decimals: 5 },
    { ...usdc, price_decimals: null },
  ],
  computed_at: NOW,
};

/** Settings on the Demo network, without an API key. */
export { DEMO_SETTINGS as SETTINGS } from './settings';

/** "$2,625.00" -> 2625; "−$26.25" -> -26.25. */
export const money = (text: string): number => Number(text.replace(/[^\d.\u2212-]/g, '').replace('\u2212', '-'));
