import type { ActiveLoan, Deposit, Loan, MarginManager } from '../../shared/api';
import { checkpointAt, isoAt } from '../clock';
import type { MarginEngine, Manager } from './margin';

/** The wire form of the sim's managers and loans (risk ratios at the current oracle prices). */
export function loanToWire(e: MarginEngine, m: Manager): Loan | null {
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

export function depositToWire(e: MarginEngine, m: Manager): Deposit {
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

export function managerToWire(e: MarginEngine, m: Manager, withLoans = true): MarginManager {
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
export function activeLoanToWire(e: MarginEngine, m: Manager): ActiveLoan | null {
  const loan = loanToWire(e, m);
  if (!loan) return null;
  return { ...loan, checkpoint_timestamp_ms: m.debt!.stamp.ms, margin_manager: managerToWire(e, m, false) };
}
