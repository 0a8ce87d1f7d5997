/**
 * README's picture of an alert as it arrives on ntfy (docs/images/ntfy-message.png): `serve`'s
 * monitor on the Demo network sends a real critical alert to a local server that speaks ntfy's
 * publish API (tests/support/receivers.ts); what that server received (title, priority, tags,
 * message, click URL) is drawn as the ntfy app shows a notification, and photographed in
 * Chromium. Run: npx tsx scripts/ntfy-screenshot.ts
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { World } from '../src/sim';
import { parseNotifyConfig } from '../src/main/core/notify/config';
import { startServe } from '../src/main/web/serve';
import { launchChromium } from '../tests/support/browser';
import { until } from '../tests/support/monitor';
import { MonitorHarness } from '../tests/support/monitor-harness';
import { Receivers } from '../tests/support/receivers';
import { busiestOwners } from '../tests/support/sim';

const OUT = fileURLToPath(new URL('../docs/images/ntfy-message.png', import.meta.url));
const SEED = 20_251_122;
const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const dir = mkdtempSync(join(tmpdir(), 'tidewatch-shot-'));
const rx = await Receivers.start();
const doc = {
  channels: [{ type: 'ntfy', url: `${rx.url}/ntfy/tidewatch-kq3vbx9fhw2mzt8pl4ra`, minLevel: 'warning' }],
  linkBase: 'https://tidewatch.example.net',
};
const serving = await startServe({
  port: 0,
  dataDir: dir,
  demo: { speed: 1, seed: SEED },
  watch: busiestOwners(new World({ seed: SEED }), 1),
  notifyFile: { path: 'ntfy.json', ...parseNotifyConfig(JSON.stringify(doc), {}) },
  // Its refreshRisk reads the positions again at once, once the threshold is set.
  buildMonitor: (options) => new MonitorHarness(options),
});
try {
  await until(() => serving.monitor.latestReadings().readings.length > 0, 120_000, 'the watched positions');
  // The riskiest position is called critical: a real alert, in the words every channel gets.
  const worst = serving.monitor
    .latestReadings()
    .readings.filter((r) => r.risk_ratio !== null)
    .sort((a, b) => a.risk_ratio! - b.risk_ratio!)[0]!;
  await serving.monitor.invoke('setThreshold', {
    managerId: worst.manager_id,
    warning: worst.risk_ratio! + 0.06,
    critical: worst.risk_ratio! + 0.02,
  });
  await serving.monitor.refreshRisk();
  await until(() => rx.of('ntfy').length > 0, 60_000, 'the message at ntfy');
  const m = rx.of('ntfy')[0]!;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 420, height: 360 }, deviceScaleFactor: 2 });
  await page.setContent(`<!doctype html><html><head><style>
    body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: linear-gradient(160deg, #27364a, #0f1722); color: #10151c; padding: 22px 14px; }
    .time { color: #e8eef6; text-align: center; font-size: 44px; font-weight: 300; margin: 0 0 14px; }
    .card { background: #f4f6f9; border-radius: 18px; padding: 12px 14px 14px; box-shadow: 0 6px 24px rgba(0,0,0,.35); }
    .app { display: flex; align-items: center; gap: 8px; font-size: 12.5px; color: #56606c; margin-bottom: 6px; }
    .icon { width: 18px; height: 18px; border-radius: 5px; background: #338574; color: #fff; font-size: 11px; font-weight: 700; display: grid; place-items: center; }
    .urgent { margin-left: auto; background: #c0392b; color: #fff; border-radius: 8px; padding: 0 7px; font-size: 11px; font-weight: 600; }
    .title { font-weight: 650; font-size: 15.5px; margin-bottom: 3px; }
    .body { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13.5px; color: #262d36; }
    .tap { margin-top: 8px; font-size: 12px; color: #2b6cb0; }
  </style></head><body>
    <p class="time">${new Date(m.at).toTimeString().slice(0, 5)}</p>
    <div class="card">
      <div class="app"><span class="icon">n</span> ntfy · tidewatch-kq3vb… · now <span class="urgent">${m.headers['priority'] === '5' ? 'urgent' : m.headers['priority'] === '4' ? 'high' : 'default'}</span></div>
      <div class="title">${escape(m.title)}</div>
      <div class="body">${escape(m.text)}</div>
      <div class="tap">Tap: ${escape(String(m.headers['click'] ?? ''))}</div>
    </div></body></html>`);
  const height = await page.evaluate(() => document.body.scrollHeight);
  await page.setViewportSize({ width: 420, height: Math.ceil(height) });
  mkdirSync(join(OUT, '..'), { recursive: true });
  await page.screenshot({ path: OUT });
  await browser.close();
  console.log(`wrote ${OUT}\n${m.title}\n${m.text}`);
} finally {
  await serving.close();
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
}
