import type { CoreBus } from '../events';
import type { PushHub } from '../push-hub';

/**
 * What goes out on each topic of the contract (`subscribe`): the facts the rooms publish that a
 * page shows. Subscribed before any other listener, so a page hears of a fact first.
 */
export function pushFacts(events: Pick<CoreBus, 'on'>, hub: Pick<PushHub, 'publish'>): void {
  events.on('statusChanged', ({ status }) => hub.publish('status', status));
  events.on('alertsRaised', ({ alerts }) => hub.publish('alerts', alerts));
  events.on('alertsUpdated', ({ alerts }) => hub.publish('alerts', alerts));
  events.on('positionsValued', (push) => hub.publish('risk', push));
  events.on('marginEventsReady', ({ events: shown }) => hub.publish('margin', shown));
  events.on('poolStreamRead', (push) => hub.publish(`pool:${push.pool}`, push));
}
