import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { startServe, type Serving } from '../../src/main/web/serve';
import { go, launchChromium, rendererBuilt } from '../support/browser';
import { tempDir } from '../support/monitor';
import { busiestOwners } from '../support/sim';

/**
 * What issue 40's trader saw cut or run together, measured in Chromium as laid out at 1280 and
 * 1920 px wide (the page's boxes, not a screenshot): the Portfolio's ten columns inside their card
 * (Borrow APR was cut at its edge), the loans' risk bars with their end labels apart ("liq.
 * 1.1252.500+"), and the pool page's list of positions under its chart, each entry inside its own
 * cell (one ran under the next and past the card).
 */
const SEED = 20_251_122;
const ZONE = 'America/New_York';
const dir = tempDir();
const world = new World({ seed: SEED });
/** The busiest owners, and one whose positions' break-even prices liquidations moved: the longest entries. */
const watched = [...busiestOwners(world, 2), '0x4e54ed5bfb2569c680eb1b283be11e0dbf1d43402745b3988f969ce6df3119eb'];
let serving: Serving;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  serving = await startServe({ port: 0, dataDir: dir.dir, demo: { speed: 60, seed: SEED }, watch: watched });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: ZONE });
  await page.goto(serving.url);
});

afterAll(async () => {
  await browser?.close();
  await serving?.close();
  dir.remove();
});

/** A box as the page lays it out (px). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** How far the Portfolio's positions table and its Borrow APR cells reach past their card's content box (px; ≤ 0 fits). */
const portfolioOverflow = (): Promise<{ table: number; apr: number; rows: number }> =>
  page.evaluate(`(() => {
    const t = document.querySelector('table.positions');
    const card = t.closest('.card');
    const r = card.getBoundingClientRect();
    const right = r.right - parseFloat(getComputedStyle(card).paddingRight) - parseFloat(getComputedStyle(card).borderRightWidth);
    const apr = Array.from(t.querySelectorAll('[data-testid=row-apr]'), (e) => e.getBoundingClientRect().right);
    return { table: t.getBoundingClientRect().right - right, apr: Math.max(...apr) - right, rows: apr.length };
  })()`);

const WIDTHS = [1280, 1920] as const;

describe('nothing cut or run together at 1280 and 1920 px', () => {
  it("the Portfolio's columns fit their card, a shock's too: Borrow APR whole", { timeout: 90_000 }, async () => {
    await go(page, '#/portfolio');
    await page.getByTestId('position-row').first().waitFor({ timeout: 30_000 });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const shock of ['0', '-15']) {
        await page.getByTestId('shock-slider-SUI').fill(shock);
        await page.waitForTimeout(300);
        const o = await portfolioOverflow();
        const where = `${width} px, SUI ${shock} %: ${JSON.stringify(o)}`;
        expect(o.rows, where).toBeGreaterThan(2);
        expect(o.table, where).toBeLessThanOrEqual(0.5);
        expect(o.apr, where).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it("the loans' risk bars: their end labels apart", { timeout: 60_000 }, async () => {
    await go(page, '#/margin');
    await page.getByRole('tab', { name: /Active loans/ }).click();
    await page.getByTestId('risk-gauge').first().waitFor({ timeout: 30_000 });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const gaps =
        (await page.evaluate(`Array.from(document.querySelectorAll('[data-testid=risk-gauge] .ends'), (e) => {
        const [a, b] = Array.from(e.children, (c) => c.getBoundingClientRect());
        return b.left - a.right;
      })`)) as number[];
      expect(gaps.length, `${width} px`).toBeGreaterThan(3);
      // At least 4 px of air between "liq. 1.125" and "2.500+" on every bar.
      expect(Math.min(...gaps), `${width} px`).toBeGreaterThanOrEqual(4);
    }
  });

  it(
    "a pool page's list of positions: each entry inside its cell, none on another, all inside the card",
    {
      timeout: 120_000,
    },
    async () => {
      await go(page, '#/portfolio');
      await page.getByTestId('position-row').first().waitFor({ timeout: 30_000 });
      const pools = [
        ...new Set(
          (await page.evaluate(
            `Array.from(document.querySelectorAll('[data-testid=position-row] a[href^="#/markets/"]'), (a) => a.getAttribute('href'))`,
          )) as string[],
        ),
      ];
      expect(pools.length).toBeGreaterThan(0);
      let entries = 0;
      for (const pool of pools)
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await go(page, pool);
          await page.getByTestId('pool-position-line').first().waitFor({ timeout: 30_000 });
          const laid = (await page.evaluate(`(() => {
          const ul = document.querySelector('[data-testid=pool-position-lines]');
          const card = ul.closest('.card');
          const box = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
          const cr = card.getBoundingClientRect();
          const inner = { left: cr.left, right: cr.right - parseFloat(getComputedStyle(card).paddingRight), top: cr.top, bottom: cr.bottom };
          const items = Array.from(ul.querySelectorAll('[data-testid=pool-position-line]'), (li) => ({
            box: box(li.getBoundingClientRect()),
            parts: Array.from(li.querySelectorAll('*'), (e) => box(e.getBoundingClientRect())).filter((b) => b.right > b.left),
          }));
          return { inner, items };
        })()`)) as { inner: Box; items: Array<{ box: Box; parts: Box[] }> };
          const where = `${pool} at ${width} px`;
          for (const [i, item] of laid.items.entries()) {
            entries++;
            expect(item.box.right, where).toBeLessThanOrEqual(laid.inner.right + 0.5);
            // Every word of the entry inside the entry's own box.
            for (const p of item.parts) {
              expect(p.left, where).toBeGreaterThanOrEqual(item.box.left - 0.5);
              expect(p.right, `${where}: entry ${i + 1} runs out of its cell`).toBeLessThanOrEqual(
                item.box.right + 0.5,
              );
            }
            for (const other of laid.items.slice(i + 1)) {
              const apart =
                other.box.left >= item.box.right - 0.5 ||
                other.box.right <= item.box.left + 0.5 ||
                other.box.top >= item.box.bottom - 0.5 ||
                other.box.bottom <= item.box.top + 0.5;
              expect(apart, `${where}: two entries on one another`).toBe(true);
            }
          }
        }
      expect(entries).toBeGreaterThan(2);
    },
  );
});
