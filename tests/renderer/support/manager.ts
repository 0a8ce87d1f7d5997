import { defineComponent, h } from 'vue';
import type { PositionSummary, RiskParams } from '../../../src/shared/contract';
import {
  breakEvenOf,
  timeToLiquidationByInterest,
  type Holdings,
  type PricePair,
} from '../../../src/shared/risk-model';
import { DEFAULT_RISK_PARAMS } from '../../../src/main/core/risk/risk-params';
import { modelPosition } from './position';

/** The protocol's documented defaults (docs/service.md), as the service publishes them. */
export const PARAMS: RiskParams = { ...DEFAULT_RISK_PARAMS, source: 'service' };

export const NOW = Date.parse('2026-11-25T12:00:00Z');

/**
 * A position as main sends it, every figure from the risk model: by default long 1,000 SUI at
 * $2.50 with 200 USDC held and 1,900 USDC owed (ratio 2,700 / 1,900 = 1.421, under the 1.5 warning).
 */
export function position(
  o: {
    id?: string;
    h?: Holdings;
    p?: PricePair;
    apr?: number | null;
    net?: number;
    pool?: string;
    /** When a liquidation moved the break-even price. */
    movedAt?: number;
    thresholds?: { warning: number; critical: number; near_pct: number | null };
  } = {},
): PositionSummary {
  const h = o.h ?? { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 };
  const p = o.p ?? { base: 2.5, quote: 1 };
  const apr = o.apr === undefined ? 0.12 : o.apr;
  const rates = { base: h.debtBase > 0 ? apr : null, quote: h.debtQuote > 0 ? apr : null };
  const debt =
    h.debtBase > 0
      ? { symbol: 'SUI', amount: h.debtBase, usd: h.debtBase * p.base }
      : { symbol: 'USDC', amount: h.debtQuote, usd: h.debtQuote * p.quote };
  const { pnl, breakEven } = breakEvenOf(h, p, o.net ?? 600);
  const [base, quote] = (o.pool ?? 'SUI_USDC').split('_') as [string, string];
  return {
    ...modelPosition({
      id: o.id ?? `0x7c36${'0'.repeat(58)}de`,
      pool: ['SUI', 'USDC'],
      h,
      base: {
        symbol: 'SUI',
        usd: p.base,
        source: 'oracle',
        at: NOW,
        oracle_at: NOW - 5 * 60_000,
        learnt_from: 'ratio',
        exchange_usd: p.base,
      },
      quote: { symbol: 'USDC', usd: p.quote, source: 'stablecoin', at: NOW },
      params: PARAMS,
      thresholds: o.thresholds ?? { warning: 1.5, critical: 1.25, near_pct: 3 },
      now: NOW,
      pnl: {
        net_deposited_usd: o.net ?? 600,
        pnl_usd: pnl,
        break_even_price: breakEven,
        break_even_moved_at: o.movedAt ?? null,
        estimated: false,
        note: null,
      },
      interest: {
        apr,
        apr_source: 'curve',
        accrued: debt.amount * 0.01,
        accrued_usd: debt.usd * 0.01,
        symbol: debt.symbol,
        liquidation_in_ms: apr === null ? null : timeToLiquidationByInterest(h, p, rates, PARAMS.liquidation),
      },
    }),
    pool_name: `${base}_${quote}`,
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
