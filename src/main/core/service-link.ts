import type { Settings } from '../../shared/contract';
import type { SettingsService } from './settings';
import { ServiceError } from './client/errors';
import type { ServiceConfig } from './client/http';
import { ServiceClient } from './client/service-client';
import { serviceConfigOf, serviceIdentity, type DemoTarget } from './client/service-target';
import type { CoreBus } from './events';

export interface ServiceLinkOptions {
  settings: Pick<SettingsService, 'effective' | 'apiKey' | 'streamKeys'>;
  /** The Demo network the shell started (src/sim), used when the network is `demo`. */
  demo?: DemoTarget;
  fetch?: typeof fetch;
  /** How long one answer, and so one contract call, may take (ServiceConfig.timeoutMs; default 30 s). */
  timeoutMs?: number;
  /**
   * Publishes each answered request (`requestAnswered`, by its spec path: the credit meter counts
   * them) and each change of reachability (`offlineChanged`); hears the streams' (`streamReached`).
   */
  events: Pick<CoreBus, 'on' | 'emit'>;
}

/**
 * The data service as the settings point at it: the client, whether Tidewatch can connect at all
 * (a key and an address), which service it is (a change of network, URL, key or naming is another
 * service), whether it is reachable now (the offline banner), and whether it may be asked at all.
 */
export class ServiceLink {
  readonly client: ServiceClient;
  private identity: string;
  private offlineSince: number | null = null;
  private closed = false;
  /** Each answered request, published: one function for the client's every answer. */
  private readonly answered: (specPath: string) => void;

  constructor(private readonly o: ServiceLinkOptions) {
    this.answered = (specPath) => o.events.emit('requestAnswered', { specPath });
    const config = this.config();
    this.client = new ServiceClient(config);
    this.identity = serviceIdentity(config);
    o.events.on('streamReached', ({ reachable }) => this.noteNetwork(reachable ? undefined : 'unreachable'));
  }

  private get settings(): Settings {
    return this.o.settings.effective();
  }

  private demo(): DemoTarget | undefined {
    return this.settings.network === 'demo' ? this.o.demo : undefined;
  }

  /**
   * The Demo network's speed while the settings point at it (its market and its streams run that
   * many times faster than real time), or null on the service.
   */
  demoSpeed(): number | null {
    return this.settings.network === 'demo' ? (this.o.demo?.speed ?? 1) : null;
  }

  apiKey(): string | null {
    return this.settings.network === 'demo' ? (this.o.demo?.apiKey ?? null) : this.o.settings.apiKey();
  }

  /** A key and an address: without them nothing is asked of the service. */
  canConnect(): boolean {
    const s = this.settings;
    return this.apiKey() !== null && (s.network === 'demo' ? this.o.demo !== undefined : s.baseUrl !== '');
  }

  /** A key, an address, and the monitor open: reads and streams may go out. */
  mayAsk(): boolean {
    return !this.closed && this.canConnect();
  }

  /** The monitor closes: nothing more is asked of the service. */
  close(): void {
    this.closed = true;
  }

  config(): ServiceConfig {
    const keys = { apiKey: this.apiKey(), streamKeys: this.o.settings.streamKeys() };
    return serviceConfigOf(this.settings, this.demo(), keys, {
      fetch: this.o.fetch,
      timeoutMs: this.o.timeoutMs,
      onAnswered: this.answered,
    });
  }

  /** Point the client at the settings again; true when the service itself changed. */
  reconfigure(): boolean {
    const config = this.config();
    const identity = serviceIdentity(config);
    const changed = identity !== this.identity;
    this.identity = identity;
    this.client.http.reconfigure(config);
    return changed;
  }

  /** Whether the service is known to be unreachable now. */
  get offline(): boolean {
    return this.offlineSince !== null;
  }

  /** Since when it is unreachable (ms), or null. */
  get unreachableSince(): number | null {
    return this.offlineSince;
  }

  /**
   * Whether the service answered: a network failure or timeout (or 'unreachable' from the
   * streams) makes it offline, an answer (no error) online; any other error says nothing of it.
   */
  noteNetwork(err?: unknown): void {
    const offline =
      err === 'unreachable' || (err instanceof ServiceError && (err.kind === 'network' || err.kind === 'timeout'));
    const was = this.offlineSince;
    if (offline) this.offlineSince ??= Date.now();
    else if (!err) this.offlineSince = null;
    if (was !== this.offlineSince) this.o.events.emit('offlineChanged', { offline: this.offlineSince !== null });
  }
}
