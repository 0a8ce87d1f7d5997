import type { AlertRecord } from '../../../src/shared/contract';

export const T0 = Date.UTC(2026, 10, 23, 9, 0);
export const MIN = 60_000;

/** A warning of position 0xaaa1, `id` minutes after T0, as patched. */
export const alert = (id: number, patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  rule: 'risk-threshold',
  level: 'warning',
  manager_id: '0xaaa1',
  owner: '0xo1',
  event_id: null,
  title: `alert ${id}`,
  message: `message ${id}`,
  created_at: T0 + id * MIN,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

/**
 * One wallet's burst: position A went warning, critical, liquidated; position B repeated its
 * warning three times; Tidewatch went blind and saw again (twice); two other traders' large
 * liquidations; one stream key rejected, already acknowledged.
 */
export const BURST: AlertRecord[] = [
  alert(1, { level: 'warning' }),
  alert(2, { level: 'critical' }),
  alert(3, { rule: 'liquidation', level: 'critical', title: 'Liquidated', event_id: 'e3' }),
  alert(4, { manager_id: '0xbbb2' }),
  alert(5, { manager_id: '0xbbb2' }),
  alert(6, { manager_id: '0xbbb2' }),
  alert(7, { rule: 'blind', level: 'critical', manager_id: null, owner: null, title: 'Tidewatch cannot see' }),
  alert(8, { rule: 'blind', level: 'info', manager_id: null, owner: null, title: 'Tidewatch sees again' }),
  alert(9, { rule: 'blind', level: 'critical', manager_id: null, owner: null, title: 'Tidewatch cannot see' }),
  alert(10, { rule: 'blind', level: 'info', manager_id: null, owner: null, title: 'Tidewatch sees again' }),
  alert(11, { rule: 'large-liquidation', manager_id: '0xccc3', owner: null, title: 'Large liquidation: $120,000' }),
  alert(12, { rule: 'large-liquidation', manager_id: '0xddd4', owner: null, title: 'Large liquidation: $90,000' }),
  alert(13, {
    rule: 'stream-auth',
    manager_id: null,
    owner: null,
    title: 'API key rejected',
    acknowledged_at: T0 + 14 * MIN,
  }),
];
