import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { startServe, type Serving } from '../../src/main/web/serve';
import { go, launchChromium, rendererBuilt } from '../support/browser';
import { tempDir, until } from '../support/monitor';
import { busiestOwners } from '../support/sim';

/**
 * One number per position at any moment (docs/valuation.md "One snapshot for every view"): on a
 * busy Demo network (speed 300, the four owners with the most managers watched), the Portfolio in
 * one tab and a manager page in another, each following the risk loop's pushes. Fifty times, the
 * manager page is opened on one of the five positions nearest liquidation (a fresh `manager`
 * answer each time) and, once both tabs show the same snapshot time, its ratio, distance, assets,
 * debt and liquidation price must read exactly as that position's Portfolio row. Every tenth read
 * waits for a newer snapshot, so the reads span five at least.
 */
const SEED = 20_251_122;
const READS = 50;
const dir = tempDir();
const watched = busiestOwners(new World({ seed: SEED }), 4);
let serving: Serving;
let browser: Browser;
let portfolio: Page;
let manager: Page;
const pageErrors: string[] = [];

/** What a tab shows of one position, and the snapshot time it shows. */
interface Shown {
  at: string | null;
  id: string | null;
  ratio: string;
  distance: string;
  liquidation: string;
  assets: string;
  debt: string;
}

/** The Portfolio's rows (one task of the page: the rows re-sort live), its time, and the five nearest liquidation. */
const readPortfolio = (): Promise<{ at: string | null; rows: Shown[]; nearest: string[] }> =>
  portfolio.evaluate(`(() => {
    const at = document.querySelector('[data-testid="view-portfolio"] [data-testid="valued-at"]')?.getAttribute('data-valued-at') ?? null;
    const text = (r, sel) => r.querySelector(sel)?.textContent?.trim() ?? '';
    const rows = Array.from(document.querySelectorAll('[data-testid="position-row"]'), (r) => ({
      at,
      id: r.getAttribute('data-manager'),
      ratio: text(r, '[data-testid="row-ratio"]'),
      distance: text(r, '[data-testid="row-distance"] .pct'),
      liquidation: text(r, '[data-testid="row-distance"] .liq').replace(/^.*liq\\. /, ''),
      assets: text(r, '[data-testid="row-assets"]'),
      debt: text(r, '[data-testid="row-debt"]'),
    }));
    const away = (r) => { const d = parseFloat(r.distance.replace('\u2212', '-')); return Number.isFinite(d) ? Math.abs(d) : Infinity; };
    const nearest = rows.filter((r) => r.debt !== '$0.00').sort((a, b) => away(a) - away(b)).slice(0, 5).map((r) => r.id);
    return { at, rows, nearest };
  })()`);

/** The manager page's figures, as its facts show them. */
const readManager = (): Promise<Shown> =>
  manager.evaluate(`(() => {
    const card = document.querySelector('[data-testid="manager-position"]');
    const fact = (label) => Array.from(card?.querySelectorAll('.fact') ?? []).find((f) => f.querySelector('.label')?.textContent?.trim() === label);
    const text = (el, sel) => el?.querySelector(sel)?.textContent?.trim() ?? '';
    return {
      at: document.querySelector('[data-testid="view-manager"] [data-testid="valued-at"]')?.getAttribute('data-valued-at') ?? null,
      id: card?.getAttribute('data-manager') ?? null,
      ratio: text(fact('Risk ratio'), 'strong'),
      distance: text(fact('Liquidation price'), '[data-testid="distance"] .pct'),
      liquidation: text(fact('Liquidation price'), '[data-testid="distance"] .liq').replace(/^.*liq\\. /, ''),
      assets: text(fact('Assets'), 'strong'),
      debt: text(fact('Debt now'), 'strong'),
    };
  })()`);

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  serving = await startServe({ port: 0, dataDir: dir.dir, demo: { speed: 300, seed: SEED }, watch: watched });
  browser = await launchChromium();
  for (const tab of ['portfolio', 'manager'] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(`${tab}: ${String(e)}`));
    await page.goto(serving.url);
    if (tab === 'portfolio') portfolio = page;
    else manager = page;
  }
});

afterAll(async () => {
  await browser?.close();
  await serving?.close();
  dir.remove();
});

describe('one valuation snapshot in every view', () => {
  it(
    `shows the same figures on the Portfolio row and the manager page, ${READS} times`,
    { timeout: 200_000 },
    async () => {
      await go(portfolio, '#/portfolio');
      await portfolio.getByTestId('position-row').first().waitFor({ timeout: 30_000 });
      const bad: string[] = [];
      const times = new Set<string>();
      let reads = 0;
      let target: string | null = null;
      let newest = 0;
      // One wait for all the reads: each step is quick (reads of both tabs, or setting the manager
      // tab's address), repeated until both tabs show the same snapshot of the position asked.
      await until(
        async () => {
          if (target === null) {
            const { nearest } = await readPortfolio();
            target = nearest[reads % nearest.length] ?? null;
            if (target !== null) await manager.evaluate(`window.location.hash = '#/manager/${target}'`);
            return false;
          }
          const before = await readPortfolio();
          const page = await readManager();
          const after = await readPortfolio();
          const row = after.rows.find((r) => r.id === target);
          // Not yet one instant: the manager page still loading, or a push reached one tab first.
          if (page.id !== target || page.at === null || page.at !== before.at || after.at !== before.at) return false;
          // Every tenth read waits for a snapshot newer than the reads before: five snapshots at least.
          if (reads % 10 === 0 && Number(page.at) <= newest) return false;
          // Repaid or liquidated in this snapshot: the Portfolio lists it no more; the next position.
          if (row) {
            for (const k of ['ratio', 'distance', 'liquidation', 'assets', 'debt'] as const)
              if (row[k] !== page[k])
                bad.push(`${target} at ${page.at}: ${k} ${row[k]} on the Portfolio, ${page[k]} on its page`);
            times.add(page.at);
            newest = Math.max(newest, Number(page.at));
            reads++;
          }
          target = null;
          return reads >= READS;
        },
        // About 20 s alone; each read is several page round trips, slower on two busy cores.
        150_000,
        `${READS} reads of the Portfolio and a manager page at one snapshot`,
      );
      console.log(`one-snapshot e2e: ${reads} reads, ${times.size} snapshots, ${bad.length} disagreeing`);
      expect(bad).toEqual([]);
      expect(reads).toBe(READS);
      // The network moved on during the reads: the tabs followed five snapshots at least.
      expect(times.size).toBeGreaterThanOrEqual(READS / 10);
      expect(pageErrors).toEqual([]);
    },
  );
});
