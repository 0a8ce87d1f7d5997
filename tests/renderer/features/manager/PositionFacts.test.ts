// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../src/shared/risk-model';
import { priceSource, time, usd, usdPrice } from '../../../../src/renderer/src/format';
import PositionFacts from '../../../../src/renderer/src/features/manager/PositionFacts.vue';
import { NOW, position } from '../../support/manager';

beforeEach(() => setActivePinia(createPinia()));

describe('the position facts', () => {
  it('reads as a trade: side, size, break-even, profit, the debt explained, the rate and its source, the prices', () => {
    const p = position();
    const w = mount(PositionFacts, { props: { position: p, own: false } });
    expect(w.get('[data-testid="position-side"]').text()).toBe('Long SUI');
    expect(w.get('[data-testid="position-size"]').text()).toBe('1,000.0000 SUI');
    expect(w.get('[data-testid="position-break-even"]').text()).toBe(usdPrice(p.pnl.break_even_price));
    // A break-even, not an entry: the service reports no fills, and interest moves it.
    expect(w.text()).toContain('Break-even price');
    expect(w.text()).not.toMatch(/entry/i);
    expect(w.get('[data-testid="position-break-even-note"]').text()).toBe('where the profit is zero');
    expect(w.get('[data-testid="position-break-even"]').attributes('title')).toContain(
      'Not the price paid (the service does not report fills): it counts the interest accrued, so it rises as interest accrues.',
    );
    expect(w.get('[data-testid="position-pnl"]').text()).toBe(`+${usd(p.pnl.pnl_usd)}`);
    expect(w.text()).toContain(`+${((p.pnl.pnl_usd! / 600) * 100).toFixed(1)}\u202F% of net deposits`);
    expect(w.get('[data-testid="position-debt"]').text()).toBe('1,900.00 USDC: borrows and interest to date');
    expect(w.get('[data-testid="position-interest-accrued"]').text()).toBe(
      'of which interest since opening ≤ 19.00 USDC',
    );
    expect(w.get('[data-testid="position-apr"]').text()).toBe('12.00\u202F%');
    expect(w.text()).toContain("from the pool's rate curve");
    expect(w.get('[data-testid="position-level"]').text()).toBe('Warning');
    // Held by the hysteresis (1.53 where its warning line is 1.5): the badge says so.
    const held = mount(PositionFacts, {
      props: { position: { ...p, risk_ratio: 1.52, level: 'warning' as const }, own: false },
    });
    expect(held.get('[data-testid="position-level"]').text()).toBe('Warning · held');
    held.unmount();
    expect(w.get('[data-testid="position-price-source"]').text()).toBe(`PricesSUI $2.5000: ${priceSource(p.price!)}`);
    // Read at the fixture's NOW, the oracle's time is today's: a clock time, not a date.
    expect(priceSource(p.price!, NOW)).toMatch(/learnt from the service's risk ratios at 11:55 AM UTC/);
    expect(w.find('[data-testid="exchange-view"]').exists()).toBe(false);
  });

  it("writes what the size is worth to the cent, as the assets and debt beside it (a position's own money)", () => {
    // 8,008.0000 SUI at $2.50: $20,020.00, never "$20,020" beside "Assets $20,520.00".
    const p = position({ h: { base: 8_008, quote: 500, debtBase: 0, debtQuote: 15_000 } });
    const w = mount(PositionFacts, { props: { position: p, own: false } });
    expect(/worth (\$[\d,.]+)/.exec(w.text())?.[1]).toBe('$20,020.00');
  });

  it("says interest too small for its asset's precision in money, never '≤ 0.0000 XBTC' (issue 40)", () => {
    const base = position();
    const tiny = { ...base.interest, accrued: 0.0000178, accrued_usd: 1.73, symbol: 'XBTC' };
    const w = mount(PositionFacts, { props: { position: { ...base, interest: tiny }, own: false } });
    const cell = w.get('[data-testid="position-interest-accrued"]');
    expect(cell.text()).toBe('of which interest since opening ≤ $1.73');
    // The amount in full in its tooltip.
    expect(cell.attributes('title')).toBe('0.0000178 XBTC');
    // Not valued in money: under the least amount the asset shows.
    const unvalued = mount(PositionFacts, {
      props: { position: { ...base, interest: { ...tiny, accrued_usd: null } }, own: false },
    });
    expect(unvalued.get('[data-testid="position-interest-accrued"]').text()).toBe(
      'of which interest since opening < 0.0001 XBTC',
    );
  });

  it('writes the risk ratio as big as the facts beside it, coloured by its level, its lines in words and no bar', () => {
    // 1.421 under the 1.5 warning: the badge's level, and the number's colour.
    const w = mount(PositionFacts, { props: { position: position(), own: false } });
    const fact = w.findAll('.fact').find((f) => f.get('.label').text() === 'Risk ratio')!;
    const figure = fact.get('strong');
    expect(figure.attributes('data-testid')).toBe('position-ratio');
    expect(figure.text()).toBe('1.421');
    expect(figure.classes()).toContain('warn');
    // The lines it is judged against, each named with its ratio, in text that wraps: nothing to overlap.
    expect(fact.get('[data-testid="ratio-lines"]').text()).toBe('warning below 1.500, critical below 1.250');
    expect(fact.get('[data-testid="liquidation-ratio"]').text()).toMatch(
      /^liquidated below 1\.125 \(SUI_USDC's parameter\)$/,
    );
    // The 88 px bar whose ends ran together ("liq. 1.1252.500+") is gone from the page.
    expect(fact.find('[role="meter"]').exists()).toBe(false);
    expect(fact.text()).not.toContain('2.500+');
    // The level's full rule in its tooltip, as the badge's.
    expect(figure.attributes('title')).toBe(w.get('[data-testid="position-level"]').attributes('title'));

    const critical = position({ h: { base: 1000, quote: 0, debtBase: 0, debtQuote: 2100 } });
    expect(critical.level).toBe('critical');
    const c = mount(PositionFacts, { props: { position: critical, own: false } });
    expect(c.get('[data-testid="position-ratio"]').classes()).toContain('bad');
  });

  it('says which liquidation moved the break-even price', () => {
    const at = Date.now() - 2 * 3_600_000;
    const w = mount(PositionFacts, { props: { position: position({ movedAt: at }), own: false } });
    expect(w.get('[data-testid="position-break-even-note"]').text()).toBe(`moved by the liquidation at ${time(at)}`);
    expect(w.get('[data-testid="position-break-even"]').attributes('title')).toContain(
      `Moved by the liquidation at ${time(at)}: the loss on what it closed is carried by what is left.`,
    );
  });

  it("says when interest alone liquidates it at today's prices, or that it does not within a year", () => {
    const soon = position({ apr: 0.6 });
    const ms = soon.interest.liquidation_in_ms!;
    expect(ms).toBeGreaterThan(0);
    const w = mount(PositionFacts, { props: { position: soon, own: false } });
    expect(w.get('[data-testid="interest-liquidation"]').text()).toBe(
      `Liquidated by interest alone in ${Math.floor(ms / DAY_MS)} days at today's prices.`,
    );
    // ln(1.421 / 1.125) / 0.6 of a year: about 142 days.
    expect(Math.floor(ms / DAY_MS)).toBe(142);
    const far = mount(PositionFacts, { props: { position: position({ apr: 0.05 }), own: false } });
    expect(far.get('[data-testid="interest-liquidation"]').text()).toBe(
      "Interest alone does not liquidate it within a year at today's prices.",
    );
  });

  it('shows the profit as not known with its note, an estimate with its note, and the exchange beside the oracle', () => {
    const p = position();
    const unknown = mount(PositionFacts, {
      props: {
        position: {
          ...p,
          pnl: {
            net_deposited_usd: null,
            pnl_usd: null,
            break_even_price: null,
            break_even_moved_at: null,
            estimated: false,
            note: 'Opened before the history Tidewatch keeps.',
          },
        },
        own: false,
      },
    });
    expect(unknown.get('[data-testid="position-pnl"]').text()).toBe('—');
    expect(unknown.text()).toContain('Opened before the history Tidewatch keeps.');
    const estimated = mount(PositionFacts, {
      props: {
        position: {
          ...p,
          pnl: { ...p.pnl, estimated: true, note: 'Some SUI moves are valued at the nearest price.' },
          exchange_view: { base_usd: 2.6, quote_usd: 1, ratio: 1.474, difference_pct: 4 },
        },
        own: false,
      },
    });
    expect(estimated.get('[data-testid="position-pnl"]').text()).toBe(`≈+${usd(p.pnl.pnl_usd)}`);
    expect(estimated.get('[data-testid="position-pnl"] .est').attributes('title')).toBe(
      'Some SUI moves are valued at the nearest price.',
    );
    expect(estimated.get('[data-testid="exchange-view"]').text()).toBe(
      "Exchange SUI $2.6000 (+4.0\u202F%): ratio 1.474 at the exchange's prices",
    );
  });
});
