/**
 * Notify latency: from a liquidation of a watched manager on the margin stream to its
 * message at the trader's phone, on the two channels most traders use (Telegram, ntfy). The Demo
 * network runs as its own process; `tidewatch serve` (its own process, started as the CLI starts
 * it, only new events: --no-history) watches the owners with the most margin managers and sends
 * its alerts through a notify config at production defaults (no minIntervalSec) to local servers
 * that speak ntfy's publish API and the Telegram Bot API (tests/support/receivers.ts), in this
 * process. This process also reads the margin stream itself: when a liquidation arrives here is
 * "on the stream", and both that time and each message's arrival are read off this one process's
 * clock. serve's alerts (its HTTP API) say which stream event each liquidation alert is for.
 *
 *   npm run soak:notify                                    5 minutes at speed 300, 40 owners
 *   TIDEWATCH_NOTIFY_MINUTES=10 npm run soak:notify
 *   npm run soak:notify -- --minutes 5 --speed 300 --owners 40 --seed 7
 *
 * Prints the table and writes it to docs/notify-latency.md (--out FILE elsewhere);
 * TIDEWATCH_NOTIFY_DUMP=FILE also writes the raw times (liquidations, alerts, arrivals) as JSON.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { MIN_INTERVAL_MS } from '../src/main/core/notify/outbox-worker';
import { EVENT_TYPES } from '../src/shared/api';
import type { AlertRecord } from '../src/shared/contract';
import type { PortfolioSummary } from '../src/shared/portfolio';
import type { StatusSnapshot } from '../src/shared/status';
import { World } from '../src/sim';
import { Receivers, type Arrival } from '../tests/support/receivers';
import { busiestOwners } from '../tests/support/sim';
import { spawnServe, spawnSim, type ServeProcess } from './support';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    owners: { type: 'string' },
    out: { type: 'string' },
  },
});
const MINUTES = Number(values.minutes ?? process.env['TIDEWATCH_NOTIFY_MINUTES'] ?? 5);
const SPEED = Number(values.speed ?? 300);
const SEED = Number(values.seed ?? 7);
const OWNERS = Number(values.owners ?? 40);
const OUT = values.out ?? fileURLToPath(new URL('../docs/notify-latency.md', import.meta.url));
const KEY = 'notify-latency';
/** After the run, how long messages of its last liquidations may still take (interval, a retry). */
const DRAIN_MS = 120_000;
const CHANNELS = ['telegram', 'ntfy'] as const;
/** The channels' least time between two messages at production defaults (outbox-worker.ts MIN_INTERVAL_MS). */
const INTERVAL_MS = MIN_INTERVAL_MS.telegram;
/** From an alert queued to its message at a local receiver when nothing holds it (composing, the HTTP request): ~10-120 ms measured. */
const SEND_SLACK_MS = 500;

/** The commit serve runs (it runs from the sources), and the files of the sources changed since. */
function codeMeasured(): string {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }).trim();
  try {
    const head = git('log', '-1', '--format=%h (%s)');
    const dirty = git('status', '--porcelain', '--', 'src', 'bin')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
    return `commit ${head}${dirty.length > 0 ? `, with uncommitted changes to ${dirty.join(', ')}` : ''}`;
  } catch {
    return 'a tree git cannot describe';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string): void => console.log(`notify-latency: ${line}`);

/** Nearest rank: the smallest value with at least p % of the values at or below it. */
const pct = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface StreamLiquidation {
  id: string;
  manager: string;
  /** When this process read it off the stream (Date.now()). */
  at: number;
}

/**
 * This process's own subscription to the margin stream (`last-id=$`: new events only, as serve's):
 * every liquidation with its arrival, and the owners of managers created meanwhile.
 */
async function readStream(
  base: string,
  managerOwner: Map<string, string>,
): Promise<{ liquidations: StreamLiquidation[]; openedAt: number; ended: () => string | null; stop(): void }> {
  const liquidations: StreamLiquidation[] = [];
  const ctl = new AbortController();
  let ended: string | null = null;
  const res = await fetch(`${base}/dex-margin/manager-updates?api-key=${KEY}&last-id=$`, {
    signal: ctl.signal,
    headers: { accept: 'text/event-stream' },
  });
  if (!res.ok || !res.body) throw new Error(`the margin stream answered ${res.status}`);
  const openedAt = Date.now();
  const parser = createParser({
    onEvent: (e) => {
      const at = Date.now();
      let msg: { type?: string; data?: { margin_manager_id?: string; owner?: string } };
      try {
        msg = JSON.parse(e.data) as typeof msg;
      } catch {
        return;
      }
      const manager = msg.data?.margin_manager_id;
      if (!manager) return;
      if (msg.type === EVENT_TYPES.liquidation && e.id) liquidations.push({ id: e.id, manager, at });
      else if (msg.type === EVENT_TYPES.managerCreated && msg.data?.owner) managerOwner.set(manager, msg.data.owner);
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    ended = 'the margin stream ended';
  })().catch((err: unknown) => {
    if (!ctl.signal.aborted) ended = `the margin stream failed: ${(err as Error).message}`;
  });
  return { liquidations, openedAt, ended: () => ended, stop: () => ctl.abort() };
}

/** The first message (not a repeat) on `kind` that names alert `id`. */
function firstArrival(rx: Receivers, kind: Arrival['kind'], id: number): Arrival | undefined {
  return rx.of(kind).find((a) => a.alerts.some((n, i) => n === id && (a.repeats[i] ?? 0) === 0));
}

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(500);
  }
  say(`gave up waiting for ${what} after ${ms / 1000} s`);
  return false;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-notify-latency-'));
  const rx = await Receivers.start();
  const config = join(dir, 'notify.json');
  // The two channels pointed here, at production defaults (level warning and up, every rule, the 5 s interval).
  writeFileSync(
    config,
    JSON.stringify({ channels: rx.channels().filter((c) => c.type === 'ntfy' || c.type === 'telegram') }, null, 2),
  );

  const anchor = Date.now();
  const world = new World({ seed: SEED, nowMs: anchor });
  const owners = busiestOwners(world, OWNERS);
  const watched = new Set(owners);
  const managerOwner = new Map(world.margin.managers.map((m) => [m.id, m.owner] as [string, string]));
  const watchedManagers = [...managerOwner.values()].filter((o) => watched.has(o)).length;

  let net: Awaited<ReturnType<typeof spawnSim>> | undefined;
  let serve: ServeProcess | undefined;
  let stream: Awaited<ReturnType<typeof readStream>> | undefined;
  const cleanup = async (): Promise<void> => {
    stream?.stop();
    for (const child of [serve?.child, net?.child]) {
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(kill);
    }
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (): void => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    net = await spawnSim([
      '--seed',
      String(SEED),
      '--speed',
      String(SPEED),
      '--api-key',
      KEY,
      '--anchor-ms',
      String(anchor),
    ]);
    // Ours first: the Demo network writes each event to its subscribers in the order they came.
    stream = await readStream(net.url, managerOwner);
    const code = codeMeasured();
    serve = await spawnServe('serve', [
      '--data-dir',
      dir,
      '--base-url',
      net.url,
      '--stream-url',
      net.url,
      '--api-key',
      KEY,
      '--plan',
      'builder',
      '--no-history',
      '--notify-config',
      config,
      ...owners.flatMap((o) => ['--watch', o]),
    ]);
    const s = serve;
    const marginState = async () =>
      (await s.call<StatusSnapshot>('streamStatus')).streams.find((x) => x.id === 'margin')?.state;
    await until("serve's margin stream", 60_000, async () => (await marginState()) === 'open');
    // Every watched wallet valued once: serve knows their managers (a liquidation is alerted on receipt).
    await until('the first valuation of every watched wallet', 180_000, async () => {
      const p = (await s.call<{ data: PortfolioSummary | null }>('portfolio', {})).data;
      return (p?.wallets.length ?? 0) >= owners.length;
    });
    const t0 = Date.now();
    const t1 = t0 + MINUTES * 60_000;
    say(
      `watching ${owners.length} owners (${watchedManagers} managers) on seed ${SEED} at speed ${SPEED} for ${MINUTES} min (${((MINUTES * SPEED) / 60).toFixed(0)} h of market time); ready ${((t0 - anchor) / 1000).toFixed(0)} s after start`,
    );

    // serve's alerts, read as the run goes (the alerts query returns the newest 1,000).
    const all = new Map<number, AlertRecord>();
    const alerts = new Map<number, AlertRecord>();
    const readAlerts = async (): Promise<void> => {
      for (const a of (await s.call<{ data: AlertRecord[] }>('alerts', { includeAcknowledged: true, limit: 1000 }))
        .data) {
        all.set(a.id, a);
        if (a.rule === 'liquidation') alerts.set(a.id, a);
      }
    };
    const counted = (): StreamLiquidation[] => stream!.liquidations.filter((l) => l.at >= t0 && l.at <= t1);
    const byEvent = (): Map<string, AlertRecord> => new Map([...alerts.values()].map((a) => [a.event_id ?? '', a]));
    /** Liquidations of watched managers in the run: the owner known here, or serve alerted it (a manager this process had not learnt). */
    const ofWatched = (): StreamLiquidation[] => {
      const ev = byEvent();
      return counted().filter((l) => watched.has(managerOwner.get(l.manager) ?? '') || ev.has(l.id));
    };
    let lastSay = t0;
    while (Date.now() < t1) {
      await sleep(Math.min(5_000, t1 - Date.now()));
      await readAlerts();
      if (stream.ended()) throw new Error(stream.ended()!);
      if (serve.child.exitCode !== null) throw new Error(`serve exited (${serve.child.exitCode})`);
      if (Date.now() - lastSay >= 60_000) {
        lastSay = Date.now();
        say(
          `${((Date.now() - t0) / 60_000).toFixed(0)} min: ${ofWatched().length} liquidations of watched managers, ${alerts.size} liquidation alerts, ${rx.of('telegram').length} Telegram and ${rx.of('ntfy').length} ntfy messages`,
        );
      }
    }
    // The last liquidations' messages: wait until each has arrived on both channels (or the drain ends).
    await until('the last messages', DRAIN_MS, async () => {
      await readAlerts();
      const ev = byEvent();
      return ofWatched().every((l) => {
        const a = ev.get(l.id);
        return a !== undefined && CHANNELS.every((k) => firstArrival(rx, k, a.id) !== undefined);
      });
    });
    await readAlerts();

    const liqs = ofWatched();
    const ev = byEvent();
    const raised = liqs.flatMap((l) => (ev.has(l.id) ? [ev.get(l.id)!.created_at - l.at] : [])).sort((a, b) => a - b);
    const notAlerted = liqs.filter((l) => !ev.has(l.id));
    const extraAlerts = [...alerts.values()].filter(
      (a) => a.created_at >= t0 && a.created_at <= t1 && !stream!.liquidations.some((l) => l.id === a.event_id),
    );
    const row = (
      name: string,
      xs: number[],
      of: number,
      lost: number | string,
      grouped: string,
      held: string,
      deferred: string,
    ): string[] => [
      name,
      `${xs.length} of ${of}`,
      String(lost),
      xs.length ? String(pct(xs, 50)) : '-',
      xs.length ? String(pct(xs, 99)) : '-',
      xs.length ? String(xs.at(-1)) : '-',
      grouped,
      held,
      deferred,
    ];
    const rows: string[][] = [
      row('alert raised in serve (its created_at)', raised, liqs.length, notAlerted.length, '-', '-', '-'),
    ];
    const missing: Record<string, number> = {};
    const worst: string[] = [];
    for (const kind of CHANNELS) {
      const xs: number[] = [];
      let grouped = 0;
      let held = 0;
      let deferred = 0;
      let lost = 0;
      let slowest: { ms: number; before: Arrival[] } | undefined;
      for (const l of liqs) {
        const a = ev.get(l.id);
        if (!a) continue;
        const m = firstArrival(rx, kind, a.id);
        if (!m) {
          lost++;
          continue;
        }
        xs.push(m.at - l.at);
        if (m.alerts.length > 1) grouped++;
        // Not sent at once: the channel's pacing (its interval after the message before) held it.
        if (m.at - a.created_at > SEND_SLACK_MS) held++;
        // A message went out after the alert was queued (allowing its composing and sending) without it: it was left for a later one.
        const before = rx.of(kind).filter((x) => x.at > a.created_at + SEND_SLACK_MS && x.at < m.at);
        if (before.length > 0) deferred++;
        if (!slowest || m.at - l.at > slowest.ms) slowest = { ms: m.at - l.at, before };
      }
      if (slowest) {
        const alertsAhead = slowest.before.reduce((n, x) => n + x.alerts.length, 0);
        const levels = slowest.before.flatMap((x) => x.alerts.map((id) => all.get(id)).filter((x) => x !== undefined));
        const ahead = (rule: string) => levels.filter((x) => x.rule === rule).length;
        worst.push(
          `${kind === 'telegram' ? 'Telegram' : 'ntfy'}'s slowest, ${slowest.ms} ms, ` +
            (slowest.before.length === 0
              ? 'went in the first message after it'
              : `went after ${slowest.before.length} ${slowest.before.length === 1 ? 'message' : 'messages'} carrying ${alertsAhead} alerts queued before it (${ahead('risk-threshold')} threshold alerts, ${ahead('liquidation')} liquidations, ${alertsAhead - ahead('risk-threshold') - ahead('liquidation')} other)`),
        );
      }
      xs.sort((x, y) => x - y);
      missing[kind] = lost;
      rows.push(
        row(
          kind === 'telegram' ? 'Telegram (Bot API sendMessage)' : 'ntfy (publish)',
          xs,
          liqs.length - notAlerted.length,
          lost,
          String(grouped),
          String(held),
          String(deferred),
        ),
      );
    }
    const messages = (kind: Arrival['kind']) => rx.of(kind).filter((m) => m.at >= t0).length;
    const cpu = cpus();
    const lines = [
      '# Notify latency: from a liquidation on the stream to the message at the receiver',
      '',
      `Measured by \`npm run soak:notify\` (bench/notify-latency.ts) on ${new Date().toISOString().slice(0, 10)}, on ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), serve running the sources of ${code}. ` +
        `The Demo network (\`tidewatch sim\`, seed ${SEED}, speed ${SPEED}) and \`tidewatch serve\` (plan Builder, \`--no-history\`, \`--notify-config\` with one ntfy and one Telegram channel at production defaults: level warning and up, every rule, no \`minIntervalSec\`) ran as processes of their own; ` +
        `serve watched ${owners.length < OWNERS ? `all ${owners.length} owners of margin managers` : `the ${owners.length} owners with the most margin managers`} (${watchedManagers} managers at the start) for ${MINUTES} minutes (${((MINUTES * SPEED) / 60).toFixed(0)} hours of market time), after its margin stream was open and every wallet valued once. ` +
        `${liqs.length} liquidations of watched managers came on the margin stream in that time; serve raised ${raised.length} liquidation alerts for them. ` +
        `Both ends were measured by the bench process: it reads the margin stream itself (\`last-id=$\`) and notes when each liquidation arrives there, and it runs the receivers, real local HTTP servers speaking ntfy's publish API and the Telegram Bot API, which note when each message arrived. ` +
        `Latency: the message's arrival (for a message that groups several alerts, its arrival) minus the liquidation's arrival on the bench's stream; the alert's own \`created_at\` (serve's clock, the same machine's) shows the stream-to-alert part. In ms; p99 is the nearest rank, so with fewer than 100 liquidations it is the maximum.`,
      '',
      `| from the liquidation on the stream to | liquidations | never arrived | p50 ms | p99 ms | max ms | in a grouped message | held by the channel's pacing | left for a later message |`,
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `Messages in the run, every rule and repeat: ${messages('telegram')} on Telegram, ${messages('ntfy')} on ntfy. ` +
        `"Grouped": the liquidation's message named other alerts too (threshold alerts, another liquidation, an escalation's repeat). ` +
        `"Held": the message reached the receiver more than ${SEND_SLACK_MS} ms after serve raised the alert, because the channel had sent a message shortly before: a channel keeps a pace (src/main/core/notify/outbox-worker.ts; ${INTERVAL_MS / 1000} s between messages by default, which turns a burst into one message) and what comes meanwhile goes in its next message. ` +
        `"Left for a later message": a message went out on the channel after the liquidation's alert was queued, without it, and the liquidation went in a later one (a message carries at most 20 alerts, fewer when they do not fit the receiver's message). ${worst.join('; ')}. ` +
        `The Demo network moves with the wall clock, so two runs of the same seed are not the same market: the tail (here the maximum) depends on whether liquidations come right after a price move that takes many watched positions over a threshold at once, and moves from run to run.`,
      '',
      `Connection timing: the bench subscribed to the margin stream before serve started, and the Demo network writes each event to every subscriber in the same tick, in the order they subscribed, so the bench's copy is written first; what is measured from there includes the time serve took to read and parse its own copy. The bench's process does nothing but read the stream and answer the receivers, while serve also stores every event of the stream; the two SSE clients are different code (eventsource-parser over fetch here, serve's own supervisor there). serve's alert was raised ${raised.length ? `a median ${pct(raised, 50)} ms (at most ${raised.at(-1)} ms)` : '-'} after the bench read the event (the first row; serve's \`created_at\` is the same machine's wall clock read in another process), so the two copies were read within milliseconds of each other and the rest of each latency is the way from the alert to the receiver.`,
    ];
    if (notAlerted.length > 0 || extraAlerts.length > 0 || Object.values(missing).some((n) => n > 0)) {
      lines.push(
        '',
        `Odd: ${notAlerted.length} liquidations of watched managers without an alert (${notAlerted
          .slice(0, 5)
          .map((l) => l.id)
          .join(
            ', ',
          )}); ${extraAlerts.length} liquidation alerts in the run for events the bench did not see on its stream; never arrived: ${CHANNELS.map((k) => `${k} ${missing[k]}`).join(', ')}.`,
      );
    }
    const dump = process.env['TIDEWATCH_NOTIFY_DUMP'];
    if (dump) {
      writeFileSync(
        dump,
        JSON.stringify(
          {
            t0,
            t1,
            liquidations: liqs,
            alerts: [...all.values()],
            arrivals: rx.arrivals.map(({ headers: _headers, ...a }) => a),
          },
          null,
          1,
        ),
      );
    }
    console.log(lines.join('\n'));
    writeFileSync(OUT, `${lines.join('\n')}\n`);
    say(`wrote ${OUT}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
  }
}

await main();
