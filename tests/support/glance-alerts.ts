import type { AlertRecord } from '../../src/shared/contract';

/**
 * Alerts worded as the alert engine words risk alerts now: the title names the position ("Long
 * 10,175 WAL on WAL_USDC: 1.19, liquidation at $0.1965, −1.2 %") and the message opens with the
 * action ("Deposit 307.4 USDC or repay 70.7 SUI → 1.20."), the details after it.
 */
export const T0 = Date.UTC(2026, 10, 25, 12);

export interface Position {
  manager: string;
  side: 'Long' | 'Short';
  size: string;
  base: string;
  pool: string;
}

export const WAL: Position = {
  manager: `0x${'5dc2'.repeat(16)}`,
  side: 'Long',
  size: '10,175',
  base: 'WAL',
  pool: 'WAL_USDC',
};
export const SUI: Position = {
  manager: `0x${'28f3'.repeat(16)}`,
  side: 'Long',
  size: '1,200',
  base: 'SUI',
  pool: 'SUI_USDC',
};
export const SUI2: Position = {
  manager: `0x${'7a10'.repeat(16)}`,
  side: 'Short',
  size: '800',
  base: 'SUI',
  pool: 'SUI_USDC',
};
export const SUI3: Position = {
  manager: `0x${'91be'.repeat(16)}`,
  side: 'Long',
  size: '3,050',
  base: 'SUI',
  pool: 'SUI_USDC',
};

/** A risk alert of position `p` at `ratio`: critical below 1.15. */
export function riskAlert(id: number, p: Position, ratio: number, patch: Partial<AlertRecord> = {}): AlertRecord {
  const level = ratio < 1.15 ? 'critical' : 'warning';
  return {
    id,
    rule: 'risk-threshold',
    level,
    manager_id: p.manager,
    owner: `0x${'b'.repeat(64)}`,
    event_id: null,
    title: `${p.side} ${p.size} ${p.base} on ${p.pool}: ${ratio.toFixed(2)}, liquidation at $0.1965, −1.2 %`,
    message: `Deposit 307.4 USDC or repay 70.7 ${p.base} → 1.20. Assets $2,400, debt 1,950 USDC ($1,950): ratio ${ratio.toFixed(3)}. ${p.base} at $0.1965 (−1.2 %) liquidates it. It is liquidated below 1.10.`,
    created_at: T0 + id * 1000,
    acknowledged_at: null,
    snoozed_until: null,
    ...patch,
  };
}

/** Position `p` liquidated. */
export function liquidation(id: number, p: Position, patch: Partial<AlertRecord> = {}): AlertRecord {
  return riskAlert(id, p, 1.05, {
    rule: 'liquidation',
    level: 'critical',
    event_id: `e${id}`,
    title: `${p.side} ${p.size} ${p.base} on ${p.pool} liquidated at 1.08`,
    message: `Open the position to see what remains. Repaid 1,950 USDC; left 120 ${p.base} and 40 USDC.`,
    ...patch,
  });
}

/** An alert about no position: Tidewatch went blind. */
export function blind(id: number, patch: Partial<AlertRecord> = {}): AlertRecord {
  return {
    id,
    rule: 'blind',
    level: 'critical',
    manager_id: null,
    owner: null,
    event_id: null,
    title: 'Tidewatch cannot see',
    message:
      'Since 14:02 (3 min): the margin stream is down. Liquidations and threshold crossings are not seen until it sees again; what happened meanwhile is read then and summarised. Check the network, the service and the machine Tidewatch runs on.',
    created_at: T0 + id * 1000,
    acknowledged_at: null,
    snoozed_until: null,
    ...patch,
  };
}
