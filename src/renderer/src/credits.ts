import type { CreditForecast, CreditUsage, PositionSummary, ReadPlan } from '../../shared/contract';
import { DAYS_PER_MONTH } from '../../shared/credit-prices';
import { count, distance, every, pct } from './format';

/** Credits are the app's own spending, not the trader's positions: privacy mode leaves them shown. */
export const whole = (x: number): string => count(x, { private: false });

/** Share of the month's budget spent (0..), or null without a budget. */
export function budgetShare(u: CreditUsage): number | null {
  return u.budget ? u.thisMonth / u.budget : null;
}

/** The meter in one line: today, this month (against the budget), what of it is an estimate. */
export function creditsSummary(u: CreditUsage): string {
  const share = budgetShare(u);
  const month = `${whole(u.thisMonth)} this month${u.budget ? ` of a ${whole(u.budget)} budget (${pct((share ?? 0) * 100, 0)})` : ''}`;
  const estimate = u.estimated > 0 ? ` · ${whole(u.estimated)} of them estimated (prices not published)` : '';
  return `Credits: ${whole(u.today)} today · ${month}${estimate}`;
}

/** The Settings view's longer reading: the summary, what the streams took, and what it rests on. */
export function creditsDetail(u: CreditUsage): string {
  return `${creditsSummary(u)} · ${whole(u.streamedKb)} KB streamed. Counted by the service's published prices (streams 1 credit per KB); its dashboard is the authority.`;
}

/** How often the Settings view and a pool's page read the forecast again while they are shown. */
export const FORECAST_EVERY_MS = 30_000;

/** "About 6,900": a forecast is an estimate, so two significant digits (whole credits below 100). */
export function about(x: number): string {
  if (x < 100) return whole(Math.round(x));
  const step = 10 ** (Math.floor(Math.log10(x)) - 1);
  return whole(Math.round(x / step) * step);
}

/** A share of a day's credits as a percentage: "83 %", "1,868 %", "under 1 %". */
export function shareText(share: number): string {
  return share > 0 && share < 0.005 ? `under ${pct(1, 0)}` : pct(share * 100, 0);
}

/**
 * The forecast in one sentence: credits a day at the saved settings (or at the ones previewed),
 * against the plan's share of a day and, when one is set apart from the plan's credits, the
 * budget's.
 */
export function forecastSentence(f: CreditForecast): string {
  const parts: string[] = [];
  if (f.shareOfPlanDay !== null && f.planMonthlyCredits !== null) {
    parts.push(
      `${shareText(f.shareOfPlanDay)} of the ${f.planLabel} plan (${whole(f.planMonthlyCredits / DAYS_PER_MONTH)} a day of its ${whole(f.planMonthlyCredits)} a month)`,
    );
  }
  if (f.budget !== null && f.shareOfBudgetDay !== null && f.budget !== f.planMonthlyCredits) {
    parts.push(
      `${shareText(f.shareOfBudgetDay)} of your budget (${whole(f.budget / DAYS_PER_MONTH)} a day of ${whole(f.budget)} a month)`,
    );
  }
  const at = f.preview ? 'the settings above, not saved' : 'these settings';
  // A pool page's stream closes with the page: said per hour, apart from the day's figure.
  const pages = f.lines.filter((l) => typeof l.perHour === 'number');
  const hourly = pages.reduce((a, l) => a + (l.perHour ?? 0), 0);
  const whileOpen =
    pages.length === 0
      ? ''
      : ` Open, ${pages.length === 1 ? `the ${pages[0]!.what.replace(/ pool stream$/, '')} page adds` : `the ${whole(pages.length)} pool pages add`} about ${about(hourly)} credits an hour.`;
  // The Demo network charges nothing: the figure is what the service would read and charge, at speed 1.
  const head = f.demo
    ? `On the data service these wallets would cost about ${about(f.perDay)} credits a day at ${at}`
    : `About ${about(f.perDay)} credits a day at ${at}`;
  if (parts.length === 0)
    return `${head}. A custom plan without a monthly budget: nothing to compare it with.${whileOpen}`;
  return `${head}: ${parts.join(', and ')}.${whileOpen}`;
}

/**
 * Whether the forecast spends more than the month allows (the budget, else the plan's credits); on
 * the Demo network the forecast is the data service's at speed 1, so the same holds there.
 */
export function forecastOver(f: CreditForecast): boolean {
  return (f.shareOfBudgetDay ?? f.shareOfPlanDay ?? 0) > 1;
}

/** A pool page's own stream: "Live stream: about 41,000 credits an hour while this page is open". */
export function poolPageStreamText(perHour: number | null): string {
  return perHour === null
    ? 'Live stream: measuring its cost…'
    : `Live stream: about ${about(perHour)} credits an hour while this page is open`;
}

/** A stream that holds one of the plan's places, as a trader says it. */
function streamName(id: string): string {
  return id === 'margin'
    ? 'the margin stream (the liquidation alarm)'
    : `the ${id.replace(/^pool:/, '')} pool page's stream`;
}

/**
 * Why a pool page is not streaming (its stream waits for the plan's stream limit), from the
 * streams that hold the places (`margin`, `pool:<name>`), and what the page does meanwhile: it
 * keeps what it read when it opened (nothing polls), and goes live once a place is free.
 */
export function poolWaitingText(holders: string[]): string {
  const n = holders.length;
  const names = holders.map(streamName);
  const who = n <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[n - 1]}`;
  const why =
    n === 0
      ? "your plan's streams are all in use"
      : `your plan allows ${n} stream${n === 1 ? '' : 's'} at once and ${who} ${n === 1 ? 'has it' : 'have them'}`;
  // The margin stream never gives its place up: with it alone holding the plan's one, only a plan with more streams helps.
  const after =
    n === 1 && holders[0] === 'margin'
      ? 'it stays so on this plan: one with more streams (Builder allows 3) shows this pool live (Settings)'
      : 'the page goes live by itself once a stream is free';
  return `Not streaming: ${why}. The book and trades here are as read when the page opened and do not refresh; ${after}.`;
}

/** A price read this seldom, stretched for the budget, is said beside a position it prices that is this near. */
const SLOW_READ_MS = 3_600_000;
const NEAR_PCT = 10;

/**
 * The plan's price reads the budget stretched to an hour or more (or stopped) while a watched
 * position priced in that asset is within 10 % of its liquidation price, one sentence each:
 * "On the Free plan the XBTC price would be read every 24 h, while Short 0.1200 XBTC on
 * XBTC_USDC is +7.2 % from its liquidation price: a move that size between two reads is seen only
 * at the next. …". The forecast's headline is the day's credits; this is what they buy.
 */
export function slowPriceRisks(f: CreditForecast, positions: Iterable<PositionSummary>): string[] {
  const near = [...positions].filter(
    (p) => p.moving_symbol !== null && p.distance_pct !== null && Math.abs(p.distance_pct) <= NEAR_PCT,
  );
  const out: string[] = [];
  for (const r of f.reads.prices) {
    if (!r.slowed && r.everyMs !== null) continue;
    if (r.everyMs !== null && r.everyMs < SLOW_READ_MS) continue;
    const nearest = near
      .filter((p) => p.moving_symbol === r.symbol)
      .sort((a, b) => Math.abs(a.distance_pct!) - Math.abs(b.distance_pct!))[0];
    if (!nearest) continue;
    const side = nearest.side === 'short' ? 'short' : nearest.side === 'long' ? 'long' : 'position';
    const pool = nearest.pool_name ? ` on ${nearest.pool_name}` : '';
    const often =
      r.everyMs === null ? 'not be read at all (the budget is spent)' : `be read only every ${every(r.everyMs)}`;
    out.push(
      `On the ${f.planLabel} plan the ${r.symbol} price would ${often}, while a ${side}${pool} is ${distance(nearest.distance_pct)} from its liquidation price: a move that size between two reads is seen only at the next. A plan with more credits, or fewer wallets, reads it more often (pick a plan above to preview it).`,
    );
  }
  return out;
}

/** One price read as the guard schedules it: "SUI price read every 5 min: far from liquidation". */
export function priceReadText(p: ReadPlan['prices'][number]): string {
  const often = p.everyMs === null ? 'not read' : `read every ${every(p.everyMs)}`;
  return `${p.symbol} price ${often}: ${p.why}${p.slowed ? ' (slowed for the budget)' : ''}`;
}

/** "Margin pools' rates read every 6 h (slowed for the budget)"; "… not read: the budget is spent"; none when not planned. */
function timedRead(what: string, everyMs: number | null | undefined, slowed: boolean | undefined): string[] {
  if (everyMs === undefined) return [];
  if (everyMs === null) return [`${what} not read: the budget is spent`];
  return [`${what} read every ${every(everyMs)}${slowed ? ' (slowed for the budget)' : ''}`];
}

/**
 * The guard's reads, one a line (the status bar's tooltip), as the credits panel counts them: the
 * prices, the margin records when they are on a timer, the margin pools' rates (pool health) and
 * the protocol's loans (the liquidation map) when planned.
 */
export function readsList(r: ReadPlan): string[] {
  return [
    ...r.prices.map(priceReadText),
    ...(r.recordsEveryMs === null ? [] : timedRead('Margin records', r.recordsEveryMs, r.recordsSlowed)),
    ...timedRead("Margin pools' rates (pool health)", r.poolsEveryMs, r.poolsSlowed),
    ...timedRead("Every pool's loans (the liquidation map)", r.liquidationsEveryMs, r.liquidationsSlowed),
  ];
}

/** "DEEP, WAL and SUI", "SUI and WAL", "SUI". */
function listText(names: readonly string[]): string {
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Every price a plan reads, grouped by how often, most often first: "DEEP, XBTC and WAL every
 * 45 s, SUI every 5 min", "NS not read"; null when it reads none.
 */
export function pricesText(r: ReadPlan): string | null {
  const groups = new Map<number | null, string[]>();
  for (const p of r.prices) groups.set(p.everyMs, [...(groups.get(p.everyMs) ?? []), p.symbol]);
  if (groups.size === 0) return null;
  return [...groups]
    .map(([ms, names]) => `${listText(names)} ${ms === null ? 'not read' : `every ${every(ms)}`}`)
    .join(', ');
}

/**
 * On the Demo network, which charges nothing and paces nothing: what is read here now, every
 * asset by name (the status bar's reads), beside the forecast's lines, which are the data
 * service's at speed 1 (`CreditForecast.demo`).
 */
export function demoHereText(f: CreditForecast): string | null {
  if (!f.demo) return null;
  const read = pricesText(f.demo.here);
  const here = read === null ? 'no price is read here now' : `here ${read}, the status bar's reads`;
  return `The Demo network charges nothing and slows no read for a budget: ${here}. The lines below are what the data service would read and charge on the ${f.planLabel} plan.`;
}

/** What the Demo network's speed does to the figures, in one sentence, or null at speed 1. */
export function demoSpeedText(speed: number): string | null {
  if (speed === 1) return null;
  const x = Number(speed.toPrecision(3)).toString();
  const far = Number(Math.sqrt(speed).toPrecision(2)).toString();
  return `At speed ${x} the Demo network's market runs ${x} times faster than real time, so its streams carry ${x} times the trades and events (a pool's book still comes 4 times a second), its wallets act ${x} times as often and its prices move about ${far} times as far a second (so they are read more often here); the forecast takes all three back to speed 1.`;
}

/** The budget's effect on the reads in a few words for the status bar, or null when it has none. */
export function readsShort(r: ReadPlan): string | null {
  if (!r.budgetNote) return null;
  return r.pace === null ? 'Reads stopped for the budget' : 'Reads slowed for the budget';
}
