import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describePosition } from '../../../../src/main/core/alerts/position-text';
import { positionOf, type ValuationContext } from '../../../../src/main/core/risk/positions';
import type { PositionSummary } from '../../../../src/shared/contract';
import {
  adviceAmount,
  clearOf,
  afterDeposit,
  afterRepay,
  distanceShown,
  liquidationPriceShown,
  movePct,
  priceAtRatio,
  valueAt,
  type Holdings,
  type PricePair,
} from '../../../../src/shared/risk-model';
import { BOOK, SUI, managerOf, positionArb, thresholds } from '../../../support/positions';

/** Positions below the warning threshold (1.2): each has a repair to follow. */
const below = positionArb.filter((p) => {
  const r = valueAt(p.holdings, p.prices!).ratio;
  return r !== null && r < thresholds.warning && r > 1.126;
});

/** The position valued as every view gets it, at the oracle price of `positionArb`'s. */
function valued(p: typeof below extends fc.Arbitrary<infer T> ? T : never): PositionSummary {
  const price = p.prices!.base;
  const usd = (a: string) =>
    a === SUI
      ? { symbol: 'SUI', usd: price, source: 'oracle' as const, at: 1_000 }
      : { symbol: 'USDC', usd: 1, source: 'stablecoin' as const, at: 1_000 };
  const ctx: ValuationContext = {
    book: BOOK,
    price: usd,
    exchange: usd,
    pastPrice: () => null,
    thresholds: () => thresholds,
    history: () => undefined,
    readAt: 1_000,
    now: 1_000,
  };
  return positionOf(managerOf(p, price), ctx);
}

const holdingsOf = (p: PositionSummary): Holdings => ({
  base: p.base_amount,
  quote: p.quote_amount,
  debtBase: p.debt_base,
  debtQuote: p.debt_quote,
});
const pricesOf = (p: PositionSummary): PricePair => ({ base: p.price!.usd, quote: p.quote_price!.usd });
const number = (text: string): number => Number(text.replaceAll(',', ''));

describe('advice that is safe to follow (executed as written)', () => {
  it("the alert's action, done exactly as it reads, reaches its target: each deposit and the repayment", () => {
    fc.assert(
      fc.property(below, (arb) => {
        const p = valued(arb);
        if (!p.repair) return;
        const action = describePosition(p).action;
        const m =
          /^Deposit ([\d,.]+) (\w+)(?: \(\$([\d,.]+)\))?(?: or repay ([\d,.]+) (\w+)(?: \(\$([\d,.]+)\))? from (its balance|your wallet))? → ([\d.]+)$/.exec(
            action,
          );
        expect(m, action).not.toBeNull();
        const [, deposit, depositSymbol, depositUsd, repay, repaySymbol, repayUsd, from, written] = m!;
        // The money beside an amount (a stablecoin's amount is its money) is that amount's, rounded
        // up to the cent as the amount is: never a cent under what the amount is worth.
        const priceOf = (symbol: string): number => (symbol === p.quote_symbol ? pricesOf(p).quote : pricesOf(p).base);
        for (const [a, symbol, usd] of [
          [deposit, depositSymbol, depositUsd],
          [repay, repaySymbol, repayUsd],
        ] as const) {
          if (a === undefined || usd === undefined) continue;
          const worth = number(a) * priceOf(symbol!);
          expect(number(usd) - worth, action).toBeLessThan(0.01);
          expect(number(usd) - worth, action).toBeGreaterThan(-1e-9);
        }
        expect(number(written!)).toBe(p.repair.target);
        // Where the warning clears; in the danger band, out of it where that is higher: the repair
        // panel's default target, so the alert and the page aim at one ratio.
        const inBand = p.risk_ratio! < p.risk_params.min_borrow;
        const clears = clearOf(p.thresholds.warning);
        expect(p.repair.target).toBe(inBand ? Math.max(clears, p.risk_params.min_borrow) : clears);
        const h = holdingsOf(p);
        const prices = pricesOf(p);
        // The target within float error (1e-12 of it: safe-round.ts EPSILON), never a unit short.
        const target = p.repair.target * (1 - 1e-12);
        const asset = depositSymbol === p.quote_symbol ? 'quote' : 'base';
        const afterDepositRatio = valueAt(afterDeposit(h, asset, number(deposit!)), prices).ratio!;
        expect(afterDepositRatio, action).toBeGreaterThanOrEqual(target);
        // Checked by hand with the figures on screen: assets in whole dollars from $10,000 (else
        // cents), the debt to the cent; from $100 of debt that check reaches the target too.
        const shownUsd = (x: number): number => (x >= 10_000 ? Math.round(x) : Math.round(x * 100) / 100);
        if (asset === 'quote' && p.debt_usd! >= 100) {
          const byHand = (shownUsd(p.collateral_usd!) + number(deposit!) * prices.quote) / shownUsd(p.debt_usd!);
          expect(byHand, `${action}, by hand`).toBeGreaterThanOrEqual(p.repair.target);
        }
        // The other asset's deposit, as the repair panel lists it, reaches it too.
        for (const d of p.repair.deposits) {
          const a = d.symbol === p.quote_symbol ? 'quote' : 'base';
          expect(valueAt(afterDeposit(h, a, d.amount), prices).ratio!).toBeGreaterThanOrEqual(target);
        }
        if (repay) {
          const inBase = h.debtBase > 0 && h.debtQuote <= 0;
          expect(repaySymbol).toBe(inBase ? p.base_symbol : p.quote_symbol);
          // From its balance: repaid as the protocol does, assets and debt falling together, and
          // only where it holds that much. From the wallet: deposited first, then repaid.
          const y = number(repay);
          if (from === 'its balance') expect(y, action).toBeLessThanOrEqual(inBase ? h.base : h.quote);
          const start = from === 'its balance' ? h : afterDeposit(h, inBase ? 'base' : 'quote', y);
          const r = valueAt(afterRepay(start, y), prices).ratio;
          // No debt left (all repaid) has no ratio: nothing can be liquidated.
          if (r !== null) expect(r, action).toBeGreaterThanOrEqual(target);
        }
      }),
      {
        numRuns: 1000,
        // 0.00859809 SUI held, 0.0086 SUI (rounded up to be shown) to repay: "from its balance"
        // asked for more than it holds; the wallet's deposit-then-repay is the advice there.
        examples: [
          [
            {
              manager_id: 'm',
              base_symbol: 'SUI',
              quote_symbol: 'USDC',
              holdings: {
                base: 0.008598093499999999,
                quote: 49.90026573051182,
                debtBase: 0.017864440499999995,
                debtQuote: 0,
              },
              prices: { base: 4305.932610824075, quote: 1 },
              params: { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 },
              thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
            },
          ],
        ],
      },
    );
  });

  it('a liquidation price and its distance round toward the danger: the shown price is met first', () => {
    fc.assert(
      fc.property(positionArb, (arb) => {
        const p = valued(arb);
        if (p.liquidation_price === null || p.distance_pct === null) return;
        const h = holdingsOf(p);
        const prices = pricesOf(p);
        const truth = priceAtRatio(h, prices.quote, p.liquidation_ratio)!;
        // Between the price now and the true liquidation price, or on it.
        // (A hair of float error, 1e-9 of the last digit shown, is not a digit: safe-round.ts EPSILON.)
        const long = truth < prices.base;
        if (long) expect(p.liquidation_price).toBeGreaterThanOrEqual(truth * (1 - 1e-9));
        else expect(p.liquidation_price).toBeLessThanOrEqual(truth * (1 + 1e-9));
        // At the shown price the position is not yet liquidated.
        const there = valueAt(h, { ...prices, base: p.liquidation_price }).ratio!;
        expect(there).toBeGreaterThanOrEqual(p.liquidation_ratio * (1 - 1e-9));
        // The distance is never farther than the truth's, at the one decimal every view shows.
        expect(Math.abs(p.distance_pct)).toBeLessThanOrEqual(Math.abs(movePct(prices.base, truth)!) + 1e-9);
        expect(Number(p.distance_pct.toFixed(1))).toBe(p.distance_pct);
      }),
      {
        numRuns: 1000,
        // A short of SUI at $0.01015 on a 0.0001 tick: at the tick's decimals its liquidation price
        // rounded toward the price now went past it (distance 0.5 % against a true 0.44 %).
        examples: [
          [
            {
              manager_id: 'm',
              base_symbol: 'SUI',
              quote_symbol: 'USDC',
              holdings: { base: 0, quote: 86.92307692307699, debtBase: 7578.065498865201, debtQuote: 0 },
              prices: { base: 0.01015075376883402, quote: 1 },
              params: { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 },
              thresholds: { warning: 1.2, critical: 1.15, near_pct: 3 },
            },
          ],
        ],
      },
    );
  });

  it('rounds amounts up at the digits shown, prices toward the price now, distances toward zero', () => {
    // The trader's cases: 307.4 read as "307", 30.4 as "30"; now the amount shown reaches the target.
    // At the asset's precision, as every amount of it is shown: a stablecoin's cents, 4 decimals of any other.
    expect(adviceAmount(307.3801, 'USDC', 6)).toBe(307.39);
    expect(adviceAmount(30.4, 'USDC', 6)).toBe(30.4);
    expect(adviceAmount(30.400000000000002, 'USDC', 6)).toBe(30.4); // float dust is not a unit more
    expect(adviceAmount(70.70712, 'SUI', 9)).toBe(70.7072);
    expect(adviceAmount(0.00432101, 'SUI', 9)).toBe(0.0044);
    expect(adviceAmount(12.345678, 'SUI', 1)).toBe(12.4); // never more digits than the asset has
    // Prices at their pool's tick: WAL_USDC's 0.00001, SUI_USDC's 0.0001, XBTC_USDC's 0.1.
    expect(liquidationPriceShown(0.196541, 0.2, 5)).toBe(0.19655); // a long: up, toward $0.20
    expect(liquidationPriceShown(0.196549, 0.19, 5)).toBe(0.19654); // a short: down, toward $0.19
    expect(liquidationPriceShown(3.29681, 3, 4)).toBe(3.2968); // a short: down, toward $3
    expect(liquidationPriceShown(108_757.31, 110_000, 1)).toBe(108_757.4); // a long's, up
    expect(liquidationPriceShown(108_757.39, 100_000, 1)).toBe(108_757.3); // a short's, down
    expect(distanceShown(-1.26)).toBe(-1.2);
    expect(distanceShown(4.99)).toBe(4.9);
  });
});
