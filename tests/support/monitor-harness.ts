import type { RiskReading } from '../../src/shared/contract';
import type { AlertServices } from '../../src/main/core/alerts/alert-services';
import type { CreditServices } from '../../src/main/core/credits/credit-services';
import type { DigestSchedule } from '../../src/main/core/digest/digest-schedule';
import type { CoreBus } from '../../src/main/core/events';
import { Monitor } from '../../src/main/core/monitor';
import type { SightWatch } from '../../src/main/core/notify/sight';
import type { PushHub } from '../../src/main/core/push-hub';
import type { RiskServices } from '../../src/main/core/risk/risk-services';
import type { ServiceLink } from '../../src/main/core/service-link';
import type { Store } from '../../src/main/core/store/store';
import type { StreamServices } from '../../src/main/core/streams/stream-services';
import type { WatchRegistry } from '../../src/main/core/watch-registry';

/**
 * A monitor that shows a test its services. The shells get the contract and the lifecycle
 * (core/monitor.ts); a test that looks inside (what the store holds, a stream's state, the outbox)
 * or stages what no service would (an alert of its own, a push) builds this instead: the same
 * monitor, built the same way, its services declared public.
 */
export class MonitorHarness extends Monitor {
  declare public readonly events: CoreBus;
  declare public readonly hub: PushHub;
  declare public readonly store: Store;
  declare public readonly watch: WatchRegistry;
  declare public readonly link: ServiceLink;
  declare public readonly alerts: AlertServices;
  declare public readonly risk: RiskServices;
  declare public readonly credits: CreditServices;
  declare public readonly streams: StreamServices;
  declare public readonly digest: DigestSchedule;
  declare public readonly sight: SightWatch;

  /** Read every watched wallet now; resolves with the readings stored. */
  override refreshRisk(): Promise<RiskReading[]> {
    return super.refreshRisk();
  }
}
