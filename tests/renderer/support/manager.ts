import { defineComponent, h } from 'vue';
import type { PositionSummary, RiskParams } from '../../../src/shared/contract';
import {
  entryOf,
  levelOf,
  liquidationAt,
  movePct,
  priceAtRatio,
  sideOf,
  sizeOf,
  timeToLiquidationByInterest,
  valueAt,
  type Holdings,
  type PricePair,
} from '../../../src/shared/risk-model';

export const PARAMS: RiskParams = {
  liquidation: 1.125,
  target_liquidation: 1.25,
  min_borrow: 0,
  min_withdraw: 0,
  user_reward: 0.01,
  pool_reward: 0.04,
  enabled: true,
  source: 'service',
};

export const NOW = Date.parse('2026-11-25T12:00:00Z');

/**
 * A position as main sends it, every figure from the risk model: by default long 1,000 SUI at
 * $2.50 with 200 USDC held and 1,900 USDC owed (ratio 2,700 / 1,900 = 1.421, under the 1.5 warning).
 */
export function position(
  o: { id?: string; h?: Holdings; p?: PricePair; apr?: number | null; net?: number; pool?: string } = {},
): PositionSummary {
  const h = o.h ?? { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 };
  const p = o.p ?? { base: 2.5, quote: 1 };
  const apr = o.apr === undefined ? 0.12 : o.apr;
  const v = valueAt(h, p);
  const liq = priceAtRatio(h, p.quote, PARAMS.liquidation);
  const distance = movePct(p.base, liq);
  const thresholds = { warning: 1.5, critical: 1.25, near_pct: 3 };
  const rates = { base: h.debtBase > 0 ? apr : null, quote: h.debtQuote > 0 ? apr : null };
  const owesBase = h.debtBase > 0;
  const debt = owesBase
    ? { symbol: 'SUI', amount: h.debtBase, usd: h.debtBase * p.base }
    : { symbol: 'USDC', amount: h.debtQuote, usd: h.debtQuote * p.quote };
  const { pnl, entry } = entryOf(h, p, o.net ?? 600);
  return {
    manager_id: o.id ?? `0x7c36${'0'.repeat(58)}de`,
    owner: '0xowner',
    pool_name: o.pool ?? 'SUI_USDC',
    base_symbol: 'SUI',
    quote_symbol: 'USDC',
    base_amount: h.base,
    quote_amount: h.quote,
    debts: [{ margin_pool_id: '0xmp', ...debt }],
    collateral_usd: v.assets,
    debt_usd: v.debt,
    equity_usd: v.equity,
    leverage: v.leverage,
    risk_ratio: v.ratio,
    service_ratio: v.ratio,
    liquidation_ratio: PARAMS.liquidation,
    risk_params: PARAMS,
    moving_symbol: 'SUI',
    price: {
      symbol: 'SUI',
      usd: p.base,
      source: 'oracle',
      at: NOW,
      oracle_at: NOW - 5 * 60_000,
      learnt_from: 'ratio',
      exchange_usd: p.base,
    },
    quote_price: { symbol: 'USDC', usd: p.quote, source: 'stablecoin', at: NOW },
    liquidation_price: liq,
    distance_pct: distance,
    side: sideOf(h),
    size: sizeOf(h),
    debt_base: h.debtBase,
    debt_quote: h.debtQuote,
    base_decimals: 9,
    quote_decimals: 6,
    thresholds,
    level: levelOf(v.ratio, distance, thresholds, PARAMS.liquidation),
    exchange_view: null,
    pnl: { net_deposited_usd: o.net ?? 600, pnl_usd: pnl, entry_price: entry, estimated: false, note: null },
    interest: {
      apr,
      apr_source: 'curve',
      accrued: debt.amount * 0.01,
      accrued_usd: debt.usd * 0.01,
      symbol: debt.symbol,
      liquidation_in_ms: apr === null ? null : timeToLiquidationByInterest(h, p, rates, PARAMS.liquidation),
    },
    repair: null,
    liquidation_cost: liq === null ? null : liquidationAt(h, { base: liq, quote: p.quote }, PARAMS),
    valued_at: NOW,
    updated_ms: NOW,
  };
}

export const H = { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 };

export const P = { base: 2.5, quote: 1 };

/** A chart stub that keeps the option it was given. */
export function chartProbe(options: unknown[]) {
  return defineComponent({
    props: { option: { type: Object, default: () => ({}) } },
    setup(props) {
      return () => {
        options.push(props.option);
        return h('div', { class: 'chart-probe' });
      };
    },
  });
}
