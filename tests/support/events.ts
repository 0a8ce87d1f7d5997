import { EventBus, type CoreEvents } from '../../src/main/core/events';
import type { AlertRecord } from '../../src/shared/contract';

/** A bus whose raised alerts (`alertsRaised`, what the shells are pushed) are kept in `heard`. */
export function alertsHeard(heard: AlertRecord[]): EventBus<CoreEvents> {
  const events = new EventBus<CoreEvents>();
  events.on('alertsRaised', ({ alerts }) => heard.push(...alerts));
  return events;
}
