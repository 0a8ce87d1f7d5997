import type { CreditUsage } from '../../shared/contract';
import { num } from './format';

/** Credits are the app's own spending, not the trader's positions: privacy mode leaves them shown. */
const whole = (x: number): string => num(x, 0, { private: false });

/** Share of the month's budget spent (0..), or null without a budget. */
export function budgetShare(u: CreditUsage): number | null {
  return u.budget ? u.thisMonth / u.budget : null;
}

/** The meter in one line: today, this month (against the budget), what of it is an estimate. */
export function creditsSummary(u: CreditUsage): string {
  const share = budgetShare(u);
  const month = `${whole(u.thisMonth)} this month${u.budget ? ` of a ${whole(u.budget)} budget (${Math.round((share ?? 0) * 100)} %)` : ''}`;
  const estimate = u.estimated > 0 ? ` · ${whole(u.estimated)} of them estimated (prices not published)` : '';
  return `Credits: ${whole(u.today)} today · ${month}${estimate}`;
}

/** The Settings view's longer reading: the summary, what the streams took, and what it rests on. */
export function creditsDetail(u: CreditUsage): string {
  return `${creditsSummary(u)} · ${whole(u.streamedKb)} KB streamed. Counted by the service's published prices (streams 1 credit per KB); its dashboard is the authority.`;
}
