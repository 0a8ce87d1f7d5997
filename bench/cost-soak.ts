/**
 * The cost soak (docs/credits.md): `tidewatch serve` watching five wallets of the Demo network,
 * each run with its own api-key against Demo networks in processes of their own, which bill every
 * key like the service (`/__sim/credits`: the published price per answered request, 1 credit per
 * KB streamed). Two Demo networks run side by side:
 *
 * - speed 1 (the cost): the tray monitor on the Free and the Builder plan; the Builder run also
 *   spends a slice with the Portfolio open in Chromium and a slice with a pool page open.
 * - a faster one (the guard): threshold crossings and liquidations happen within minutes; the
 *   tray on Free and on Builder, and on Builder with two other cadence rules (the trade-off).
 *
 * The truth is the Demo network's own: its margin records, read every 2 s with a key of the
 * soak's own, give each position's ratio as the protocol has it; a tracker with the app's
 * hysteresis and cooldown turns them into crossings, each compared with the first alert the
 * monitor raised for it. Liquidations of watched managers are read off the margin stream.
 *
 *   npm run soak:cost                         30 minutes, fast network at speed 20
 *   npm run soak:cost -- --minutes 6 --speed 30
 *
 * With `--wallets N[,N...]` it measures a desk instead (issue 41 item 5): credits a day of the
 * tray watching each count of the busiest wallets of a Demo network of 100 margin owners (`sim
 * --margin-owners 100`, seed 7: 1,081 loans) at speed 1, on each plan of `--plans` (default
 * builder,scale), every monitor at once with its own key, billed per key after the warm-up; the
 * table (credits a day, per wallet, and how both grow from the smallest count) goes into
 * docs/credits.md between its markers (`--out FILE` elsewhere):
 *
 *   npm run soak:cost -- --wallets 5,20,100 --minutes 30
 *
 * Prints the tables and writes them to docs/cost-soak.md, the cost soak's one record (`--out FILE`
 * writes elsewhere, for a trial): each run replaces it, its header says how the run was made, and
 * earlier runs are in git (`git log -p docs/cost-soak.md`).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { chromium, type Browser } from 'playwright-core';
import { EscalationTracker } from '../src/main/core/alerts/escalation';
import { DEFAULT_SETTINGS } from '../src/main/core/settings';
import { DAYS_PER_MONTH, PLANS, type PlanName } from '../src/shared/credit-prices';
import { thresholdsOnPool, type PortfolioSummary } from '../src/shared/portfolio';
import type { AlertRecord, CreditForecast, StatusSnapshot } from '../src/shared/contract';
import { writeBetweenMarkers } from './figures';
import { busiestWallets, codeMeasured, spawnServe, spawnSim } from './support';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
    wallets: { type: 'string' },
    plans: { type: 'string' },
    'margin-owners': { type: 'string' },
  },
});
const MINUTES = Number(values.minutes ?? 30);
const FAST = Number(values.speed ?? 20);
const SEED = Number(values.seed ?? 7);
const OUT = values.out ?? fileURLToPath(new URL('../docs/cost-soak.md', import.meta.url));
const WARMUP_MS = Math.min(120_000, MINUTES * 60_000 * 0.1);
/** A crossing this close to the end may not be alerted yet: left out of the comparison. */
const TAIL_MS = Math.min(5 * 60_000, MINUTES * 60_000 * 0.25);
const TRUTH_KEY = 'soak-truth';
/** The app's defaults (settings.ts): warning 1.5 and critical 1.25 at the protocol's 1.125, moved to each pool's. */
const DEFAULT_THRESHOLDS = {
  warning: DEFAULT_SETTINGS.warningRatio,
  critical: DEFAULT_SETTINGS.criticalRatio,
  near_pct: null,
};
const COOLDOWN_MS = 900_000;

interface RunSpec {
  name: string;
  net: 'cost' | 'guard';
  plan: PlanName;
  rule: 'guard' | 'volatility' | 'fixed';
}
const RUNS: RunSpec[] = [
  { name: 'free-tray', net: 'cost', plan: 'free', rule: 'guard' },
  { name: 'builder-ui', net: 'cost', plan: 'builder', rule: 'guard' },
  { name: 'free-guard', net: 'guard', plan: 'free', rule: 'guard' },
  { name: 'builder-guard', net: 'guard', plan: 'builder', rule: 'guard' },
  { name: 'builder-volatility', net: 'guard', plan: 'builder', rule: 'volatility' },
  { name: 'builder-fixed', net: 'guard', plan: 'builder', rule: 'fixed' },
];

interface Bill {
  total: number;
  requestCredits: number;
  streamCredits: number;
  maxOpenStreams: number;
  openStreams: number;
}

interface Serve {
  spec: RunSpec;
  key: string;
  child: ChildProcess;
  url: string;
  call<T>(method: string, args?: object): Promise<T>;
  dir: string;
  /** Lines the monitor wrote to its log (a quiet tray writes a handful). */
  logLines: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (xs: number[], q: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const secs = (ms: number) => (Number.isNaN(ms) ? '-' : `${(ms / 1000).toFixed(0)} s`);

async function bill(simUrl: string, key: string): Promise<Bill> {
  const res = await fetch(`${simUrl}/__sim/credits?api-key=${encodeURIComponent(key)}`);
  return (await res.json()) as Bill;
}

async function startServe(spec: RunSpec, simUrl: string, watch: string[]): Promise<Serve> {
  const key = `soak-${spec.name}`;
  const dir = mkdtempSync(join(tmpdir(), `tidewatch-cost-${spec.name}-`));
  const args = ['--data-dir', dir, '--base-url', simUrl, '--plan', spec.plan, ...watch.flatMap((w) => ['--watch', w])];
  const serve = await spawnServe(spec.name, args, { TIDEWATCH_API_KEY: key, TIDEWATCH_CADENCE: spec.rule });
  return { spec, key, dir, ...serve };
}

/** The five wallets with the most loans (seed 7): what a trader with several accounts watches. */
async function wallets(): Promise<string[]> {
  return (await busiestWallets(SEED, 5)).map((o) => o.owner);
}

/** Each watched position's ratio as the protocol has it, every 2 s, turned into crossings. */
function watchTruth(simUrl: string, owners: string[], liquidationOf: () => Map<string, number>) {
  const tracker = new EscalationTracker(0.02, COOLDOWN_MS);
  const crossings: Array<{ manager: string; level: 'warning' | 'critical'; at: number; cause: 'market' | 'action' }> =
    [];
  /** Each manager's loans and deposit as last polled: a change is the trader's own action (a borrow, a deposit). */
  const signature = new Map<string, string>();
  let primed = false;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      const started = Date.now();
      try {
        const lists = await Promise.all(
          owners.map(async (o) => {
            const res = await fetch(`${simUrl}/dex-margin/margin-managers/${o}?api-key=${TRUTH_KEY}&perPage=50`);
            return (
              (await res.json()) as {
                items: Array<{
                  margin_manager_id: string;
                  active_loans?: Array<{ risk_ratio: number | null; remaining_shares: number; digest: string }>;
                  deposit?: { digest: string } | null;
                }>;
              }
            ).items;
          }),
        );
        const liq = liquidationOf();
        for (const m of lists.flat()) {
          const ratios = (m.active_loans ?? []).map((l) => l.risk_ratio).filter((r): r is number => r !== null);
          const sig = JSON.stringify([
            (m.active_loans ?? []).map((l) => [l.digest, l.remaining_shares]),
            m.deposit?.digest ?? null,
          ]);
          // A manager that is new (opened during the run) or whose loans or deposit changed: the trader acted.
          const acted = primed && signature.get(m.margin_manager_id) !== sig;
          signature.set(m.margin_manager_id, sig);
          const ratio = ratios.length ? Math.min(...ratios) : null;
          const liquidation = liq.get(m.margin_manager_id) ?? 1.125;
          const t = thresholdsOnPool(
            DEFAULT_THRESHOLDS as { warning: number; critical: number; near_pct: null },
            liquidation,
          );
          const raised = tracker.observe(
            m.margin_manager_id,
            { ratio, distancePct: null },
            { ...t, near_pct: null, liquidation },
            started,
          );
          // A liquidatable position is a critical crossing here (the cost soak counts two levels).
          const level = raised?.kind === 'rise' ? (raised.level === 'warning' ? 'warning' : 'critical') : null;
          if (level && primed)
            crossings.push({ manager: m.margin_manager_id, level, at: started, cause: acted ? 'action' : 'market' });
        }
        primed = true;
      } catch {
        // the sim is busy; the next poll reads again
      }
      await sleep(Math.max(0, 2000 - (Date.now() - started)));
    }
  };
  const done = loop();
  return {
    crossings,
    async stop() {
      stop = true;
      await done;
    },
  };
}

/** Liquidations of the watched managers as the margin stream delivers them (arrival time). */
function watchLiquidations(simUrl: string, managers: () => Set<string>) {
  const seen: Array<{ manager: string; at: number }> = [];
  const ctl = new AbortController();
  void (async () => {
    const res = await fetch(`${simUrl}/dex-margin/manager-updates?api-key=${TRUTH_KEY}&last-id=$`, {
      signal: ctl.signal,
    });
    const parser = createParser({
      onEvent: (e) => {
        try {
          const msg = JSON.parse(e.data) as { type: string; data: { margin_manager_id?: string } };
          const id = msg.data.margin_manager_id;
          if (msg.type.endsWith('_liquidation') && id && managers().has(id)) seen.push({ manager: id, at: Date.now() });
        } catch {
          // not an event of ours
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  })().catch(() => {});
  return { seen, stop: () => ctl.abort() };
}

async function main(): Promise<void> {
  const owners = await wallets();
  const code = codeMeasured();
  const keys = RUNS.map((r) => `soak-${r.name}`);
  const keyArgs = [...keys, TRUTH_KEY].flatMap((k) => ['--api-key', k]);
  console.log(
    `cost soak: ${MINUTES} min, seed ${SEED}, ${owners.length} wallets; cost network at speed 1, guard network at speed ${FAST}`,
  );
  const costNet = await spawnSim(['--seed', String(SEED), '--speed', '1', ...keyArgs]);
  const guardNet = await spawnSim(['--seed', String(SEED), '--speed', String(FAST), ...keyArgs]);
  const serves: Serve[] = [];
  let browser: Browser | undefined;
  try {
    for (const spec of RUNS)
      serves.push(await startServe(spec, spec.net === 'cost' ? costNet.url : guardNet.url, owners));
    const started = Date.now();
    const byName = (n: string) => serves.find((s) => s.spec.name === n)!;

    // What each monitor shows: the liquidation ratio and distance of each position (the band), alerts, streams.
    const liquidation = new Map<string, number>();
    const distance = new Map<string, number | null>();
    const pools = new Map<string, string>();
    const alerts = new Map<string, Map<number, AlertRecord>>(serves.map((s) => [s.spec.name, new Map()]));
    const maxStreams = new Map<string, number>(serves.map((s) => [s.spec.name, 0]));
    const forecasts = new Map<string, number[]>(serves.map((s) => [s.spec.name, []]));
    let polling = true;
    const poll = (async () => {
      while (polling) {
        for (const s of serves) {
          try {
            for (const a of (
              await s.call<{ data: AlertRecord[] }>('alerts', { includeAcknowledged: true, limit: 1000 })
            ).data)
              alerts.get(s.spec.name)!.set(a.id, a);
            const st = await s.call<StatusSnapshot>('streamStatus');
            const open = st.streams.filter((x) => x.state === 'open').length;
            maxStreams.set(s.spec.name, Math.max(maxStreams.get(s.spec.name)!, open));
            if (Date.now() - started > WARMUP_MS)
              forecasts.get(s.spec.name)!.push((await s.call<CreditForecast>('creditForecast')).perDay);
          } catch {
            // a busy moment: the next round asks again
          }
        }
        try {
          const p = await byName('builder-guard').call<{ data: PortfolioSummary }>('portfolio');
          for (const w of p.data.wallets)
            for (const pos of w.positions) {
              liquidation.set(pos.manager_id, pos.liquidation_ratio);
              pools.set(pos.manager_id, pos.pool_name ?? '?');
              distance.set(pos.manager_id, pos.distance_pct);
            }
        } catch {
          // idem
        }
        await sleep(3000);
      }
    })();
    const truth = watchTruth(guardNet.url, owners, () => liquidation);
    const liqs = watchLiquidations(guardNet.url, () => new Set(liquidation.keys()));
    const bandAt = new Map<string, boolean>();
    const bandTimer = setInterval(() => {
      for (const c of truth.crossings)
        if (!bandAt.has(`${c.manager}@${c.at}`))
          bandAt.set(`${c.manager}@${c.at}`, Math.abs(distance.get(c.manager) ?? Infinity) <= 10);
    }, 1000);

    // The Builder run at speed 1: tray, then the Portfolio open in Chromium, then a pool page, then tray again.
    const total = MINUTES * 60_000;
    const phases: Array<{
      name: string;
      from: number;
      to: number;
      startBill?: Bill;
      endBill?: Bill;
      forecastPool?: number | null;
    }> = [
      { name: 'tray', from: WARMUP_MS, to: total * 0.4 },
      { name: 'Portfolio open', from: total * 0.4, to: total * 0.65 },
      { name: 'pool page open (SUI_USDC)', from: total * 0.65, to: total * 0.85 },
      { name: 'tray again', from: total * 0.85, to: total },
    ];
    const ui = byName('builder-ui');
    const freeCostStart = { at: 0, bill: undefined as Bill | undefined };
    const guardStart = new Map<string, Bill>();
    for (const ph of phases) {
      await sleep(Math.max(0, started + ph.from - Date.now()));
      ph.startBill = await bill(costNet.url, ui.key);
      if (ph === phases[0]) {
        freeCostStart.at = Date.now();
        freeCostStart.bill = await bill(costNet.url, byName('free-tray').key);
        for (const s of serves.filter((x) => x.spec.net === 'guard'))
          guardStart.set(s.spec.name, await bill(guardNet.url, s.key));
      }
      if (ph.name === 'Portfolio open' || ph.name.startsWith('pool page')) {
        browser ??= await chromium.launch({
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
          headless: true,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
        });
        const page = await browser.newPage();
        await page.goto(ui.url);
        await page.goto(
          `${new URL(ui.url).origin}/${ph.name.startsWith('pool page') ? '#/markets/SUI_USDC' : '#/portfolio'}`,
        );
        await sleep(Math.max(0, started + ph.to - Date.now() - 20_000));
        if (ph.name.startsWith('pool page'))
          ph.forecastPool =
            (await ui.call<CreditForecast>('creditForecast')).poolStreams.find((p) => p.pool === 'SUI_USDC')?.perHour ??
            null;
        await sleep(Math.max(0, started + ph.to - Date.now()));
        ph.endBill = await bill(costNet.url, ui.key);
        await page.close();
      } else {
        await sleep(Math.max(0, started + ph.to - Date.now()));
        ph.endBill = await bill(costNet.url, ui.key);
      }
    }
    const ended = Date.now();
    clearInterval(bandTimer);
    await truth.stop();
    liqs.stop();
    polling = false;
    await poll;
    const uiStreamsAfter = (await ui.call<StatusSnapshot>('streamStatus')).streams.map((s) => s.id);

    // ---- tables ------------------------------------------------------------------------
    const lines: string[] = [];
    const say = (l = '') => {
      lines.push(l);
      console.log(l);
    };
    const args = process.argv.slice(2);
    const cpu = cpus();
    say(`# Cost soak`);
    say();
    say(
      `Written by \`npm run soak:cost${args.length > 0 ? ` -- ${args.join(' ')}` : ''}\` (bench/cost-soak.ts) on ${new Date().toISOString().slice(0, 16)} UTC, serve running the sources of ${code}, on ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}): ${MINUTES} minutes, seed ${SEED}, a Demo network at speed 1 (the cost) and one at speed ${FAST} (the guard), the ${owners.length} wallets with the most loans; each monitor is \`tidewatch serve\` with its own key against a Demo network in its own process, billed per key by the Demo network (published prices; margin lists at the app's estimate of 10). ` +
        `Each run replaces this file; earlier runs: \`git log -p docs/cost-soak.md\`.`,
    );
    say();
    say('## Credits a day, billed against forecast (speed 1)');
    say();
    say(
      '| run | plan | billed / day | forecast / day (median) | billed / forecast | plan day | inside it | most streams open (plan) |',
    );
    say('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |');
    const dayOf = (b0: Bill, b1: Bill, ms: number) => ((b1.total - b0.total) / ms) * 86_400_000;
    for (const s of serves.filter((x) => x.spec.net === 'cost')) {
      const b1 = await bill(costNet.url, s.key);
      const b0 = s.spec.name === 'free-tray' ? freeCostStart.bill! : phases[0]!.startBill!;
      const to = s.spec.name === 'free-tray' ? ended : started + phases[0]!.to;
      const perDay =
        s.spec.name === 'free-tray'
          ? dayOf(b0, b1, ended - freeCostStart.at)
          : dayOf(b0, phases[0]!.endBill!, to - (started + phases[0]!.from));
      const planDay = PLANS[s.spec.plan].monthlyCredits / DAYS_PER_MONTH;
      const f = pct(forecasts.get(s.spec.name)!, 0.5);
      say(
        `| ${s.spec.name === 'free-tray' ? 'tray' : 'tray (Builder)'} | ${PLANS[s.spec.plan].label} | ${fmt(perDay)} | ${fmt(f)} | ${(perDay / f).toFixed(2)} | ${fmt(planDay)} | ${perDay <= planDay ? 'yes' : 'no'} | ${Math.max(b1.maxOpenStreams, maxStreams.get(s.spec.name)!)} (${PLANS[s.spec.plan].streams}) |`,
      );
    }
    say();
    say('## The Builder run by what is on screen (speed 1)');
    say();
    say(
      "| phase | minutes | billed / day at that rate | billed / hour | forecast for the pool stream / hour | inside Builder's day (166,667) |",
    );
    say('| --- | ---: | ---: | ---: | ---: | --- |');
    for (const ph of phases) {
      const ms = ph.to - ph.from;
      const perDay = dayOf(ph.startBill!, ph.endBill!, ms);
      say(
        `| ${ph.name} | ${(ms / 60_000).toFixed(1)} | ${fmt(perDay)} | ${fmt(perDay / 24)} | ${ph.forecastPool === undefined ? '' : ph.forecastPool === null ? 'measuring' : fmt(ph.forecastPool)} | ${perDay <= 5_000_000 / 30 ? 'yes' : 'no'} |`,
      );
    }
    say();
    say(`After the pool page was left, the Builder run's streams: ${uiStreamsAfter.join(', ')}.`);
    say();
    say(`## Detection of threshold crossings (speed ${FAST})`);
    say();
    const usable = truth.crossings.filter((c) => c.at >= started + WARMUP_MS && c.at <= ended - TAIL_MS);
    say(
      `${truth.crossings.length} crossings of a warning or critical threshold by the Demo network's own ratios (${usable.length} after the warm-up and at least ${TAIL_MS / 60_000} minutes before the end, compared below). Delay: from the first 2 s poll that saw the crossing to the monitor's first alert at that level or worse for that manager (or its liquidation's alert).`,
    );
    say();
    say(
      '| run | plan | cadence | credits / day | crossings by | crossings | alerted | p50 | p99 | max | missed | within budget (60 s near / 5 min rest) |',
    );
    say('| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    const RANK = { warning: 1, critical: 2 } as const;
    const missedDetail: string[] = [];
    for (const s of serves.filter((x) => x.spec.net === 'guard')) {
      const b1 = await bill(guardNet.url, s.key);
      const perDay = dayOf(guardStart.get(s.spec.name)!, b1, ended - (started + WARMUP_MS));
      // A threshold alert at that level or worse, or the position's liquidation alert (a crossing straight into liquidation).
      const mine = [...alerts.get(s.spec.name)!.values()].filter(
        (a) => a.rule === 'risk-threshold' || a.rule === 'liquidation',
      );
      const groups: Array<{ name: string; near: boolean; of: typeof usable }> = [
        {
          name: 'market, within 10 % of liquidation',
          near: true,
          of: usable.filter((c) => c.cause === 'market' && (bandAt.get(`${c.manager}@${c.at}`) ?? false)),
        },
        {
          name: 'market, further',
          near: false,
          of: usable.filter((c) => c.cause === 'market' && !(bandAt.get(`${c.manager}@${c.at}`) ?? false)),
        },
        {
          name: "the trader's own opening, borrow or deposit",
          near: false,
          of: usable.filter((c) => c.cause === 'action'),
        },
      ];
      for (const { name, near, of: band } of groups) {
        const delays: number[] = [];
        let missed = 0;
        const limit = near ? 60_000 : 300_000;
        for (const c of band) {
          const hit = mine
            .filter(
              (a) =>
                a.manager_id === c.manager &&
                RANK[a.level as 'warning' | 'critical'] >= RANK[c.level] &&
                a.created_at >= c.at - 120_000,
            )
            .sort((a, b) => a.created_at - b.created_at)[0];
          const delay = hit && hit.created_at - c.at <= 15 * 60_000 ? Math.max(0, hit.created_at - c.at) : null;
          if (delay !== null) delays.push(delay);
          else missed++;
          if (s.spec.name === 'builder-guard' && c.cause === 'market' && (delay === null || delay > limit)) {
            const seen = mine
              .filter((a) => a.manager_id === c.manager)
              .map((a) => `${a.rule} ${a.level} at ${((a.created_at - c.at) / 1000).toFixed(0)} s`);
            missedDetail.push(
              `${c.manager.slice(0, 10)} ${pools.get(c.manager) ?? '?'} ${c.level} at +${((c.at - started) / 1000).toFixed(0)} s: ${seen.join(', ') || 'no alert'}`,
            );
          }
        }
        const max = delays.length ? Math.max(...delays) : NaN;
        say(
          `| ${s.spec.name} | ${PLANS[s.spec.plan].label} | ${s.spec.rule} | ${fmt(perDay)} | ${name} | ${band.length} | ${delays.length} | ${secs(pct(delays, 0.5))} | ${secs(pct(delays, 0.99))} | ${secs(max)} | ${missed} | ${band.length === 0 ? '-' : missed === 0 && max <= limit ? 'yes' : 'no'} |`,
        );
      }
    }
    say();
    say(
      `The builder-guard run's market crossings alerted late or not at all, with every alert it raised for that manager (seconds from the crossing): ${missedDetail.length === 0 ? 'none' : ''}`,
    );
    say();
    for (const l of missedDetail) say(`- ${l}`);
    say();
    say('## Watched liquidations (speed ' + FAST + ')');
    say();
    say('| run | liquidations of watched managers | alerted | delay from arrival p50 | max |');
    say('| --- | ---: | ---: | ---: | ---: |');
    for (const s of serves.filter((x) => x.spec.net === 'guard')) {
      const mine = [...alerts.get(s.spec.name)!.values()].filter((a) => a.rule === 'liquidation');
      const delays: number[] = [];
      for (const l of liqs.seen) {
        const hit = mine.find((a) => a.manager_id === l.manager && Math.abs(a.created_at - l.at) < 60_000);
        if (hit) delays.push(Math.max(0, hit.created_at - l.at));
      }
      say(
        `| ${s.spec.name} | ${liqs.seen.length} | ${delays.length} | ${secs(pct(delays, 0.5))} | ${secs(delays.length ? Math.max(...delays) : NaN)} |`,
      );
    }
    say();
    say('## Streams open at once (billed by the Demo network: the most a key had open)');
    say();
    say('| run | plan limit | most open (Demo network) | most open (monitor status) | lines in its log |');
    say('| --- | ---: | ---: | ---: | ---: |');
    for (const s of serves) {
      const b = await bill(s.spec.net === 'cost' ? costNet.url : guardNet.url, s.key);
      say(
        `| ${s.spec.name} | ${PLANS[s.spec.plan].streams} | ${b.maxOpenStreams} | ${maxStreams.get(s.spec.name)} | ${fmt(s.logLines())} |`,
      );
    }
    say();
    say("## The app's meter against the Demo network's bill (the whole run)");
    say();
    say('| run | billed | the meter | meter / bill |');
    say('| --- | ---: | ---: | ---: |');
    for (const s of serves) {
      const b = await bill(s.spec.net === 'cost' ? costNet.url : guardNet.url, s.key);
      const meter = (await s.call<StatusSnapshot>('streamStatus')).credits?.thisMonth ?? NaN;
      say(`| ${s.spec.name} | ${fmt(b.total)} | ${fmt(meter)} | ${(meter / b.total).toFixed(3)} |`);
    }
    writeFileSync(OUT, `${lines.join('\n')}\n`);
    console.log(`\nwritten to ${OUT}`);
  } finally {
    await browser?.close();
    for (const s of serves) {
      s.child.kill('SIGTERM');
      await new Promise((r) => (s.child.exitCode === null ? s.child.once('exit', r) : r(null)));
      rmSync(s.dir, { recursive: true, force: true });
    }
    await costNet.stop();
    await guardNet.stop();
  }
}

/** The desk's section of docs/credits.md. */
const DESK_SECTION = 'desk-credits';

/** Credits a day of a desk: each wallet count on each plan, the tray at speed 1 (`--wallets`). */
async function desk(counts: number[], plans: PlanName[], marginOwners: number): Promise<void> {
  const out = values.out ?? fileURLToPath(new URL('../docs/credits.md', import.meta.url));
  const busiest = (await busiestWallets(SEED, Math.max(...counts), undefined, marginOwners)).map((o) => o.owner);
  const specs = plans.flatMap((plan) =>
    counts.map((n) => ({ n, spec: { name: `desk-${plan}-${n}`, net: 'cost', plan, rule: 'guard' } as RunSpec })),
  );
  const keyArgs = specs.flatMap(({ spec }) => ['--api-key', `soak-${spec.name}`]);
  console.log(
    `cost soak, desk: ${counts.join(', ')} wallets on ${plans.join(', ')}, ${MINUTES} min, seed ${SEED}, ${marginOwners} margin owners, speed 1`,
  );
  const net = await spawnSim([
    '--seed',
    String(SEED),
    '--speed',
    '1',
    '--margin-owners',
    String(marginOwners),
    ...keyArgs,
  ]);
  const runs: Array<{ n: number; serve: Serve; start?: Bill; startAt?: number; forecasts: number[] }> = [];
  try {
    for (const { n, spec } of specs)
      runs.push({ n, serve: await startServe(spec, net.url, busiest.slice(0, n)), forecasts: [] });
    const started = Date.now();
    await sleep(WARMUP_MS);
    for (const r of runs) {
      r.start = await bill(net.url, r.serve.key);
      r.startAt = Date.now();
    }
    const end = started + MINUTES * 60_000;
    while (Date.now() < end) {
      for (const r of runs) {
        try {
          r.forecasts.push((await r.serve.call<CreditForecast>('creditForecast')).perDay);
        } catch {
          // a busy moment: the next round asks again
        }
      }
      await sleep(Math.min(30_000, Math.max(0, end - Date.now())));
    }
    const rows: string[] = [];
    const perDayOf = new Map<string, number>();
    for (const r of runs) {
      const b1 = await bill(net.url, r.serve.key);
      const perDay = ((b1.total - r.start!.total) / (Date.now() - r.startAt!)) * 86_400_000;
      perDayOf.set(r.serve.spec.name, perDay);
      const p = (await r.serve.call<{ data: PortfolioSummary }>('portfolio')).data;
      const positions = p.wallets.reduce((a, w) => a + w.positions.filter((x) => x.debts.length > 0).length, 0);
      const plan = r.serve.spec.plan;
      const first = perDayOf.get(`desk-${plan}-${counts[0]}`)!;
      const planDay = PLANS[plan].monthlyCredits / DAYS_PER_MONTH;
      const f = pct(r.forecasts, 0.5);
      rows.push(
        `| ${PLANS[plan].label} | ${r.n} | ${fmt(positions)} | ${fmt(perDay)} | ${fmt(perDay / r.n)} | ${(perDay / first).toFixed(2)}x for ${(r.n / counts[0]!).toLocaleString('en-US', { maximumFractionDigits: 1 })}x the wallets | ${(perDay / r.n / (first / counts[0]!)).toFixed(2)}x | ${fmt(f)} | ${(perDay / f).toFixed(2)} | ${fmt(planDay)} | ${perDay <= planDay ? 'yes' : 'no'} |`,
      );
    }
    const lines = [
      '## A desk of many wallets: credits a day by wallet count',
      '',
      `Written by \`npm run soak:cost -- ${process.argv.slice(2).join(' ')}\` (bench/cost-soak.ts) on ${new Date().toISOString().slice(0, 16)} UTC, serve running the sources of ${codeMeasured()}: ${MINUTES} minutes, a Demo network of ${marginOwners} margin owners (seed ${SEED}, \`sim --margin-owners ${marginOwners}\`) at speed 1; for each plan and count a tray monitor (\`tidewatch serve --plan\`, no page open) watching that many of its wallets with the most loans, all at once, each billed per key by the Demo network after ${Math.round(WARMUP_MS / 1000)} s of warm-up (the first reads of every wallet left out). Growth: against the ${counts[0]} wallets on the same plan. A plan's budget paces the reads, so a count past what it allows costs the plan's day, not more.`,
      '',
      '| plan | wallets | positions | billed / day | per wallet | growth | per wallet, growth | forecast / day (median) | billed / forecast | plan day | inside it |',
      '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
      ...rows,
    ];
    console.log(`\n${lines.join('\n')}`);
    writeBetweenMarkers(out, DESK_SECTION, lines);
    console.log(`\nwritten to ${out}`);
  } finally {
    for (const r of runs) {
      r.serve.child.kill('SIGTERM');
      await new Promise((res) => (r.serve.child.exitCode === null ? r.serve.child.once('exit', res) : res(null)));
      rmSync(r.serve.dir, { recursive: true, force: true });
    }
    await net.stop();
  }
}

if (values.wallets !== undefined) {
  const counts = values.wallets.split(',').map(Number);
  const plans = (values.plans ?? 'builder,scale').split(',') as PlanName[];
  if (counts.some((n) => !(Number.isInteger(n) && n > 0)) || plans.some((p) => !(p in PLANS)))
    throw new Error('--wallets takes counts like 5,20,100 and --plans names like builder,scale');
  await desk(counts, plans, Number(values['margin-owners'] ?? 100));
} else await main();
