import type { StreamStatus } from '../../../shared/contract';
import type { ServiceLink } from '../service-link';
import { monthlyBudgetOf, type SettingsService } from '../settings';
import type { SettingsRepo } from '../store/settings-repo';
import type { StoreHealth } from '../store/store-health';
import { CreditMeter, CREDITS_KEY, type CreditCounts, type CreditMeterDeps } from './credit-meter';
import { CreditPlan, type CreditPlanDeps } from './credit-plan';
import type { StreamVolumes } from './stream-volume';

export interface CreditServicesDeps {
  settings: SettingsService;
  /** Where the counts are kept across restarts. */
  stored: Pick<SettingsRepo, 'get' | 'set'>;
  storeHealth: Pick<StoreHealth, 'guard'>;
  link: ServiceLink;
  /** The reads the risk room makes, for the forecast and the budget's pacing. */
  risk: Pick<CreditPlanDeps, 'risk' | 'schedule'>;
  /** The streams: what each receives, their states, the limit on how many are open, which the guard holds. */
  streams: {
    volumes: StreamVolumes;
    supervisor: { statuses(): StreamStatus[]; setBudget(streams: number): void };
    pools?: { isGuarded(pool: string): boolean };
  };
  owners: () => number;
  onBudget: CreditMeterDeps['onBudget'];
  onChange: () => void;
}

/**
 * The credits room, built and wired: the meter that counts what the service bills (each request
 * at its published price, each KB a stream delivers) and the plan Tidewatch keeps to (streams
 * open at once, the month's budget, the forecast).
 */
export class CreditServices {
  readonly meter: CreditMeter;
  readonly plan: CreditPlan;

  constructor(private readonly d: CreditServicesDeps) {
    this.meter = new CreditMeter({
      load: () => d.stored.get<CreditCounts>(CREDITS_KEY),
      save: (c) => d.storeHealth.guard(() => d.stored.set(CREDITS_KEY, c)),
      budget: () => monthlyBudgetOf(d.settings.effective()),
      onBudget: d.onBudget,
      onChange: d.onChange,
    });
    const { supervisor, volumes, pools } = d.streams;
    this.plan = new CreditPlan({
      ...d.risk,
      settings: d.settings,
      link: d.link,
      credits: this.meter,
      volumes,
      streams: () =>
        supervisor
          .statuses()
          .map((s) => (s.id.startsWith('pool:') && pools?.isGuarded(s.id.slice(5)) ? { ...s, guard: true } : s)),
      owners: d.owners,
      setStreamBudget: (n) => supervisor.setBudget(n),
    });
    supervisor.setBudget(this.plan.streamBudget());
  }

  /** Whether what this run asks is charged (a service, not the free Demo network in this process). */
  get metered(): boolean {
    return this.d.link.client.http.metered;
  }

  /** Bytes a stream received: counted where the service bills them. */
  noteStreamBytes(bytes: number): void {
    if (this.metered) this.meter.noteStreamBytes(bytes);
  }
}
