import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSafetyNet } from '../main/core/safety-net';
import { startServe } from '../main/web/serve';
import { PLAN_NAMES, type PlanName } from '../shared/credit-prices';
import { intOption, parse, untilSignal, UsageError } from './args';
import { notifyFileOption } from './notify-command';
import { DEFAULT_DATA_DIR, resolveService, SERVICE_OPTIONS } from './service-options';

export const SERVE_USAGE = `tidewatch serve: the monitor without Electron, its UI and API on 127.0.0.1

  tidewatch serve [--port P] [--data-dir DIR] [--watch OWNER]...
                  [--base-url URL [--stream-url URL] [--api-key-file PATH] [--stream-key-file PATH]
                   [--naming spec|deepbook]]
                  [--plan free|builder|scale|pro] [--speed N] [--seed N] [--history | --no-history]
                  [--notify-config FILE]

  Without --base-url it starts the Demo network in this process and uses it. The real
  service's key comes from TIDEWATCH_API_KEY, --api-key-file PATH (chmod 600), or a prompt
  in a terminal; --api-key KEY works but shows the key to every local user (ps), so it warns.
  Streams use the api-key unless a stream key is given (the real service's streams take their
  own): TIDEWATCH_STREAM_KEY or --stream-key-file PATH, and per pool TIDEWATCH_POOL_STREAM_KEYS
  (SUI_USDC=KEY,DEEP_USDC=KEY); --stream-key KEY warns like --api-key.
  Prints "Tidewatch is running at http://127.0.0.1:P/?token=T"; stops on Ctrl-C or SIGTERM.

  --port P          port of the UI and API (default 0: a free one)
  --data-dir DIR    where the store lives (default ${DEFAULT_DATA_DIR})
  --watch OWNER     add an owner address to the watch list (repeatable)
  --plan NAME       choose the service's plan, as in Settings (kept; default: the one chosen
                    there, Free at first): its request rate and stream limit, and its monthly
                    credits as the budget the reads are paced to (Free 250,000, Builder 5 M,
                    Scale 20 M, Pro 50 M)
  --history         on the very first start, fetch the margin stream's retained history (last-id=0);
                    the default on the Demo network. --no-history: only new events (last-id=$),
                    the default on the real service (streamed KB cost credits)
  --notify-config FILE  where alerts go besides the page: ntfy, Telegram, Discord, Slack, e-mail,
                    a signed webhook (JSON or YAML; a secret may be written env:NAME); also
                    the escalation, the blind alarm and the heartbeat. Default:
                    $TIDEWATCH_NOTIFY_CONFIG. Check it with \`tidewatch notify-test\`
  --speed N, --seed N   Demo network only: activity multiplier and seed`;

export async function serveCommand(args: string[]): Promise<number> {
  const o = parse(args, {
    ...SERVICE_OPTIONS,
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    watch: { type: 'string', multiple: true },
    plan: { type: 'string' },
    history: { type: 'boolean' },
    'no-history': { type: 'boolean' },
    'notify-config': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  // Handlers first: a signal that arrives while starting, or right after the line is printed, still stops cleanly.
  const stopped = untilSignal();
  // Whoever read the output may go (a closed terminal, `serve | head`): the monitor keeps running
  // and its log lines go nowhere. Without this, the EPIPE of one line was an uncaught error whose
  // log line failed the same way, and serve spun at 100 % CPU and never stopped on SIGTERM.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const port = intOption('port', o.port, 0, 65_535) ?? 0;
  const dataDir = o['data-dir'] ?? DEFAULT_DATA_DIR;
  if (o.plan !== undefined && !PLAN_NAMES.includes(o.plan as PlanName))
    throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')} (got "${o.plan}")`);
  const notifyFile = notifyFileOption(o['notify-config']);
  const target = await resolveService(o, { startDemo: false });
  ensureUiBuilt();
  const serving = await startServe({
    port,
    dataDir,
    service: target.network === 'custom' ? target : undefined,
    demo: { speed: target.speed, seed: target.seed },
    watch: o.watch,
    plan: o.plan as PlanName | undefined,
    marginFirstStart: o.history ? '0' : o['no-history'] ? '$' : undefined,
    notifyFile,
    log: (line) => console.error(`tidewatch: ${line}`),
  });
  installSafetyNet({
    log: (line) => console.error(`tidewatch: ${serving.monitor.redact(line)}`),
    onError: (err) => serving.monitor.noteInternalError(err),
  });
  console.log(`Tidewatch is running at ${serving.url}`);
  if (notifyFile) {
    const names = notifyFile.config.channels.map((c) => `${c.name} (${c.type})`);
    console.error(
      `tidewatch: alerts go to ${names.length > 0 ? names.join(', ') : 'no channel'}${notifyFile.config.heartbeatUrl ? '; heartbeat on' : ''} (${notifyFile.path})`,
    );
  }
  console.error(
    serving.sim
      ? `tidewatch: Demo network at ${serving.sim.url}; store in ${dataDir}`
      : `tidewatch: service ${target.baseUrl} (streams ${target.streamUrl}); store in ${dataDir}`,
  );
  const signal = await stopped;
  console.error(`tidewatch: ${signal}, committing and stopping`);
  await serving.close();
  return 0;
}

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newestIn(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/**
 * On a fresh clone the UI is not built yet, and after a pull (or an edit) the build is older than
 * its sources: build it (a few seconds) rather than serve a stub page or yesterday's page.
 */
function ensureUiBuilt(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const index = `${root}out/renderer/index.html`;
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > 0 && built >= Math.max(newestIn(`${root}src/renderer`), newestIn(`${root}src/shared`))) return;
  const bin = `${root}node_modules/electron-vite/bin/electron-vite.js`;
  if (!existsSync(bin)) return;
  console.error(
    built > 0
      ? 'tidewatch: the user interface changed since it was built: building it again (out/renderer)…'
      : 'tidewatch: building the user interface once (out/renderer)…',
  );
  const r = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0)
    console.error('tidewatch: the UI build failed; the API still answers. Run `npm run build` to see why.');
}
