// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Router } from 'vue-router';
import { setApi } from '../../../../src/renderer/src/api';
import PortfolioView from '../../../../src/renderer/src/features/portfolio/PortfolioView.vue';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { time } from '../../../../src/renderer/src/format';
import { positionsToCsv } from '../../../../src/renderer/src/features/portfolio/csv';
import type { PortfolioSummary, PositionSummary } from '../../../../src/shared/contract';
import {
  LONG_DEEP,
  LONG_SUI,
  NOW,
  PARAMS,
  SUMMARY,
  SETTINGS,
  WALLET,
  money,
  oracle,
  position,
} from '../../support/portfolio';
import { settle } from '../../support/timing';

beforeEach(() => setActivePinia(createPinia()));

describe('the Portfolio: one row per position, every figure agreeing, and price shocks', () => {
  let router: Router;
  beforeEach(async () => {
    router = await routerAt('/portfolio');
  });
  const mountPortfolio = (summary: PortfolioSummary = SUMMARY) => {
    const f = fakeApi({
      settings: () => SETTINGS,
      watchList: () => [{ owner: '0xowner', label: 'Desk', added_at: 0 }],
      portfolio: () => ({ data: summary, source: 'network', fetchedAt: NOW, stale: false }),
      walletNfts: () => ({ data: { items: [], isLastPage: true }, source: 'network', fetchedAt: NOW, stale: false }),
    });
    setApi(f.api);
    return { f, w: mount(PortfolioView, { attachTo: document.body, global: { plugins: [router] } }) };
  };
  const cell = (row: ReturnType<ReturnType<typeof mountPortfolio>['w']['findAll']>[number], id: string): string =>
    row.get(`[data-testid="${id}"]`).text();

  it('shows side, size, break-even, PnL, ratio, assets, debt, equity, leverage, liquidation, APR and the level main judged', async () => {
    const { w } = mountPortfolio();
    await settle();
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => r.attributes('data-manager'))).toEqual(['0xdeep', '0xshort', '0xlong']);
    const [deep, short, long] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];
    expect(rows.map((r) => cell(r, 'row-side'))).toEqual(['Long DEEP', 'Short SUI', 'Long SUI']);
    expect(rows.map((r) => cell(r, 'row-size'))).toEqual(['100,000.0000 DEEP', '1,200.0000 SUI', '1,000.0000 SUI']);
    expect(rows.map((r) => cell(r, 'row-ratio'))).toEqual(['1.136', '1.190', '1.250']);
    expect(rows.map((r) => cell(r, 'row-level'))).toEqual(['Critical', 'Warning', 'OK']);
    // Below the pool's minimum borrow ratio (1.25): 1.136 and 1.190 are; 1.250 is at it.
    expect(rows.map((r) => r.find('[data-testid="row-band"]').exists())).toEqual([true, true, false]);
    expect(cell(deep, 'row-level')).toBe('Critical');
    expect(deep.get('[data-testid="row-level"] span').attributes('title')).toContain(
      'Ratio 1.136 is below the critical ratio',
    );
    // Assets / debt is the ratio on screen, equity their difference.
    for (const r of rows) {
      expect(money(cell(r, 'row-assets')) / money(cell(r, 'row-debt'))).toBeCloseTo(Number(cell(r, 'row-ratio')), 3);
      expect(money(cell(r, 'row-equity'))).toBeCloseTo(money(cell(r, 'row-assets')) - money(cell(r, 'row-debt')), 2);
    }
    expect(cell(long, 'row-assets')).toBe('$3,500.00');
    expect(cell(long, 'row-debt')).toBe('$2,800.00');
    expect(cell(long, 'row-equity')).toBe('$700.00');
    expect(cell(long, 'row-leverage')).toBe('5.00×');
    expect(cell(long, 'row-break-even')).toBe('break-even $3.4000');
    expect(long.get('[data-testid="row-break-even"]').attributes('title')).toContain(
      'Not the price paid (the service does not report fills)',
    );
    expect(long.find('[data-testid="row-break-even-moved"]').exists()).toBe(false);
    // The short's break-even was moved by a liquidation an hour ago: the row says which.
    expect(cell(short, 'row-break-even')).toBe('break-even $3.6667');
    expect(cell(short, 'row-break-even-moved')).toBe(`moved by the liquidation at ${time(NOW - 3_600_000)}`);
    expect(w.text()).not.toMatch(/\bentry\b/i);
    expect(cell(long, 'row-pnl')).toBe('+$100.00');
    expect(cell(long, 'row-distance')).toMatch(/^liq\. \$3\.1500\s*\u221210\.0\u202F%$/);
    expect(cell(long, 'row-apr')).toBe('8.20\u202F%');
    // The price's source in its tooltip (small text only where it is not the oracle's); the exchange beside it, never in the figures.
    expect(cell(long, 'row-price')).toContain('$3.5000');
    expect(cell(long, 'row-price')).not.toContain('oracle');
    expect(long.get('[data-testid="row-price"]').attributes('title')).toContain(
      "oracle price (learnt from the service's risk ratios at",
    );
    expect(cell(long, 'row-exchange')).toBe('exch. $3.4100 (\u22122.6\u202F%)ratio there 1.217');
    expect(short.find('[data-testid="row-exchange"]').exists()).toBe(false);
    // An estimated PnL is marked, with its note; an unknown one is a dash with its note.
    expect(cell(short, 'row-pnl')).toBe('≈+$200.00');
    expect(short.get('[data-testid="row-pnl"]').element.parentElement!.getAttribute('title')).toContain(
      'Estimated: Some SUI moves',
    );
    expect(cell(deep, 'row-pnl')).toBe('—');
    expect(deep.get('[data-testid="row-pnl"]').element.parentElement!.getAttribute('title')).toBe(
      'Opened before the history Tidewatch keeps: its deposits are not known.',
    );
    // Interest alone liquidates the short within the 30 days of the setting.
    expect(cell(short, 'row-interest-liquidates')).toBe('interest liq. in 12 d');
    expect(long.find('[data-testid="row-interest-liquidates"]').exists()).toBe(false);
    // The price line says where each price comes from, the exchange beside it.
    expect(w.get('[data-testid="prices"]').text()).toContain(
      'SUI $3.5000 (oracle price, 1 min ago; exchange $3.4100 (\u22122.6\u202F%))',
    );
    w.unmount();
  });

  it('with a shock, recomputes every row at once from the last reading (no service call) and says what it does in one sentence', async () => {
    const { f, w } = mountPortfolio();
    await settle();
    const callsBefore = f.calls.length;
    expect(w.find('[data-testid="shock-totals"]').exists()).toBe(false);
    expect(w.find('[data-testid="row-shocked-ratio"]').exists()).toBe(false);
    expect(w.findAll('input[type=range]').map((i) => i.attributes('data-testid'))).toEqual([
      'shock-slider-DEEP',
      'shock-slider-SUI',
      'shock-slider-all',
    ]);

    await w.get('[data-testid="shock-slider-SUI"]').setValue('-15');
    // SUI at $2.975: the long falls to 1.0625 and is liquidated (repaid (1.25 x 2,800 - 2,975) / 0.2 = 2,625, equity 700 -> 43.75);
    // the short rises to 5,000 / 3,570 = 1.4006, shown 1.400 (ratios round down) (equity 800 -> 1,430); DEEP does not move.
    expect(w.get('[data-testid="shock-totals"]').text()).toBe(
      'SUI \u221215\u202F%: 1 of 3 positions liquidated, $2,625.00 of debt repaid by liquidators, equity \u2212$26.25',
    );
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => cell(r, 'row-shocked-ratio'))).toEqual(['1.136', '1.400', '1.062']);
    expect(rows.map((r) => cell(r, 'row-shocked-level'))).toEqual(['Critical', 'OK', 'Liquidated']);
    expect(rows.map((r) => r.classes('liquidated'))).toEqual([false, false, true]);
    expect(cell(rows[2]!, 'row-shocked-equity')).toBe('$43.75');
    expect(cell(rows[1]!, 'row-shocked-equity')).toBe('$1,430.00');
    expect(rows[2]!.get('[data-testid="row-shocked"]').text()).toContain('$43.75 (\u2212$656.25)');
    expect(rows[0]!.get('[data-testid="row-shocked"]').text()).toContain('unchanged');
    // The row's own figures stay those of the reading.
    expect(cell(rows[2]!, 'row-ratio')).toBe('1.250');

    // Every non-stable asset down 10 % more: DEEP too.
    await w.get('[data-testid="shock-slider-all"]').setValue('-10');
    expect(w.get('[data-testid="shock-totals"]').text()).toMatch(
      /^SUI \u221215\u202F% and all non-stable assets \u221210\u202F%: 2 of 3 positions liquidated, /,
    );
    expect(f.calls.length).toBe(callsBefore);

    await w.get('[data-testid="shock-reset"]').trigger('click');
    expect(w.find('[data-testid="shock-totals"]').exists()).toBe(false);
    expect(w.find('[data-testid="row-shocked-ratio"]').exists()).toBe(false);
    w.unmount();
  });

  it("shows each row's ratio beside its pool's liquidation ratio, the one the level is judged against, as the CSV has it", async () => {
    // A trader's case: 1.353 is critical on a pool that liquidates at 1.30, 1.250 is ok on one that liquidates at 1.10.
    const near = {
      ...LONG_DEEP,
      risk_ratio: 1.3535,
      liquidation_ratio: 1.3,
      level: 'critical' as const,
      thresholds: { warning: 1.44, critical: 1.37, near_pct: 3 },
    };
    const far = {
      ...LONG_SUI,
      risk_ratio: 1.25,
      liquidation_ratio: 1.1,
      level: 'ok' as const,
      thresholds: { warning: 1.22, critical: 1.16, near_pct: 3 },
    };
    const wallet = { ...WALLET, positions: [near, far] };
    const { w } = mountPortfolio({ ...SUMMARY, wallets: [wallet] });
    await settle();
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => cell(r, 'row-ratio'))).toEqual(['1.353', '1.250']);
    // Three decimals, as every ratio is written (docs/formats.md), never "1.3" nor "1.30".
    expect(rows.map((r) => cell(r, 'row-liq-ratio'))).toEqual(['/ liq. 1.300', '/ liq. 1.100']);
    expect(rows.map((r) => cell(r, 'row-level'))).toEqual(['Critical', 'OK']);
    expect(w.get('table.positions thead').text()).toContain('Risk ratio/ liq. ratio');
    expect(rows[0]!.get('[data-testid="row-level"] span').attributes('title')).toContain('liquidated below 1.300');
    // The CSV of the same rows carries the same liquidation ratio beside the level.
    const [header, ...lines] = positionsToCsv([wallet]).trim().split('\n');
    const cols = header!.split(',');
    const at = (line: string, c: string): string => line.split(',')[cols.indexOf(c)]!;
    expect(lines.map((l) => [at(l, 'risk_ratio'), at(l, 'liquidation_ratio'), at(l, 'level')])).toEqual([
      ['1.3535', '1.3', 'critical'],
      ['1.25', '1.1', 'ok'],
    ]);
    w.unmount();
  });

  it("marks a position below its pool's minimum borrow ratio, and says what the protocol refuses there and why", async () => {
    // 10,000 WAL at $0.50 against 3,846.15 USDC: 1.300, above WAL_USDC's liquidation ratio (1.2) and
    // below its minimum borrow ratio (1.35); LONG_SUI at 1.250 is on a pool whose minimum is 1.25.
    const params = { ...PARAMS, liquidation: 1.2, target_liquidation: 1.35, min_borrow: 1.35, min_withdraw: 2.2 };
    const wal = position(
      '0xwal',
      ['WAL', 'USDC'],
      { base: 10_000, quote: 0, debtBase: 0, debtQuote: 5000 / 1.3 },
      oracle('WAL', 0.5),
      {
        liquidation_ratio: 1.2,
        risk_params: params,
        thresholds: { warning: 1.275, critical: 1.225, near_pct: 3 },
      },
    );
    const { w } = mountPortfolio({ ...SUMMARY, wallets: [{ ...WALLET, positions: [wal, LONG_SUI] }] });
    await settle();
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => cell(r, 'row-ratio'))).toEqual(['1.300', '1.250']);
    expect(rows.map((r) => cell(r, 'row-level'))).toEqual(['OK', 'OK']);
    const band = rows[0]!.get('[data-testid="row-band"]');
    expect(band.text()).toBe('borrows refused');
    expect(band.attributes('title')).toBe(
      "Ratio 1.300, below WAL_USDC's minimum borrow ratio 1.350: new borrows and withdrawals are refused (withdrawals need 2.200), since each would lower the ratio further. Deposit, repay or close part of it to get back above 1.350. Liquidated below 1.200.",
    );
    // At its pool's minimum exactly, a borrow of nothing passes: not in the band.
    expect(rows[1]!.find('[data-testid="row-band"]').exists()).toBe(false);
    w.unmount();
  });

  it("marks a wallet of the Watched group and says what its group's rule does with its alerts", async () => {
    const whale = { ...SUMMARY.wallets[0]!, owner: '0xwhale', label: 'Whale', group: 'watched' as const };
    const { w } = mountPortfolio({ ...SUMMARY, wallets: [{ ...SUMMARY.wallets[0]!, group: 'mine' }, whale] });
    await settle();
    const badges = w.findAll('[data-testid="wallet-card"]').map((c) => c.find('[data-testid="wallet-group"]'));
    expect(badges.map((b) => b.exists())).toEqual([false, true]);
    expect(badges[1]!.text()).toBe('watched');
    expect(badges[1]!.attributes('title')).toMatch(/recorded at info and told in the digest, sent to no channel/);
    w.unmount();
  });

  it('shows when its snapshot was valued, and keeps a newer pushed snapshot over an answer it overtook', async () => {
    let answer!: (v: unknown) => void;
    const f = fakeApi({
      settings: () => SETTINGS,
      watchList: () => [{ owner: '0xowner', label: 'Desk', added_at: 0 }],
      portfolio: () => new Promise((r) => (answer = r)),
      walletNfts: () => ({ data: { items: [], isLastPage: true }, source: 'network', fetchedAt: NOW, stale: false }),
    });
    setApi(f.api);
    const w = mount(PortfolioView, { attachTo: document.body, global: { plugins: [router] } });
    await settle();
    // The push of a newer snapshot arrives on its own connection before the call's answer.
    f.push('risk', { readings: [], portfolio: { ...SUMMARY, computed_at: NOW + 5_000 } });
    answer({ data: SUMMARY, source: 'network', fetchedAt: NOW, stale: false });
    await settle();
    const valued = w.get('[data-testid="valued-at"]');
    expect(valued.attributes('data-valued-at')).toBe(String(NOW + 5_000));
    expect(valued.text()).toMatch(/^valued \d{1,2}:\d\d:\d\d\s[AP]M UTC$/);
    w.unmount();
  });

  it('keeps the rows in their places while the pointer is on them, and follows the risk once it leaves', async () => {
    // Review (speed 300): 5 reorders in 18 s, another manager sliding under the cursor.
    const { f, w } = mountPortfolio();
    await settle();
    const ids = () => w.findAll('[data-testid="position-row"]').map((r) => r.attributes('data-manager'));
    expect(ids()).toEqual(['0xdeep', '0xshort', '0xlong']);
    const held = () => w.get('[data-testid="order-held"]').classes().includes('shown');
    expect(held()).toBe(false);
    await w.get('[data-testid="wallet-cards"]').trigger('pointerenter');
    expect(held()).toBe(true);
    // The next valuation puts the long first, and a new position comes: the rows stay, the new one after them.
    const [deep, short, long] = WALLET.positions as [PositionSummary, PositionSummary, PositionSummary];
    const fresh = { ...long, manager_id: '0xnew' };
    const next = (computed_at: number): PortfolioSummary => ({
      ...SUMMARY,
      wallets: [{ ...WALLET, positions: [fresh, long, short, deep] }],
      computed_at,
    });
    f.push('risk', { readings: [], portfolio: next(NOW + 5_000) });
    await settle();
    expect(ids()).toEqual(['0xdeep', '0xshort', '0xlong', '0xnew']);
    await w.get('[data-testid="wallet-cards"]').trigger('pointerleave');
    expect(ids()).toEqual(['0xnew', '0xlong', '0xshort', '0xdeep']);
    expect(held()).toBe(false);
    w.unmount();
  });
});

describe('the Portfolio of a desk: only the rows in view are in the DOM', () => {
  // 21 wallets of 10 positions: 210 rows, past the 200 from which rows are virtual.
  const wallets = Array.from({ length: 21 }, (_, i) => ({
    ...WALLET,
    owner: `0xowner${i}`,
    label: `Desk ${i}`,
    positions: Array.from({ length: 10 }, (_, k) => ({ ...LONG_SUI, manager_id: `0xm${i}-${k}` })),
  }));
  /** The Portfolio of those wallets, attached to the document. */
  async function mountDesk() {
    setApi(
      fakeApi({
        settings: () => SETTINGS,
        watchList: () => wallets.map((w) => ({ owner: w.owner, label: w.label, added_at: 0 })),
        portfolio: () => ({ data: { ...SUMMARY, wallets }, source: 'network', fetchedAt: NOW, stale: false }),
        walletNfts: () => ({ data: { items: [], isLastPage: true }, source: 'network', fetchedAt: NOW, stale: false }),
      }).api,
    );
    return mount(PortfolioView, { attachTo: document.body, global: { plugins: [await routerAt('/portfolio')] } });
  }

  it('renders the rows near the window and their spacers, and follows the scroll, with every row as it was', async () => {
    // A layout: each wallet's table body 1,000 px below the one before, rows 64 px high, a window of 800.
    let scrolled = 0;
    const { innerHeight } = window;
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
    const rect = HTMLTableSectionElement.prototype.getBoundingClientRect;
    HTMLTableSectionElement.prototype.getBoundingClientRect = function (this: HTMLTableSectionElement) {
      const i = [...document.querySelectorAll('tbody')].indexOf(this);
      const spacers = [...this.querySelectorAll<HTMLElement>('tr.spacer')].reduce(
        (a, r) => a + parseFloat(r.style.height),
        0,
      );
      const height = this.querySelectorAll('[data-testid="position-row"]').length * 64 + spacers;
      return { top: 100 + i * 1_000 - scrolled, height } as DOMRect;
    };
    try {
      const w = await mountDesk();
      const frame = async () => {
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        await settle();
      };
      await settle();
      await frame();
      const ids = () => w.findAll('[data-testid="position-row"]').map((r) => r.attributes('data-manager'));
      // The first table's 10 rows (100 px down), the second's first 3 (1,100 px down: 480 px of
      // overscan below the window's 800 reach its first 180 px); nothing of the 19 below.
      expect(ids()).toEqual([...Array.from({ length: 10 }, (_, k) => `0xm0-${k}`), '0xm1-0', '0xm1-1', '0xm1-2']);
      expect(w.findAll('[data-testid="wallet-card"]')).toHaveLength(21);
      // Each body is as tall as its rows would be: rows and spacers make 640 px.
      const bodies = w.findAll('tbody').slice(0, 21);
      for (const b of bodies) {
        const spacers = b
          .findAll('tr.spacer')
          .reduce((a, r) => a + parseFloat((r.element as HTMLElement).style.height), 0);
        expect(spacers + b.findAll('[data-testid="position-row"]').length * 64).toBe(640);
      }
      // Scrolled to the eleventh wallet: its rows, and no longer the first's.
      scrolled = 10_000;
      document.dispatchEvent(new Event('scroll'));
      await frame();
      expect(ids().filter((id) => id!.startsWith('0xm0-'))).toEqual([]);
      expect(ids().filter((id) => id!.startsWith('0xm10-'))).toHaveLength(10);
      // A row in view is the row it always was: its figures and its link.
      const row = w.get('[data-manager="0xm10-3"]');
      expect(row.get('[data-testid="row-ratio"]').text()).toBe('1.250');
      expect(row.get('[data-testid="manager-link"]').attributes('href')).toContain('0xm10-3');
      w.unmount();
    } finally {
      HTMLTableSectionElement.prototype.getBoundingClientRect = rect;
      Object.defineProperty(window, 'innerHeight', { value: innerHeight, configurable: true });
    }
  });

  it('draws a card far from the window as its name at its height, and in full once it comes near', async () => {
    // The browser's observer, told by hand: what it watches, and its callback.
    const watched: Element[] = [];
    let tell: ((entries: Array<Partial<IntersectionObserverEntry>>) => void) | undefined;
    const Before = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = class {
      constructor(cb: (entries: Array<Partial<IntersectionObserverEntry>>) => void) {
        tell = cb;
      }
      observe(el: Element): void {
        watched.push(el);
      }
      unobserve(): void {}
      disconnect(): void {}
    } as unknown as typeof IntersectionObserver;
    try {
      const w = await mountDesk();
      await settle();
      const cards = () => w.findAll('[data-testid="wallet-card"]');
      // Until the browser tells, every card is in full: nothing is hidden before it is known to be out of sight.
      expect(cards()).toHaveLength(21);
      expect(watched).toHaveLength(21);
      expect(cards().filter((c) => c.classes('placeholder'))).toHaveLength(0);
      // The first is in view, the rest 900 px tall each and out of it.
      tell!(
        watched.map((el, i) => ({
          target: el,
          isIntersecting: i === 0,
          boundingClientRect: { height: 900 } as DOMRectReadOnly,
        })),
      );
      await settle();
      const far = cards().slice(1);
      for (const [i, c] of far.entries()) {
        expect(c.classes('placeholder')).toBe(true);
        expect((c.element as HTMLElement).style.height).toBe('900px');
        expect(c.text()).toBe(`Desk ${i + 1}`);
        expect(c.findAll('[data-testid="position-row"], [data-testid="wallet-totals"]')).toHaveLength(0);
      }
      expect(cards()[0]!.classes('placeholder')).toBe(false);
      expect(cards()[0]!.find('[data-testid="wallet-totals"]').exists()).toBe(true);
      // The fifth comes near: in full again, its totals and table there.
      tell!([{ target: watched[4]!, isIntersecting: true, boundingClientRect: { height: 900 } as DOMRectReadOnly }]);
      await settle();
      expect(cards()[4]!.classes('placeholder')).toBe(false);
      expect(cards()[4]!.find('[data-testid="wallet-totals"]').exists()).toBe(true);
      expect(cards().filter((c) => c.classes('placeholder'))).toHaveLength(19);
      w.unmount();
    } finally {
      globalThis.IntersectionObserver = Before;
    }
  });
});
