import type { CreditUsage } from '../../../shared/contract';
import type { CoreBus } from '../events';
import type { RiskServices } from '../risk/risk-services';
import type { ServiceLink } from '../service-link';
import { monthlyBudgetOf, type SettingsService } from '../settings';
import type { SettingsRepo } from '../store/settings-repo';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';
import { CreditMeter, CREDITS_KEY, type CreditCounts } from './credit-meter';
import { CreditPlan } from './credit-plan';
import { StreamVolumes } from './stream-volume';

export interface CreditServicesDeps {
  settings: SettingsService;
  /** Where the counts are kept across restarts. */
  stored: Pick<SettingsRepo, 'get' | 'set'>;
  storeHealth: Pick<StoreHealth, 'guard'>;
  link: ServiceLink;
  /** The reads the risk room makes, for the forecast and the budget's pacing; it is handed the plan. */
  risk: Pick<RiskServices, 'refresh' | 'schedule' | 'prices' | 'paceBy' | 'liquidationMap'>;
  /** How many owners are watched (the forecast). */
  watch: Pick<WatchRegistry, 'list'>;
  /** Hears what the service bills (`requestAnswered`, `streamBytes`); the meter and the plan publish here. */
  events: CoreBus;
}

/**
 * The credits room, built and wired: the meter that counts what the service bills (each request
 * at its published price, each KB a stream delivers), what each stream receives (the cost model's
 * rates), and the plan Tidewatch keeps to (streams open at once, the month's budget, which paces
 * the risk room's reads, the forecast).
 */
export class CreditServices {
  readonly meter: CreditMeter;
  readonly plan: CreditPlan;
  /** What each stream receives, for the cost model (credits/credit-plan.ts). */
  readonly volumes = new StreamVolumes();

  constructor(private readonly d: CreditServicesDeps) {
    this.meter = new CreditMeter({
      load: () => d.stored.get<CreditCounts>(CREDITS_KEY),
      save: (c) => d.storeHealth.guard(() => d.stored.set(CREDITS_KEY, c)),
      budget: () => monthlyBudgetOf(d.settings.effective()),
      events: d.events,
    });
    this.plan = new CreditPlan({
      settings: d.settings,
      link: d.link,
      credits: this.meter,
      volumes: this.volumes,
      risk: d.risk,
      watch: d.watch,
      events: d.events,
    });
    d.risk.paceBy(this.plan);
    d.events.on('requestAnswered', ({ specPath }) => this.meter.noteRequest(specPath));
    d.events.on('streamPacedBytes', ({ streamId, bytes }) => this.volumes.notePaced(streamId, bytes));
    d.events.on('streamBytes', ({ streamId, bytes }) => {
      this.volumes.note(streamId, bytes);
      // Counted where the service bills them.
      if (this.metered) this.meter.noteStreamBytes(bytes, streamId.startsWith('pool:'));
    });
  }

  /** Whether what this run asks is charged (a service, not the free Demo network in this process). */
  get metered(): boolean {
    return this.d.link.client.http.metered;
  }

  /** The credits spent where the service bills, null where it is free. */
  usage(): CreditUsage | null {
    return this.metered ? this.meter.usage() : null;
  }
}
