/**
 * The alert-noise soak (docs/valuation.md "Levels"): how many alerts watching one wallet raises,
 * with the thresholds as they were (warning 1.5, critical 1.25, nothing else) against today's
 * defaults (1.2, 1.15, critical within 3 % of the liquidation price, interest drift), and whether
 * each liquidation of a watched manager was warned of first. Two `tidewatch serve` processes,
 * started as the CLI starts them, watch the same wallet of one Demo network (a process of its own,
 * fast enough that positions move): the baseline and the change in the same run.
 *
 *   npm run soak:alerts                          15 minutes at speed 300
 *   npm run soak:alerts -- --minutes 5 --speed 300
 *
 * Prints the table and writes it to docs/alert-noise.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AlertRecord, PortfolioSummary } from '../src/shared/contract';
import { spawnServe, spawnSim, type ServeProcess } from './support';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
  },
});
const MINUTES = Number(values.minutes ?? 15);
const SPEED = Number(values.speed ?? 300);
const SEED = Number(values.seed ?? 7);
const OUT = values.out ?? fileURLToPath(new URL('../docs/alert-noise.md', import.meta.url));
/** What "at once" means: alerts within this long of the first valuation. */
const BURST_MS = 60_000;

const RUNS = [
  {
    name: 'before (1.5 / 1.25)',
    settings: { warningRatio: 1.5, criticalRatio: 1.25, nearLiquidationPct: null, interestAlertDays: null },
  },
  { name: 'now (1.2 / 1.15, 3 %, interest)', settings: {} },
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The wallet with the most loans: what one trader watches. */
async function wallet(): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'sim', '--describe', '--seed', String(SEED)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise((r) => child.once('exit', r));
  const owners = (JSON.parse(out) as { owners: Array<{ owner: string; loans: number }> }).owners;
  return [...owners].sort((a, b) => b.loans - a.loans)[0]!.owner;
}

async function main(): Promise<void> {
  const owner = await wallet();
  const key = 'alert-noise';
  const net = await spawnSim(['--seed', String(SEED), '--speed', String(SPEED), '--api-key', key]);
  const dirs: string[] = [];
  const serves: Array<{ name: string; serve: ServeProcess }> = [];
  try {
    for (const run of RUNS) {
      const dir = mkdtempSync(join(tmpdir(), 'tidewatch-alerts-'));
      dirs.push(dir);
      const serve = await spawnServe(
        run.name,
        ['--data-dir', dir, '--base-url', net.url, '--plan', 'builder', '--watch', owner],
        { TIDEWATCH_API_KEY: key },
      );
      if (Object.keys(run.settings).length > 0) await serve.call('updateSettings', run.settings);
      serves.push({ name: run.name, serve });
    }
    const started = Date.now();
    const first = new Map<string, number>();
    // Wait for each monitor's first valuation, then let the run go.
    for (const s of serves) {
      for (let i = 0; i < 600; i++) {
        const p = (await s.serve.call<{ data: PortfolioSummary | null }>('portfolio', {})).data;
        if (p && p.wallets.length > 0) {
          first.set(s.name, Date.now());
          break;
        }
        await sleep(500);
      }
    }
    console.log(
      `watching ${owner.slice(0, 10)}… for ${MINUTES} min at speed ${SPEED} (${((MINUTES * SPEED) / 60).toFixed(0)} h of market time)`,
    );
    await sleep(Math.max(0, started + MINUTES * 60_000 - Date.now()));
    const rows: string[][] = [];
    for (const s of serves) {
      const alerts = (await s.serve.call<{ data: AlertRecord[] }>('alerts', { includeAcknowledged: true, limit: 1000 }))
        .data;
      const portfolio = (await s.serve.call<{ data: PortfolioSummary | null }>('portfolio', {})).data;
      const positions = portfolio?.wallets.flatMap((w) => w.positions).filter((p) => p.debts.length > 0) ?? [];
      const t0 = first.get(s.name) ?? started;
      const risk = alerts.filter((a) => a.rule === 'risk-threshold' || a.rule === 'interest');
      const liquidations = alerts.filter((a) => a.rule === 'liquidation');
      const warnedFirst = liquidations.filter((l) =>
        risk.some((a) => a.manager_id === l.manager_id && a.created_at < l.created_at),
      ).length;
      const levels = (level: string): number => positions.filter((p) => p.level === level).length;
      rows.push([
        s.name,
        String(risk.filter((a) => a.created_at <= t0 + BURST_MS).length),
        String(risk.filter((a) => a.level === 'warning').length),
        String(risk.filter((a) => a.level === 'critical').length),
        String(risk.filter((a) => a.rule === 'interest').length),
        String(risk.length),
        `${warnedFirst} of ${liquidations.length}`,
        `${levels('ok')} / ${levels('warning')} / ${levels('critical')} / ${levels('liquidatable')}`,
      ]);
    }
    const lines = [
      '# Alert noise: one wallet watched, thresholds before and now',
      '',
      `Written by \`npm run soak:alerts\` (bench/alert-noise.ts) on ${new Date().toISOString().slice(0, 10)}: two \`tidewatch serve\` processes watch the wallet with the most loans of one Demo network (seed ${SEED}, speed ${SPEED}, ${MINUTES} minutes: ${((MINUTES * SPEED) / 60).toFixed(0)} hours of market time), one with the old default thresholds, one with today's. "At once": within a minute of the first valuation. "Warned first": liquidations of a watched manager preceded by a threshold alert for it.`,
      '',
      '| thresholds | at once | warnings | critical | interest | alerts in all | liquidations warned first | positions at the end: ok / warning / critical / liquidatable |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ];
    console.log(lines.join('\n'));
    writeFileSync(OUT, `${lines.join('\n')}\n`);
  } finally {
    for (const s of serves) s.serve.child.kill('SIGTERM');
    await net.stop();
    await sleep(500);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
