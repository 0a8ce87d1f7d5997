import { fileURLToPath } from 'node:url';
import { MemorySecretStore } from '../main/core/settings';
import { Monitor } from '../main/core/monitor';
import { startWebShell } from '../main/web/server';
import { intOption, parse, untilSignal } from './args';
import { DEFAULT_DATA_DIR, resolveService, SERVICE_OPTIONS } from './service-options';

export const SERVE_USAGE = `tidewatch serve: the monitor without Electron, its UI and API on 127.0.0.1

  tidewatch serve [--port P] [--data-dir DIR] [--watch OWNER]...
                  [--base-url URL --stream-url URL --api-key KEY [--naming spec|deepbook]]
                  [--speed N] [--seed N] [--history | --no-history]

  Without --base-url and --api-key it starts the Demo network in this process and uses it.
  Prints "Tidewatch is running at http://127.0.0.1:P/?token=T"; stops on Ctrl-C or SIGTERM.

  --port P          port of the UI and API (default 0: a free one)
  --data-dir DIR    where the store lives (default ${DEFAULT_DATA_DIR})
  --watch OWNER     add an owner address to the watch list (repeatable)
  --history         on the very first start, fetch the margin stream's retained history (last-id=0);
                    the default on the Demo network. --no-history: only new events (last-id=$),
                    the default on the real service (streamed KB cost credits)
  --speed N, --seed N   Demo network only: activity multiplier and seed`;

export async function serveCommand(args: string[]): Promise<number> {
  const o = parse(args, {
    ...SERVICE_OPTIONS,
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    watch: { type: 'string', multiple: true },
    history: { type: 'boolean' },
    'no-history': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  const port = intOption('port', o.port, 0, 65_535) ?? 0;
  const dataDir = o['data-dir'] ?? DEFAULT_DATA_DIR;
  const target = await resolveService(o);
  const monitor = new Monitor({
    dataDir,
    demo: target.network === 'demo' ? { baseUrl: target.baseUrl, apiKey: target.apiKey } : undefined,
    secrets: new MemorySecretStore(target.network === 'custom' ? target.apiKey : null),
    overrides:
      target.network === 'custom'
        ? { network: 'custom', baseUrl: target.baseUrl, streamUrl: target.streamUrl, naming: target.naming }
        : { network: 'demo' },
    watch: o.watch,
    marginFirstStart: o.history ? '0' : o['no-history'] ? '$' : undefined,
    log: (line) => console.error(`tidewatch: ${line}`),
  }).start();
  const web = await startWebShell({
    api: monitor,
    port,
    rendererDir: fileURLToPath(new URL('../../out/renderer', import.meta.url)),
    initial: (topic) => (topic === 'status' ? monitor.status() : undefined),
  });
  console.log(`Tidewatch is running at ${web.url}`);
  console.error(
    target.network === 'demo'
      ? `tidewatch: Demo network at ${target.baseUrl}; store in ${dataDir}`
      : `tidewatch: service ${target.baseUrl} (streams ${target.streamUrl}); store in ${dataDir}`,
  );
  const signal = await untilSignal();
  console.error(`tidewatch: ${signal}, committing and stopping`);
  await web.close();
  await monitor.close();
  await target.sim?.close();
  return 0;
}
