import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { startServe, type Serving } from '../../src/main/web/serve';
import { E2E_POLL_MS, go, launchChromium, rendererBuilt, SCREENSHOTS, textsIn } from '../support/browser';
import { tempDir } from '../support/monitor';
import { busiestOwners } from '../support/sim';

/**
 * What a trader must see, in Chromium with a non-UTC time zone, against the same
 * composition as `tidewatch serve` on the Demo network: money, the liquidation price, the manager
 * page, units and privacy, local time, honest status, the pool page and the small things; then a
 * screenshot of every view at 1280x800 and 1920x1080, light and dark.
 */
const SEED = 20_251_122;
const ZONE = 'America/New_York';
const dir = tempDir();
const world = new World({ seed: SEED });
/** The owners with the most managers: at --speed 600 their positions move every few seconds. */
const busiest = busiestOwners(world, 3);
const MATRIX = `${SCREENSHOTS}/matrix`;
let serving: Serving;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const text = async (testId: string): Promise<string> => (await page.getByTestId(testId).first().textContent()) ?? '';

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  serving = await startServe({ port: 0, dataDir: dir.dir, demo: { speed: 600, seed: SEED }, watch: busiest });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, timezoneId: ZONE });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The CSP has no 'unsafe-inline': anything it refuses would show here.
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) pageErrors.push(m.text());
  });
  await page.goto(serving.url);
  mkdirSync(MATRIX, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await serving?.close();
  dir.remove();
});

describe('what a trader must see', () => {
  it(
    '1. the Portfolio in money: totals, equity, leverage and the price that liquidates, riskiest first',
    { timeout: 90_000 },
    async () => {
      await page.getByTestId('position-row').first().waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('wallet-card').count()).toBe(busiest.length);
      expect(await text('wallet-totals')).toMatch(/Equity\s*\$[\d,.]+[KM]?\s*Assets\s*\$[\d,.]+[KM]?\s*Debt\s*\$/);
      const rows = page.getByTestId('position-row');
      const first = (await rows.first().textContent()) ?? '';
      expect(first).toMatch(/\$[\d,.]+/);
      expect(first).toMatch(/\d\.\d\d×/);
      // "Long SUI … liq. $3.0700 … −4.9 %": the row names the asset that moves; its liquidation price and the distance.
      const distances = await textsIn(page.getByTestId('wallet-card').first(), '[data-testid=distance]');
      expect(distances[0]).toMatch(/^\s*liq\. \$[\d,.]+\s*[\u2212+]?\d+\.\d\u202F%/);
      // Each distance on its own (the price before it runs into it in the row's text: "$21,680.0−4.9 %").
      const pcts = await textsIn(page.getByTestId('wallet-card').first(), '[data-testid=distance] .pct');
      const abs = pcts
        .map((d) => Math.abs(Number(/^\s*[\u2212+]?(\d+\.\d)\u202F%\s*$/.exec(d)?.[1] ?? 'NaN')))
        .filter((x) => !Number.isNaN(x));
      expect(abs).toEqual([...abs].sort((a, b) => a - b));
      // The pricing rule is shown with each price's source and age.
      expect(await text('prices')).toMatch(
        /(oracle price|last exchange trade|stablecoin), (just now|\d+ s ago|\d+ min ago)/,
      );
    },
  );

  it(
    '2. a manager page from every manager id: position, risk chart with its lines, events, and watch',
    { timeout: 130_000 },
    async () => {
      await page.getByTestId('position-row').first().getByTestId('manager-link').click();
      expect(await page.evaluate('window.location.hash')).toMatch(/^#\/manager\/0x[0-9a-f]{64}$/);
      await page.getByTestId('manager-position').waitFor();
      expect(await text('manager-position')).toMatch(/Equity\s*\$[\d,.]+/);
      expect(await text('manager-position')).toMatch(/liq\. \$[\d,.]+/);
      await page.getByTestId('watched').waitFor();
      await page.getByTestId('risk-chart').locator('canvas').first().waitFor({ timeout: 30_000 });

      // An unwatched manager from the liquidations list: no history yet, and a watch action.
      await go(page, '#/margin');
      await page.locator('[data-testid=liquidations-table] tbody tr').first().waitFor({ timeout: 30_000 });
      const rows = page.locator('[data-testid=liquidations-table] tbody tr');
      let opened = false;
      for (let i = 0; i < Math.min(25, await rows.count()) && !opened; i++) {
        const owner = await rows.nth(i).getByTestId('wallet-link').getAttribute('href');
        if (owner && busiest.some((o) => owner.endsWith(o))) continue;
        await rows.nth(i).getByTestId('manager-link').click();
        opened = true;
      }
      expect(opened).toBe(true);
      await page.getByTestId('view-manager').waitFor();
      await page.getByTestId('watch-owner').waitFor({ timeout: 30_000 });
      expect(await text('risk-empty')).toContain('Watch this owner');
      await page.getByTestId('watch-owner').click();
      await page.getByTestId('watched').waitFor({ timeout: 30_000 });
      expect(pageErrors).toEqual([]);
    },
  );

  it("3. units everywhere, and privacy masks only the user's own amounts", { timeout: 90_000 }, async () => {
    await go(page, '#/events');
    await page.locator('[data-testid=events-table] tbody tr').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=events-table] thead').textContent()).toMatch(
      /Time.*Type.*Manager.*Details/,
    );
    expect(await page.locator('[data-testid=events-table] tbody').getByTestId('manager-link').count()).toBeGreaterThan(
      0,
    );
    const details = await page.locator('[data-testid=events-table] td.details').allTextContents();
    const withAmounts = details.filter((d) => /\d/.test(d) && !d.startsWith('owner'));
    expect(withAmounts.length).toBeGreaterThan(0);
    // Human units with a symbol, never a raw integer of smallest units.
    for (const d of withAmounts.slice(0, 50)) expect(d).toMatch(/[\d,.]+ (SUI|USDC|DEEP|WAL|XBTC|NS)/);
    for (const d of withAmounts.slice(0, 50)) expect(d).not.toMatch(/\d{10,}/);

    await page.getByRole('button', { name: 'Hide amounts' }).click();
    await page.getByRole('button', { name: 'Show amounts' }).waitFor();
    await go(page, '#/portfolio');
    await page.getByTestId('position-row').first().waitFor();
    await expect.poll(() => text('wallet-totals'), { timeout: E2E_POLL_MS }).toContain('$•••••');
    // Market data stays: the liquidation price and the distance are prices, not the user's amounts.
    expect((await page.getByTestId('distance').first().textContent()) ?? '').toMatch(/liq\. \$[\d,.]+/);
    await go(page, '#/events');
    await page.locator('[data-testid=events-table] tbody tr').first().waitFor();
    const own = await page.locator('[data-testid=events-table] tr.own td.details').allTextContents();
    const others = await page.locator('[data-testid=events-table] tr:not(.own) td.details').allTextContents();
    for (const d of own.filter((x) => !x.startsWith('owner'))) expect(d).toContain('•••••');
    expect(others.some((d) => /\d[\d,.]* (SUI|USDC|DEEP|WAL|XBTC|NS)/.test(d))).toBe(true);
    await go(page, '#/markets/SUI_USDC');
    await page.getByTestId('spread-row').waitFor({ timeout: 30_000 });
    expect(await text('depth-ladder')).not.toContain('•••••');
    await page.getByRole('button', { name: 'Show amounts' }).click();
    await page.getByRole('button', { name: 'Hide amounts' }).waitFor();
  });

  it('4. local time everywhere, one format, recent times relative with the absolute time on hover', async () => {
    expect(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')).toBe(ZONE);
    await go(page, '#/events');
    const cell = page.locator('[data-testid=events-table] tbody tr td').first();
    await cell.waitFor();
    expect(await cell.textContent()).toMatch(/just now|\d+ s ago|\d+ min ago|\d+ h ago/);
    const title = (await cell.getAttribute('title')) ?? '';
    // With its zone: New York's.
    // In the style of every clock time of the app: the day by its month's name, the clock, the zone.
    expect(title).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2}:\d{2}\s[AP]M E[SD]T$/);
    // The hour on screen is New York's, not UTC's.
    const hour = Number(/, (\d{1,2}):/.exec(title)![1]) % 12;
    const ny =
      Number(new Date().toLocaleString('en-US', { timeZone: ZONE, hour: 'numeric', hour12: true }).split(' ')[0]) % 12;
    expect(Math.abs(hour - ny) % 11).toBeLessThanOrEqual(1);
  });

  it('5. honest status: one line at 1280 px in plain words', async () => {
    await go(page, '#/portfolio');
    const bar = page.getByTestId('status-bar');
    await expect.poll(() => bar.textContent(), { timeout: 30_000 }).toMatch(/Margin events: live/);
    const box = (await bar.boundingBox())!;
    expect(box.height).toBeLessThan(40);
    expect((await bar.textContent()) ?? '').not.toMatch(/https?:|api-key|budget/);
  }, 40_000);

  it('6. the pool page and Markets read like a trading screen', { timeout: 160_000 }, async () => {
    await go(page, '#/markets/XBTC_USDC');
    await page.getByTestId('spread-row').waitFor({ timeout: 30_000 });
    // XBTC_USDC has a 0.1 USDC tick: prices with one decimal, not six.
    const prices = await page
      .locator('[data-testid=depth-ladder] tbody tr:not(.spread) td:first-child')
      .allTextContents();
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(p.trim()).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
    expect(await text('spread-row')).toMatch(/mid · spread [\d,.]+ \(\d+\.\d{3}\u202F%\)/);
    await page.locator('[data-testid=trade-tape] tbody tr').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=trade-tape] tbody td:nth-child(2)').first().textContent()).toMatch(
      /Buy|Sell/,
    );
    await page.getByTestId('zoom-in').waitFor();
    await page.getByTestId('last-price').waitFor({ timeout: 30_000 });

    await go(page, '#/markets');
    await page.getByTestId('pool-row').first().waitFor();
    await expect
      .poll(async () => (await page.getByTestId('change').allTextContents()).filter((t) => /%/.test(t)).length, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(4);
    await page.getByTestId('sort-change').click();
    const changes = async (): Promise<number[]> =>
      (await textsIn(page.locator('body'), '[data-testid=change]'))
        .map((t) => Number(t.replace('\u2212', '-').replace('%', '').trim()))
        .filter((x) => !Number.isNaN(x));
    const a = await changes();
    const sorted = [...a].sort((x, y) => y - x);
    expect(a.join() === sorted.join() || a.join() === [...sorted].reverse().join()).toBe(true);

    await go(page, '#/margin');
    await page.locator('[data-testid=liquidations-table] tbody tr').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=liquidations-table] thead').textContent()).toMatch(
      /Market.*Manager.*Owner.*USD/,
    );
    expect(await page.locator('[data-testid=liquidations-table] tbody tr').first().textContent()).toMatch(/\$[\d,.]+/);
    await page.getByTestId('timeline-window').selectOption({ label: '1 hour' });
    await expect
      .poll(() => text('timeline-summary'), { timeout: E2E_POLL_MS })
      .toMatch(/\d+\+? liquidations, \$[\d,.]+[KM]? repaid/);
  });

  it('7. input and the small things', { timeout: 260_000 }, async () => {
    await go(page, '#/portfolio');
    await page.getByLabel('Wallet address to watch').fill('0x12g');
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/is not a wallet address: a wallet address is 0x followed by up to 64 hexadecimal digits/);
    expect((await page.getByRole('alert').first().textContent()) ?? '').not.toMatch(/addWatch|expected 0x/);

    await go(page, '#/wallet/0xabc');
    await page.getByTestId('wallet-empty').waitFor({ timeout: 30_000 });
    const suggestion = page.getByTestId('demo-owner').first();
    expect(await suggestion.textContent()).toMatch(/\d+ NFTs/);
    await suggestion.click();
    await page.getByTestId('nft-card').first().waitFor({ timeout: 30_000 });

    await go(page, '#/collection');
    await page.getByTestId('collection-suggestion').first().waitFor({ timeout: 30_000 });
    const punks = world.describe().collections.find((c) => c.includes('TidalPunk'))!;
    await go(page, `#/collection/${punks}`);
    await page.getByTestId('facet-count').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => text('match-count'), { timeout: E2E_POLL_MS }).toMatch(/^\d[\d,]*$/);
    const before = await page.getByTestId('facet-count').allTextContents();
    await page.locator('[data-testid=filter-builder] input[type=checkbox]').first().check();
    await expect
      .poll(async () => (await page.getByTestId('facet-count').allTextContents()).join())
      .not.toBe(before.join());
    await page.getByTestId('tab-holders').click();
    const shares = await page.getByTestId('holder-share').allTextContents();
    expect(shares.length).toBe(await page.getByTestId('holder-row').count());
    expect(shares.every((s) => /^\d+\.\d\u202F%$/.test(s.trim()))).toBe(true);

    await go(page, '#/alerts');
    await page.getByTestId('alert-item').first().waitFor({ timeout: 120_000 });
    await page.getByTestId('alert-open-position').first().waitFor();
    expect(await page.getByTestId('alert-open-position').first().getAttribute('href')).toMatch(/^#\/manager\/0x/);
    if ((await page.getByTestId('alert-item').count()) > 1) {
      await page.getByTestId('ack-all').click();
      await expect.poll(() => page.getByTestId('alert-item').count(), { timeout: 10_000 }).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  });

  it('8. every view at 1280x800 and 1920x1080, light and dark', { timeout: 300_000 }, async () => {
    await go(page, '#/portfolio');
    const managerHref = (await page
      .getByTestId('position-row')
      .first()
      .getByTestId('manager-link')
      .getAttribute('href'))!;
    const views: Array<[string, string, string]> = [
      ['portfolio', '#/portfolio', '[data-testid=position-row]'],
      ['manager', managerHref, '[data-testid=manager-position]'],
      ['wallet', `#/wallet/${world.describe().owners.find((o) => o.nfts > 0)!.owner}`, '[data-testid=nft-card]'],
      [
        'collection',
        `#/collection/${world.describe().collections.find((c) => c.includes('TidalPunk'))}`,
        '[data-testid=facet-count]',
      ],
      ['markets', '#/markets', '[data-testid=pool-row]'],
      ['pool', '#/markets/SUI_USDC', '[data-testid=spread-row]'],
      ['margin', '#/margin', '[data-testid=liquidations-table] tbody tr'],
      ['events', '#/events', '[data-testid=events-table] tbody tr'],
      ['alerts', '#/alerts', '[data-testid=view-alerts]'],
      ['settings', '#/settings', '[data-testid=api-key-input]'],
    ];
    let shots = 0;
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate(`localStorage.setItem('tidewatch.theme', '${theme}')`);
        await page.reload();
        for (const [name, hash, ready] of views) {
          await go(page, hash);
          await page.locator(ready).first().waitFor({ timeout: 30_000 });
          // Painted: the view's first data is in, and two frames let the charts draw it.
          await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
          expect(await page.evaluate('document.documentElement.dataset.theme')).toBe(theme);
          await page.screenshot({ path: `${MATRIX}/${name}-${w}x${h}-${theme}.png` });
          shots++;
        }
      }
    }
    expect(shots).toBe(40);
    expect(pageErrors).toEqual([]);
  });
});
