import type { ActiveLoan, Deposit, Liquidation, Loan, MarginManager } from '../../shared/api';
import { checkpointAt, isoAt } from '../clock';
import type { Debt, Manager, MarginReads } from './margin-manager';
import type { Stamp } from './margin-pools';

/** The wire form of the sim's managers and loans (risk ratios at the current oracle prices). */
export function loanToWire(e: MarginReads, m: Manager): Loan | null {
  const d = m.debt;
  if (!d) return null;
  const ratio = e.riskRatio(m);
  return {
    margin_manager_id: m.id,
    margin_pool_id: d.pool.id,
    loan_amount: d.original,
    loan_shares: Math.round(d.originalShares),
    remaining_amount: e.debtRaw(d),
    remaining_shares: Math.round(d.shares),
    risk_ratio: ratio === null ? null : Math.round(ratio * 1e6) / 1e6,
    checkpoint: checkpointAt(d.stamp.ms),
    timestamp: isoAt(d.stamp.ms),
    digest: d.stamp.digest,
  };
}

export function depositToWire(e: MarginReads, m: Manager): Deposit {
  const base = e.oracle.oracle(m.market.spec.base);
  const quote = e.oracle.oracle(m.market.spec.quote);
  return {
    margin_manager_id: m.id,
    base_asset_amount: m.base,
    quote_asset_amount: m.quote,
    last_base_oracle_price: Math.round(m.deposit.baseOracle * 10 ** base.decimals),
    last_base_oracle_decimals: base.decimals,
    last_quote_oracle_price: Math.round(m.deposit.quoteOracle * 10 ** quote.decimals),
    last_quote_oracle_decimals: quote.decimals,
    checkpoint: checkpointAt(m.deposit.ms),
    timestamp: isoAt(m.deposit.ms),
    digest: m.deposit.digest,
  };
}

export function managerToWire(e: MarginReads, m: Manager, withLoans = true): MarginManager {
  const loan = loanToWire(e, m);
  return {
    margin_manager_id: m.id,
    balance_manager_id: m.balanceManager,
    owner: m.owner,
    dex_pool_id: m.market.pool.pool_id,
    checkpoint: checkpointAt(m.updated.ms),
    checkpoint_timestamp_ms: m.updated.ms,
    onchain_timestamp: m.updated.ms,
    digest: m.updated.digest,
    created_at: isoAt(m.created.ms),
    ...(withLoans ? { active_loans: loan ? [loan] : [] } : {}),
    deposit: depositToWire(e, m),
  };
}

/** Get Active Loans items: the loan, its time, and the manager without its loans. */
export function activeLoanToWire(e: MarginReads, m: Manager): ActiveLoan | null {
  const loan = loanToWire(e, m);
  if (!loan) return null;
  return { ...loan, checkpoint_timestamp_ms: m.debt!.stamp.ms, margin_manager: managerToWire(e, m, false) };
}

/** The Get Liquidations record of a liquidation just done (`m` as it is after it). */
export function liquidationToWire(
  e: MarginReads,
  m: Manager,
  l: {
    debt: Debt;
    stamp: Stamp;
    sender: string;
    ratio: number;
    repaid: number;
    defaulted: number;
    remainingDebt: number;
  },
): Liquidation {
  const ms = l.stamp.ms;
  const baseOracle = e.oracle.oracle(m.market.spec.base);
  const quoteOracle = e.oracle.oracle(m.market.spec.quote);
  return {
    event_digest: `${l.stamp.digest}:0`,
    digest: l.stamp.digest,
    sender: l.sender,
    checkpoint: checkpointAt(ms),
    timestamp: isoAt(ms),
    checkpoint_timestamp_ms: ms,
    margin_manager_id: m.id,
    margin_pool_id: l.debt.pool.id,
    liquidation_amount: l.repaid,
    pool_reward: Math.round(l.repaid * m.risk.poolReward),
    pool_default: l.defaulted,
    risk_ratio: Math.round(l.ratio * 1e6) / 1e6,
    remaining_base_asset: m.base,
    remaining_quote_asset: m.quote,
    remaining_base_debt: l.debt.side === 'base' && m.debt ? l.remainingDebt : 0,
    remaining_quote_debt: l.debt.side === 'quote' && m.debt ? l.remainingDebt : 0,
    base_oracle_price: baseOracle.price,
    base_oracle_decimals: baseOracle.decimals,
    quote_oracle_price: quoteOracle.price,
    quote_oracle_decimals: quoteOracle.decimals,
    onchain_timestamp: ms,
    margin_manager: managerToWire(e, m, false),
  };
}
