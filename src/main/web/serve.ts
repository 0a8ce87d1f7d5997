import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { PlanName } from '../../shared/credit-prices';
import { startSim, type RunningSim } from '../../sim';
import { encodeStreamKeys, type StreamKeys } from '../core/client/stream-keys';
import { Monitor, type MonitorOptions } from '../core/monitor';
import { MemorySecretStore } from '../core/settings';
import { startWebShell, type WebShell } from './server';

export interface ServeOptions<M extends Monitor = Monitor> {
  port: number;
  dataDir: string;
  /** The real service; absent: the Demo network in this process. */
  service?: {
    baseUrl: string;
    streamUrl: string;
    apiKey: string;
    streamKeys?: StreamKeys;
    naming: 'spec' | 'deepbook';
  };
  demo?: { speed?: number; seed?: number };
  watch?: string[];
  /** The service's plan (`serve --plan`): chosen in Settings as if there, before anything is read. */
  plan?: PlanName;
  marginFirstStart?: '$' | '0';
  /** `serve --notify-config FILE`, parsed: where alerts go besides the page. */
  notifyFile?: MonitorOptions['notifyFile'];
  /** The alert channels' clock (tests move it to see a failing channel flagged without waiting a minute). */
  notifyClock?: MonitorOptions['notifyClock'];
  rendererDir?: string;
  log?: (line: string) => void;
  /** Builds the monitor from its options (tests build one that shows them its services); default `new Monitor`. */
  buildMonitor?: (options: MonitorOptions) => M;
}

export interface Serving<M extends Monitor = Monitor> {
  url: string;
  monitor: M;
  web: WebShell;
  /** The in-process Demo network, when there is one. */
  sim?: RunningSim;
  close(): Promise<void>;
}

const DEFAULT_RENDERER = fileURLToPath(new URL('../../../out/renderer', import.meta.url));

/**
 * The headless shell, composed: the Demo network (unless a service is given), the monitor on
 * it, and the contract + built UI on loopback. `tidewatch serve` is this and a signal handler.
 */
export async function startServe<M extends Monitor = Monitor>(o: ServeOptions<M>): Promise<Serving<M>> {
  let sim: RunningSim | undefined;
  let demo: MonitorOptions['demo'];
  if (!o.service) {
    const apiKey = randomBytes(12).toString('hex');
    // Gradual: the Demo network listens at once and builds its history in slices, so the store and
    // the cached views answer while it does (its requests wait for the history, in order).
    sim = await startSim({
      apiKeys: [apiKey],
      port: 0,
      host: '127.0.0.1',
      speed: o.demo?.speed,
      seed: o.demo?.seed,
      gradual: true,
    });
    const running = sim;
    demo = {
      baseUrl: sim.url,
      apiKey,
      speed: o.demo?.speed,
      hints: () => (running.world.built ? running.world.owners() : []),
    };
  }
  /** This shell's own address, once it listens. */
  let origin: string | null = null;
  const options: MonitorOptions = {
    dataDir: o.dataDir,
    demo,
    secrets: new MemorySecretStore(o.service?.apiKey ?? null),
    streamSecrets: new MemorySecretStore(o.service?.streamKeys ? encodeStreamKeys(o.service.streamKeys) : null),
    overrides: o.service
      ? { network: 'custom', baseUrl: o.service.baseUrl, streamUrl: o.service.streamUrl, naming: o.service.naming }
      : { network: 'demo' },
    watch: o.watch,
    marginFirstStart: o.marginFirstStart,
    notifyFile: o.notifyFile,
    notifyClock: o.notifyClock,
    // Links in messages point here unless the config names another address (a reverse proxy).
    publicUrl: () => origin,
    log: o.log,
  };
  // Without buildMonitor, M is its default: Monitor.
  const monitor = o.buildMonitor ? o.buildMonitor(options) : (new Monitor(options) as M);
  if (o.plan) monitor.choosePlan(o.plan);
  monitor.start();
  const web = await startWebShell({
    api: monitor,
    port: o.port,
    rendererDir: o.rendererDir ?? DEFAULT_RENDERER,
    initial: (topic) => (topic === 'status' ? monitor.status() : undefined),
    log: (line) => (o.log ?? ((l: string) => console.error(`tidewatch: ${l}`)))(monitor.redact(line)),
    ack: {
      peek: (token) => monitor.alertOfToken(token),
      spend: (token) => monitor.acknowledgeByToken(token),
    },
  });
  origin = `http://127.0.0.1:${web.port}`;
  return {
    url: web.url,
    monitor,
    web,
    sim,
    async close() {
      await web.close();
      await monitor.close();
      await sim?.close();
    },
  };
}
