import type { AlertLevel, AlertRecord } from '../../../shared/contract';
import {
  amountOrMoneyText,
  aprText,
  clockText,
  CORE_LOCALE,
  countText,
  dayText,
  distanceText,
  percentText,
  POSITION_USD_DIGITS,
  shortIdText,
  timeText,
  usdText,
  worthTells,
} from '../../../shared/format';
import { ratioText } from '../../../shared/units';
import { positionWords } from '../alerts/position-text';
import { amountsInWords } from '../risk/event-amounts';
import type { DigestFacts, DigestPosition } from './digest-facts';

/**
 * Every figure by the product's one rule (shared/format.ts, docs/formats.md), in the core's locale;
 * its times on the clock of the digest's zone (Settings `digestZone`: the one its time is set on).
 */
const clock = (f: DigestFacts, ms: number): string => clockText(ms, CORE_LOCALE, true, false, f.zone);
const count = (n: number): string => countText(n, CORE_LOCALE);
/** A position's own money (its interest too), to the cent whatever its size, as its alerts and row write it. */
const usd = (n: number): string => usdText(n, CORE_LOCALE, POSITION_USD_DIGITS);
const distance = (pct: number): string => distanceText(pct, CORE_LOCALE);
/**
 * When the valuation was made, to the second as the Portfolio's "valued 8:14:52 PM EST" writes it
 * (docs/formats.md, clock time); with its day when more than 12 h before the digest (`timeText`).
 */
const valuedText = (f: DigestFacts, ms: number): string =>
  f.at - ms > 12 * 3_600_000 ? timeText(ms, CORE_LOCALE, f.at, f.zone) : clockText(ms, CORE_LOCALE, true, true, f.zone);
const short = (owner: string): string => shortIdText(owner);
/** At most this many of the watched wallets' alerts are named; the rest are counted. */
const WATCHED_NAMED = 5;

/**
 * The daily digest in words (docs/alerts.md "The daily digest"): a title with its day, then a
 * line per own position (its ratio and distance now, and 24 h before from the risk history, the
 * interest of a day at its rate), the day's liquidations and alerts, the watched wallets' alerts,
 * and the credits against the plan. Plain lines, as every channel shows them.
 */
export function digestText(facts: DigestFacts, zone?: string): { title: string; message: string } {
  const f: DigestFacts = zone === undefined ? facts : { ...facts, zone };
  const lines: string[] = [];
  if (f.valuedAt === null)
    lines.push('No valuation of your wallets is kept yet: watch a wallet in the Portfolio and let Tidewatch read it.');
  else if (f.positions.length === 0)
    lines.push(`None of your wallets has an open loan (valued ${valuedText(f, f.valuedAt)}).`);
  else {
    const n = f.positions.length;
    lines.push(totalsLine(f));
    const named = f.positions.filter(needsLooking).slice(0, POSITIONS_NAMED);
    const rest = n - named.length;
    if (named.length > 0) {
      // None read 24 h before (a store younger than a day): said once, in the heading, not on every line.
      const anyThen = named.some((p) => p.then !== undefined);
      const brackets = anyThen
        ? '(24 h before in brackets)'
        : `(no reading of ${named.length === 1 ? 'it' : 'them'} 24 h ago)`;
      lines.push(
        named.length === n
          ? `Your ${count(n)} position${n === 1 ? '' : 's'}, valued ${valuedText(f, f.valuedAt)} ${brackets}:`
          : `To look at, of your ${count(n)} positions, valued ${valuedText(f, f.valuedAt)} ${brackets}:`,
      );
      for (const p of named) lines.push(`• ${positionLine(p, anyThen)}`);
    }
    if (rest > 0)
      lines.push(
        named.length === 0
          ? n === 1
            ? `Your one position, valued ${valuedText(f, f.valuedAt)}: OK${comparedWords(f.positions)}.`
            : `Your ${count(n)} positions, valued ${valuedText(f, f.valuedAt)}: all OK${comparedWords(f.positions)}.`
          : `${count(rest)} more: ${restWords(f.positions.filter((p) => !named.includes(p)))}.`,
      );
  }
  lines.push(...liquidationLines(f));
  lines.push(alertsLine(f));
  const watched = watchedLines(f);
  if (watched.length > 0) lines.push(...watched);
  lines.push(creditsLine(f));
  return { title: `Tidewatch digest, ${dayText(f.at, CORE_LOCALE, f.zone)}`, message: lines.join('\n') };
}

/** At most this many positions are named, those to look at first; the rest are summed up. */
const POSITIONS_NAMED = 15;

/**
 * A position to look at: not OK, or nearer its liquidation price than 24 h before, or below its
 * pool's minimum borrow ratio (borrows refused). The facts list them riskiest first.
 */
function needsLooking({ position: p, then }: DigestPosition): boolean {
  if (p.level !== 'ok') return true;
  if (p.risk_ratio !== null && p.risk_ratio < p.risk_params.min_borrow) return true;
  const now = p.distance_pct;
  const was = then?.distance_pct;
  return now !== null && was !== null && was !== undefined && Math.abs(now) < Math.abs(was);
}

/**
 * What the risk history shows of positions all OK, claimed only of those read 24 h before: ", none
 * nearer its liquidation than 24 h before" when each was read then; "; of the 3 read 24 h before,
 * none nearer its liquidation than then" when some were; " (no reading 24 h ago)" when none was.
 */
function comparedWords(rest: readonly DigestPosition[]): string {
  const read = rest.filter((r) => r.then?.distance_pct !== null && r.then?.distance_pct !== undefined).length;
  if (read === 0) return ' (no reading 24 h ago)';
  if (read === rest.length)
    return rest.length === 1
      ? ', no nearer its liquidation than 24 h before'
      : ', none nearer its liquidation than 24 h before';
  return `; of the ${count(read)} read 24 h before, none nearer its liquidation than then`;
}

/** "all OK, none nearer its liquidation than 24 h before; the nearest 12.4 % from it". */
function restWords(rest: readonly DigestPosition[]): string {
  const nearest = rest
    .map((r) => r.position.distance_pct)
    .filter((d): d is number => d !== null)
    .reduce((m, d) => Math.min(m, Math.abs(d)), Infinity);
  return `all OK${comparedWords(rest)}${Number.isFinite(nearest) ? `; the nearest ${percentText(nearest, 1, CORE_LOCALE)} from it` : ''}`;
}

/**
 * The book at a glance, first: "Assets $1,234,567.89, debt $987,654.32, equity $246,913.57 ($251,002.10
 * 24 h before, of the positions read then)".
 */
function totalsLine(f: DigestFacts): string {
  const sum = (xs: Array<number | null>): number => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
  const assets = sum(f.positions.map((p) => p.position.collateral_usd));
  const debt = sum(f.positions.map((p) => p.position.debt_usd));
  const then = f.positions.filter((p) => p.then !== undefined);
  const thenEquity = sum(then.map((p) => (p.then!.assets_usd ?? 0) - (p.then!.debt_usd ?? 0)));
  const before =
    then.length === 0
      ? ''
      : ` (${usd(thenEquity)} 24 h before${then.length < f.positions.length ? `, of the ${count(then.length)} read then` : ''})`;
  const interest = f.positions.map((p) =>
    p.position.interest.apr === null || p.position.debt_usd === null
      ? null
      : (p.position.debt_usd * p.position.interest.apr) / 365,
  );
  const known = interest.filter((x) => x !== null);
  const perDay =
    known.length === 0
      ? ''
      : `; interest about ${usd(sum(known))} a day at today's rates${known.length < interest.length ? ` (${count(interest.length - known.length)} rates not known)` : ''}`;
  return `Assets ${usd(assets)}, debt ${usd(debt)}, equity ${usd(assets - debt)}${before}${perDay}.`;
}

/**
 * "desk: Long 1,000.0000 SUI on SUI_USDC: ratio 1.254 (1.301), distance −10.2 % (−12.5 %), interest …";
 * `othersRead`: some line has a reading 24 h before, so one without it says so.
 */
function positionLine({ label, position: p, then }: DigestPosition, othersRead: boolean): string {
  const who = label ?? short(p.owner);
  const was = <T>(v: T | null | undefined, text: (x: T) => string): string =>
    then === undefined ? '' : v === null || v === undefined ? ' (not known)' : ` (${text(v)})`;
  const ratio =
    p.risk_ratio === null ? 'ratio not known' : `ratio ${ratioText(p.risk_ratio)}${was(then?.risk_ratio, ratioText)}`;
  const dist =
    p.distance_pct === null
      ? 'distance not known'
      : `distance ${distance(p.distance_pct)}${was(then?.distance_pct, distance)}`;
  const level = p.level === 'ok' ? '' : `, ${p.level === 'liquidatable' ? 'liquidatable now' : p.level}`;
  // No reading 24 h before: said once, not in brackets after each figure; where none of the lines
  // has one, the heading says it instead.
  const none = then === undefined && othersRead ? ' (no reading 24 h ago)' : '';
  return `${who}: ${positionWords(p)}: ${ratio}, ${dist}${none}${level}; ${interestWords(p)}.`;
}

/**
 * The interest of the last day at the debt's borrow rate now: "interest 0.7250 SUI ($2.49) in
 * 24 h at 19.77 %", a stablecoin's once ("interest 12.02 USDC in 24 h", never "12.02 USDC ($12.02)"). The rate moves with the pool's utilization, so this is the day at today's rate.
 */
function interestWords(p: DigestPosition['position']): string {
  const apr = p.interest.apr;
  if (apr === null) return 'interest rate not known';
  const debts = p.debts.map((d) => ({
    ...d,
    day: (d.amount * apr) / 365,
    dayUsd: d.usd === null ? null : (d.usd * apr) / 365,
  }));
  // A day's interest too small for its asset's precision (XBTC's 4 decimals) is said in money:
  // "interest $1.35 of XBTC", never "0.0000 XBTC ($1.35)".
  const each = debts.map((d) => {
    const a = amountOrMoneyText(d.day, d.symbol, d.dayUsd, CORE_LOCALE, POSITION_USD_DIGITS);
    return { text: a.money ? `${a.text} of ${d.symbol}` : a.text, money: a.money };
  });
  const amounts = each.map((a) => a.text).join(' and ');
  const usds = debts.map((d) => d.dayUsd);
  const total =
    usds.every((u) => u !== null) && !each.every((a) => a.money) && worthTells(debts.map((d) => d.symbol))
      ? ` (${usd(usds.reduce<number>((s, u) => s + (u ?? 0), 0))})`
      : '';
  return `interest ${amounts}${total} in 24 h at ${aprText(apr, CORE_LOCALE)}`;
}

/**
 * The day's liquidations of the trader's positions, a line per position: which (its wallet's label,
 * its side and pool, its manager's short id), when, how many times, and what they took in the
 * amounts' own units with their money where priced, as its alert writes them (`amountsInWords`):
 * "• 10:19 AM EST, desk: Long SUI_USDC 0xd39330…bb6f, liquidated 3 times (last): repaid 1,234.50
 * USDC ($1,234.50), left 10.0000 SUI ($33.80)".
 */
function liquidationLines(f: DigestFacts): string[] {
  if (f.liquidations.length === 0) return ['Liquidations of your positions in 24 h: none.'];
  const byManager =
    f.liquidated ??
    f.liquidations.map((a) => ({
      manager_id: a.manager_id ?? '?',
      owner: a.owner ?? '',
      label: a.owner === null ? null : (f.labels.get(a.owner) ?? null),
      side: null,
      pool: a.title.startsWith('Liquidated: ') ? a.title.slice('Liquidated: '.length) : null,
      alerts: [a],
      amounts: undefined,
      usdOf: () => null,
    }));
  return [
    `Liquidations of your positions in 24 h: ${count(f.liquidations.length)}.`,
    ...byManager.map((l) => {
      const last = l.alerts.at(-1)!;
      const side = l.side === null ? '' : `${l.side === 'long' ? 'Long' : 'Short'} `;
      const what = `${side}${l.pool ?? 'pool not known'} ${short(l.manager_id)}`;
      const times = l.alerts.length === 1 ? '' : `, liquidated ${count(l.alerts.length)} times (last)`;
      const cost =
        l.amounts === undefined || l.amounts.length === 0
          ? 'amounts not known (its pool is not in the kept valuation)'
          : amountsInWords(l.amounts, l.usdOf);
      return `• ${clock(f, last.created_at)}, ${l.label ?? short(l.owner)}: ${what}${times}: ${cost}`;
    }),
  ];
}

const LEVELS: AlertLevel[] = ['critical', 'warning', 'info'];
/** "3 (1 critical, 2 warning)". */
function byLevel(alerts: readonly AlertRecord[]): string {
  const parts = LEVELS.map((l) => [l, alerts.filter((a) => a.level === l).length] as const)
    .filter(([, n]) => n > 0)
    .map(([l, n]) => `${count(n)} ${l}`);
  return `${count(alerts.length)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function alertsLine(f: DigestFacts): string {
  const parts = [
    `${byLevel(f.own)} on your positions besides liquidations`,
    `${count(f.watched.length)} on watched wallets`,
    `${byLevel(f.other)} about Tidewatch itself`,
  ];
  return `Alerts in 24 h: ${parts.join('; ')}.`;
}

/** A line per watched wallet's alert of the day (its label, its title, when), the first few. */
function watchedLines(f: DigestFacts): string[] {
  if (f.watched.length === 0) return [];
  const named = f.watched.slice(-WATCHED_NAMED).map((a) => `• ${who(f, a)}: ${a.title} at ${clock(f, a.created_at)}`);
  const more = f.watched.length - named.length;
  return [
    `Watched wallets${more > 0 ? ` (the latest ${count(named.length)}, and ${count(more)} before)` : ''}:`,
    ...named,
  ];
}

function creditsLine(f: DigestFacts): string {
  const c = f.credits;
  if (c === null) return 'Credits: none counted (the Demo network is free).';
  const month =
    c.budget !== null && c.budget > 0
      ? `${count(c.thisMonth)} of ${count(c.budget)} this month (${percentText((c.thisMonth / c.budget) * 100, 1, CORE_LOCALE)})`
      : `${count(c.thisMonth)} this month (no monthly budget set)`;
  return `Credits: ${month}, ${count(c.today)} today so far.`;
}

const who = (f: DigestFacts, a: AlertRecord): string =>
  a.owner === null ? 'Tidewatch' : (f.labels.get(a.owner) ?? short(a.owner));
