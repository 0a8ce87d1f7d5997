import { EVENT_TYPES } from '../../../shared/api';
import { NO_CHANNEL } from '../../../shared/status';
import type {
  AlertLevel,
  AlertRecord,
  CreditUsage,
  GroupRule,
  PoolHealth,
  PositionSummary,
  RiskReading,
} from '../../../shared/contract';
import {
  clockText,
  CORE_LOCALE,
  dayClockText,
  countText,
  DISTANCE_DIGITS,
  percentText,
  settingPercentText,
  shortIdText,
  usdText,
} from '../../../shared/format';
import { towardZeroAt } from '../../../shared/rounding';
import { ratioText, riskRatioFromStream } from '../../../shared/units';
import type { CoreBus } from '../events';
import type { IncomingMarginEvent } from '../store/margin-events';
import { UnroutedAlertError, type NewAlert, type RiskAlertRepo } from '../store/risk-alert-repo';
import type { WatchedLookup } from '../watch-registry';
import { EscalationTracker, type Escalation, type EscalationRules, type TrackerState } from './escalation';
import type { InterestWords, PositionWords } from './position-text';
import { rateAlertText, RateTracker, type RateTrackerState } from './rate-alerts';

/** "2:02 PM EST": the machine's local time, its zone named (the page that shows it may be in another). */
const clock = (ms: number): string => clockText(ms, CORE_LOCALE);
/** "$12,400": money by the product's rule (shared/format.ts). */
const usd = (n: number): string => usdText(n, CORE_LOCALE);
const count = (n: number): string => countText(n, CORE_LOCALE);
const short = (id: string | null): string => (id ? shortIdText(id) : '?');
const liquidationKey = (e: IncomingMarginEvent): string => `liquidation:${e.margin_manager_id}:critical:${e.id}`;

/** An event's data as stored, parsed; undefined when it was kept as received (not JSON): the alert goes out without the ratio. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a liquidation's alert says besides its event, each read as the alert is written (a read
 * that fails, the store refusing it, leaves that part out): the stream's side knows them.
 */
export interface LiquidationWords {
  /** The event's amounts in words ("repaid 1,234.5 USDC; left 10 SUI and 20 USDC"). */
  amounts(): string | undefined;
  /** The manager's pool by name: the alert names it ("Liquidated: SUI_USDC"). */
  pool(): string | undefined;
}

const NO_WORDS: LiquidationWords = { amounts: () => undefined, pool: () => undefined };

/**
 * Where a committed batch's liquidation alerts get their words (streams/margin-dispatch.ts
 * `BatchWords`): the stream's side knows the amounts and the pools.
 */
export interface LiquidationWording {
  /** What the alert of `e` says besides it (its amounts, its pool); `data` is its data as parsed. */
  wordsOf(e: IncomingMarginEvent, data: unknown): LiquidationWords;
}

/** No words besides the event: the alert goes out without the amounts and the pool. */
export const NO_WORDING: LiquidationWording = { wordsOf: () => NO_WORDS };

/**
 * Rules -> Alert records: threshold crossings of watched managers, liquidations of watched
 * managers (critical), and streams stopped because the key was rejected. Each alert is stored
 * once (dedupe key: rule, manager, level, event), queued for its channels in the same
 * transaction (RiskAlertRepo.addAlert asks the notifier's router), and published as
 * `alertsRaised` (the shells' `alerts` push). It hears the facts it alerts on from rooms above and
 * below it: the store refusing writes (`storeFailed`), the credit budget (`creditBudgetReached`).
 */
export class AlertEngine {
  readonly tracker: EscalationTracker;
  /** Each margin pool's rate against its kink and the user's line (rate-alerts.ts). */
  readonly rates = new RateTracker();
  private savedRates: string;
  /** The tracker's state as last written (`keepLevels` writes only a change). */
  private savedLevels: string;
  /**
   * Watched managers liquidated lately: when on chain, and when told. A valuation of records
   * older than that is of the position before its liquidation and alerts nothing.
   */
  private readonly liquidated = new Map<string, { chainAt: number | null; at: number }>();
  /**
   * Positions whose critical alert reached the trader (not info) and that have not been back to
   * ok since: their return to ok is told (`recovered`), once per spell.
   */
  private readonly inDanger = new Set<string>();

  constructor(
    private readonly repo: RiskAlertRepo,
    private readonly events: Pick<CoreBus, 'on' | 'emit'>,
    cooldownMs: number,
    /** Whether an alert's write worked (undefined) or failed (a full disk: the alert was shown all the same). */
    private readonly noteStore: (err?: unknown) => void = () => {},
    /** Where the threshold levels are kept across restarts (the settings table), if anywhere. */
    private readonly levels?: { load(): TrackerState | undefined; save(state: TrackerState): void },
    /** Where the pools' rate states are kept across restarts, if anywhere: a pool past its kink at a restart is not news. */
    private readonly rateLevels?: { load(): RateTrackerState | undefined; save(state: RateTrackerState): void },
    /**
     * The rule of the watch-list group a wallet is in (Settings `groupRules`): `info` records its
     * position's alerts at level info (the router sends them to no channel, the escalation never
     * repeats them); `alert`, the default, as the trader's own.
     */
    private readonly groupRule: (owner: string) => GroupRule = () => 'alert',
    /**
     * Settings `dustDebtUsd`: a position owing less (USD) is dust, its warnings (threshold and
     * interest) and a critical's repeats recorded at level info; null: no position is dust.
     */
    private readonly dustUsd: () => number | null = () => null,
  ) {
    this.tracker = new EscalationTracker(undefined, cooldownMs);
    const kept = levels?.load();
    if (kept) this.tracker.restore(kept);
    for (const [id, level] of Object.entries(kept?.levels ?? {}))
      if (level === 'critical' || level === 'liquidatable') this.inDanger.add(id);
    this.savedLevels = JSON.stringify(kept ?? null);
    const rates = rateLevels?.load();
    if (rates) this.rates.restore(rates);
    this.savedRates = JSON.stringify(this.rates.state());
    events.on('storeFailed', ({ reason }) => this.onStoreFailure(reason));
    events.on('creditBudgetReached', ({ share, usage }) => this.onCreditBudget(share, usage));
  }

  /**
   * A position alert's level as its wallet's group has it: `level`, or info for a group whose rule
   * is info; an alert that may be quieted for dust (`debtUsd` given) about a position owing less
   * than the dust line is info too.
   */
  private levelFor(owner: string, level: AlertLevel, debtUsd: number | null = null): AlertLevel {
    if (this.groupRule(owner) === 'info') return 'info';
    const dust = this.dustUsd();
    return dust !== null && debtUsd !== null && debtUsd < dust ? 'info' : level;
  }

  /** Alerts raised (stored, or shown unstored): pushed to the shells. */
  private publish(alerts: AlertRecord[]): void {
    this.events.emit('alertsRaised', { alerts });
  }

  /**
   * Readings of watched positions, judged by the escalation rules (escalation.ts): every rise in
   * level and every halving of a critical position's room alerts at once. `describe` gives the
   * position in words from the same valuation ("Long 10,175 WAL on WAL_USDC: 1.190, ...", the
   * action that repairs it and the facts).
   */
  onReadings(
    readings: readonly RiskReading[],
    rulesOf: (managerId: string) => EscalationRules,
    now = Date.now(),
    describe: (managerId: string) => PositionWords | undefined = () => undefined,
  ): AlertRecord[] {
    const fired: AlertRecord[] = [];
    for (const r of readings) {
      const about = describe(r.manager_id);
      if (this.beforeLiquidation(r.manager_id, about?.updated ?? null, now)) continue;
      const t = rulesOf(r.manager_id);
      const raised = this.tracker.observe(r.manager_id, { ratio: r.risk_ratio, distancePct: r.distance_pct }, t, now);
      if (!raised) {
        if (this.tracker.level(r.manager_id) === 'ok' && this.inDanger.delete(r.manager_id))
          this.raise(this.recovery(r, t, about, now), fired);
        continue;
      }
      const text = riskAlertText(raised, r, t, about);
      if (raised.level !== 'warning' && this.levelFor(r.owner, 'critical') === 'critical')
        this.inDanger.add(r.manager_id);
      this.raise(
        {
          dedupe_key: `risk-threshold:${r.manager_id}:${raised.level}${raised.kind === 'worse' ? '-worse' : ''}:${r.ts_ms}`,
          rule: 'risk-threshold',
          // A liquidatable position is the most urgent of the channels' levels. Dust's warnings and
          // repeats are info; its first critical is not (it is still the trader's money).
          level: this.levelFor(
            r.owner,
            raised.level === 'warning' ? 'warning' : 'critical',
            raised.level === 'warning' || raised.kind === 'worse' ? r.debt_usd : null,
          ),
          manager_id: r.manager_id,
          owner: r.owner,
          event_id: null,
          title: text.title,
          message: text.message,
          created_at: now,
        },
        fired,
      );
    }
    if (fired.length > 0) this.publish(fired);
    this.keepLevels(now);
    return fired;
  }

  /**
   * A position told critical is back to ok (past the warning line and its hysteresis): said once,
   * to the channels that took its critical alert (notify/router.ts), so a trader away from the
   * desk knows the danger passed; it also ends that alert's repeats (notify/notifier.ts).
   */
  private recovery(r: RiskReading, t: EscalationRules, about: PositionWords | undefined, now: number): NewAlert {
    const ratio = r.risk_ratio === null ? '?' : ratioText(r.risk_ratio);
    const where = about?.headline ?? `Margin manager ${short(r.manager_id)}: risk ratio ${ratio}`;
    return {
      dedupe_key: `recovered:${r.manager_id}:info:${r.ts_ms}`,
      rule: 'recovered',
      level: 'info',
      manager_id: r.manager_id,
      owner: r.owner,
      event_id: null,
      title: `Out of danger \u2014 ${where}`,
      message: `Its ratio ${ratio} is back above the warning threshold ${ratioText(t.warning)} since its critical alert: nothing to do now.${about ? ` ${about.text}` : ''} It is liquidated at or below a ratio of ${ratioText(about?.liquidation ?? t.liquidation)}.`,
      created_at: now,
    };
  }

  /**
   * Whether a valuation is of the position as it was before its liquidation (its records, last
   * changed at `updated` on chain, predate it): then it says nothing new. Without a record time,
   * for a minute after the liquidation was told (the next read of the owner's records).
   */
  private beforeLiquidation(managerId: string, updated: number | null, now: number): boolean {
    const l = this.liquidated.get(managerId);
    if (!l) return false;
    const stale = updated !== null && l.chainAt !== null ? updated < l.chainAt : now - l.at < 60_000;
    if (!stale) this.liquidated.delete(managerId);
    return stale;
  }

  /**
   * Interest alone (today's prices, the debt accruing on its pool's curve) would bring a watched
   * position to its liquidation ratio within the days set: a warning once per manager a day,
   * saying the day it comes and the repair that puts it off (`words`).
   */
  onInterestDrift(
    managerId: string,
    owner: string,
    words: InterestWords,
    now = Date.now(),
    debtUsd: number | null = null,
  ): AlertRecord | undefined {
    const at = now + words.inMs;
    const when = `by ${dayClockText(at, CORE_LOCALE)} (${words.inWords})`;
    const action = words.action ? `${words.action}. ` : '';
    return this.raise({
      dedupe_key: `interest:${managerId}:warning:${Math.floor(now / 86_400_000)}`,
      rule: 'interest',
      level: this.levelFor(owner, 'warning', debtUsd),
      manager_id: managerId,
      owner,
      event_id: null,
      title: `Interest alone liquidates ${words.position} ${when}`,
      message: `${action}At today's prices its debt grows${words.rate ? ` at ${words.rate} a year` : ''} until it is liquidated ${when}, its ratio falling to ${words.liquidation}. ${words.facts}`,
      created_at: now,
    });
  }

  /**
   * A read of the margin pools (risk/pool-health.ts): a pool whose borrow rate crossed its
   * curve's kink or the user's line (`line`, a fraction a year; null: none) is alerted once per
   * crossing (rate-alerts.ts), when a watched position borrows from it (`borrowers`).
   */
  onPoolRates(
    pools: readonly PoolHealth[],
    borrowers: (marginPoolId: string) => readonly PositionSummary[],
    line: number | null,
    now = Date.now(),
  ): AlertRecord[] {
    const fired: AlertRecord[] = [];
    for (const p of pools) {
      const crossing = this.rates.observe(p, line);
      const who = crossing ? borrowers(p.margin_pool_id) : [];
      if (!crossing || who.length === 0) continue;
      const text = rateAlertText(crossing, who);
      this.raise(
        {
          dedupe_key: `rate:${p.margin_pool_id}:warning:${p.ts_ms}`,
          rule: 'rate',
          level: 'warning',
          manager_id: null,
          owner: who.length === 1 ? who[0]!.owner : null,
          event_id: null,
          title: text.title,
          message: text.message,
          created_at: now,
        },
        fired,
      );
    }
    if (fired.length > 0) this.publish(fired);
    const state = JSON.stringify(this.rates.state());
    if (this.rateLevels && state !== this.savedRates) {
      this.rateLevels.save(this.rates.state());
      this.savedRates = state;
    }
    return fired;
  }

  /** The tracker's state written when it changed (a failed write is the store health's to tell; the levels stay in memory). */
  private keepLevels(now: number): void {
    if (!this.levels) return;
    const state = this.tracker.state(now);
    const text = JSON.stringify(state);
    if (text === this.savedLevels) return;
    this.levels.save(state);
    this.savedLevels = text;
  }

  /**
   * Liquidations of watched managers, after their commit (or recovered over REST). `watched`
   * (the watch registry) names a watched manager's owner and when the owner joined the watch list:
   * history replayed from before that (a first start with `last-id=0`) is stored but not alerted;
   * what happened while the app was closed, after the owner was watched, is. One alerted on
   * receipt is not priced or described again. `words` gives what each alert says besides its event.
   */
  onMarginEvents(
    events: readonly IncomingMarginEvent[],
    watched: WatchedLookup,
    words: LiquidationWording = NO_WORDING,
    now = Date.now(),
  ): AlertRecord[] {
    const fired: AlertRecord[] = [];
    for (const e of events) {
      if (e.type !== EVENT_TYPES.liquidation || !e.margin_manager_id) continue;
      const owner = watched.ownerOf(e.margin_manager_id);
      if (owner === undefined) continue;
      // History from before the owner was watched (a first start's replay) is not alerted: nothing to look up.
      const since = watched.since(owner) ?? 0;
      if ((e.timestamp_ms !== null && e.timestamp_ms < since) || this.repo.hasAlert(liquidationKey(e))) continue;
      const data = parsed(e.data);
      const a = this.onLiquidation(e, owner, since, data, words.wordsOf(e, data), now);
      if (a) fired.push(a);
    }
    return fired;
  }

  /**
   * One liquidation of a watched manager (`owner`, watched since `since`), its data as parsed: the
   * alert is pushed before it is stored (`raiseShowingFirst`), once per event.
   */
  onLiquidation(
    e: IncomingMarginEvent,
    owner: string,
    since: number,
    data: unknown,
    words: LiquidationWords,
    now = Date.now(),
  ): AlertRecord | undefined {
    if (!e.margin_manager_id || (e.timestamp_ms !== null && e.timestamp_ms < since)) return undefined;
    const risk = typeof data === 'object' && data !== null ? (data as { risk_ratio?: unknown }).risk_ratio : undefined;
    const ratio = typeof risk === 'number' ? ` at a risk ratio of ${ratioText(riskRatioFromStream(risk))}` : '';
    const amounts = wordsOrNone(() => words.amounts());
    const pool = wordsOrNone(() => words.pool());
    // What remains is a new position: its thresholds alert afresh (a second approach within the
    // cooldown too), once a valuation of its records from after the liquidation comes.
    this.tracker.forget(e.margin_manager_id);
    this.inDanger.delete(e.margin_manager_id);
    this.liquidated.set(e.margin_manager_id, { chainAt: e.timestamp_ms, at: now });
    return this.raiseShowingFirst({
      dedupe_key: liquidationKey(e),
      rule: 'liquidation',
      level: this.levelFor(owner, 'critical'),
      manager_id: e.margin_manager_id,
      owner,
      event_id: e.id,
      title: pool ? `Liquidated: ${pool}` : 'Liquidated',
      message: `Margin manager ${short(e.margin_manager_id)}${pool ? ` (${pool})` : ''} of ${short(owner)} was liquidated${ratio}${amounts ? `: ${amounts}` : ''}. Open the position to see what remains.`,
      created_at: now,
    });
  }

  /** A protocol-wide liquidation above the user's USD threshold (optional rule, off by default). */
  onLargeLiquidation(
    e: IncomingMarginEvent,
    value: number,
    amountText: string,
    now = Date.now(),
  ): AlertRecord | undefined {
    return this.raise({
      dedupe_key: `large-liquidation:${e.margin_manager_id ?? '?'}:warning:${e.id}`,
      rule: 'large-liquidation',
      level: 'warning',
      manager_id: e.margin_manager_id,
      owner: null,
      event_id: e.id,
      title: `Large liquidation: ${usd(value)}`,
      message: `Margin manager ${short(e.margin_manager_id)} was liquidated for ${amountText} (about ${usd(value)}). Large liquidations move the book: check your positions on that pool.`,
      created_at: now,
    });
  }

  /**
   * The store refuses writes. The alert is stored when it can be; when it cannot (the disk is
   * full), it is still pushed to the shells (id 0: not stored, nothing to acknowledge).
   */
  onStoreFailure(reason: string, now = Date.now()): AlertRecord {
    const alert = {
      dedupe_key: `store-write:-:critical:${Math.floor(now / 3_600_000)}`,
      rule: 'store-write' as const,
      level: 'critical' as const,
      manager_id: null,
      owner: null,
      event_id: null,
      title: 'Tidewatch cannot save data',
      message: `${reason[0]!.toUpperCase()}${reason.slice(1)}. A stream whose data cannot be saved (the margin stream, a pool's) pauses so nothing is lost and resumes from where it stopped once the store accepts writes. Free some disk space.`,
      created_at: now,
    };
    let stored: AlertRecord | undefined;
    try {
      stored = this.repo.addAlert(alert);
    } catch (err) {
      if (err instanceof UnroutedAlertError) throw err;
      stored = undefined;
    }
    const record = stored ?? unstored(alert);
    this.publish([record]);
    return record;
  }

  /**
   * The daily digest of `day` (the local date it is of, YYYY-MM-DD): stored once per day, so a
   * restart, or a time changed after it went, never sends a second one; undefined when it was.
   * The router sends it to the digest's channels (notify/router.ts).
   */
  onDigest(day: string, title: string, message: string, now = Date.now()): AlertRecord | undefined {
    return this.raise({
      dedupe_key: `digest:-:info:${day}`,
      rule: 'digest',
      level: 'info',
      manager_id: null,
      owner: null,
      event_id: null,
      title,
      message,
      created_at: now,
    });
  }

  /** Whether the digest of `day` was stored. */
  hasDigest(day: string): boolean {
    return this.repo.hasAlert(`digest:-:info:${day}`);
  }

  /** Stream history could not be replayed for a span (told once per span). */
  onHistoryGap(fromMs: number, toMs: number, message: string, now = Date.now()): AlertRecord | undefined {
    return this.raise({
      dedupe_key: `history-gap:-:info:${fromMs}-${toMs}`,
      rule: 'history-gap',
      level: 'info',
      manager_id: null,
      owner: null,
      event_id: null,
      title: 'Some stream history could not be replayed',
      message,
      created_at: now,
    });
  }

  /** Tidewatch cannot see (notify/sight.ts): once per blind spell, on every channel. */
  onBlind(since: number, reasons: readonly string[], now = Date.now()): AlertRecord | undefined {
    const mins = Math.max(1, Math.round((now - since) / 60_000));
    // It still sees, and only its channels fail (notify/sight.ts): the trader is unreachable, not blind.
    const unheard = reasons.length > 0 && reasons.every((r) => r.startsWith(NO_CHANNEL));
    return this.raise({
      dedupe_key: `blind:-:critical:${since}`,
      rule: 'blind',
      level: 'critical',
      manager_id: null,
      owner: null,
      event_id: null,
      title: unheard ? 'Tidewatch cannot reach you' : 'Tidewatch cannot see',
      message: unheard
        ? `Since ${clock(since)} (${mins} min): ${reasons.join('; ')}. Tidewatch still watches and shows its alerts on this screen, ` +
          'but none reaches your phone until a channel works again. Open Settings, Alert channels: send a test, or name a fallback channel.'
        : `Since ${clock(since)} (${mins} min): ${reasons.join('; ')}. Liquidations and threshold crossings are not seen until it sees again; ` +
          'what happened meanwhile is read then and summarised. Check the network, the service and the machine Tidewatch runs on.',
      created_at: now,
    });
  }

  /** Sight is back after a blind spell: the all-clear, with what the catch-up found meanwhile. */
  onSight(since: number, now = Date.now()): AlertRecord | undefined {
    const found = this.repo.alerts(true, 1000).filter((a) => a.created_at >= since && a.rule !== 'blind');
    const count = (rule: AlertRecord['rule']): number => found.filter((a) => a.rule === rule).length;
    const parts = [
      [count('liquidation'), 'liquidation of a watched manager', 'liquidations of watched managers'],
      [count('risk-threshold'), 'threshold crossing', 'threshold crossings'],
      [found.length - count('liquidation') - count('risk-threshold'), 'other alert', 'other alerts'],
    ]
      .filter(([n]) => (n as number) > 0)
      .map(([n, one, many]) => `${n as number} ${n === 1 ? (one as string) : (many as string)}`);
    const mins = Math.max(1, Math.round((now - since) / 60_000));
    return this.raise({
      dedupe_key: `blind:-:info:${since}`,
      rule: 'blind',
      level: 'info',
      manager_id: null,
      owner: null,
      event_id: null,
      title: 'Tidewatch sees again',
      message: `Blind for ${mins} min (${clock(since)} to ${clock(now)}). While you were away: ${parts.length > 0 ? parts.join(', ') : 'nothing happened to the watched positions'}.`,
      created_at: now,
    });
  }

  /**
   * This month's credits reached 80 % (then 100 %) of the budget set in Settings: once each per
   * month and budget (a budget raised past what is spent warns again when that is reached).
   */
  onCreditBudget(share: 0.8 | 1, usage: CreditUsage, now = Date.now()): AlertRecord | undefined {
    const pct = Math.round(share * 100);
    return this.raise({
      dedupe_key: `credit-budget:-:warning:${usage.month}:${pct}:${usage.budget ?? 0}`,
      rule: 'credit-budget',
      level: 'warning',
      manager_id: null,
      owner: null,
      event_id: null,
      title:
        share >= 1
          ? 'Monthly credit budget used up'
          : `${percentText(pct, 0, CORE_LOCALE)} of the monthly credit budget used`,
      message:
        `${count(usage.thisMonth)} of your ${count(usage.budget ?? 0)} credits for ${usage.month} are spent (by the service's published prices; its dashboard is the authority). ` +
        (share >= 1
          ? 'Tidewatch keeps running: the service decides what happens past your plan. Close pool pages you do not need, or raise the budget in Settings.'
          : 'Pool pages and stream history cost the most: close the pages you do not need.'),
      created_at: now,
    });
  }

  /** A stream stopped on 401/403; `keyName` says which key it sent ("the stream key"). */
  onStreamAuthStopped(
    streamId: string,
    detail: string,
    keyName = 'the API key',
    now = Date.now(),
  ): AlertRecord | undefined {
    return this.raise({
      dedupe_key: `stream-auth:${streamId}:${keyName}:warning:${Math.floor(now / 3_600_000)}`,
      rule: 'stream-auth',
      level: 'warning',
      manager_id: null,
      owner: null,
      event_id: null,
      title: `${keyName.replace(/^the /, '').replace(/^./, (c) => c.toUpperCase())} rejected`,
      message: `The ${streamId} stream stopped: ${detail}`,
      created_at: now,
    });
  }

  /**
   * Store an alert once per dedupe key and push it to the shells (`publish`), or, given `batch`,
   * add it there for the caller to push with the rest. A write that fails (a full disk) is told to
   * `noteStore` and the alert goes out all the same, unstored (id 0, nothing to acknowledge).
   */
  private raise(alert: NewAlert, batch?: AlertRecord[]): AlertRecord | undefined {
    try {
      const a = this.repo.addAlert(alert);
      if (a) this.handOver(a, batch);
      if (a) this.noteStore();
      return a;
    } catch (err) {
      this.writeFailed(err);
      const record = unstored(alert);
      this.handOver(record, batch);
      return record;
    }
  }

  /**
   * An alert's write failed: told to `noteStore` (a full disk). One stored before its router was
   * wired is no store failure but a wiring mistake (store/risk-alert-repo.ts): thrown, never
   * passed off as the disk's.
   */
  private writeFailed(err: unknown): void {
    if (err instanceof UnroutedAlertError) throw err;
    this.noteStore(err);
  }

  private handOver(record: AlertRecord, batch: AlertRecord[] | undefined): void {
    if (batch) batch.push(record);
    else this.publish([record]);
  }

  /**
   * Store an alert once per dedupe key, pushing it to the shells (`publish`) before its row is
   * written (`RiskAlertRepo.addAlert` with `showFirst`): a liquidation reaches the trader without
   * waiting for the disk. A write that fails (a full disk) is told to `noteStore`; the alert was
   * shown and is not shown again (one that failed before it was shown goes out unstored).
   */
  private raiseShowingFirst(alert: NewAlert): AlertRecord | undefined {
    let shown: AlertRecord | undefined;
    try {
      const a = this.repo.addAlert(alert, (record) => {
        shown = record;
        this.publish([record]);
      });
      if (a) this.noteStore();
      return a;
    } catch (err) {
      this.writeFailed(err);
      if (shown) return shown;
      const record = unstored(alert);
      this.publish([record]);
      return record;
    }
  }
}

const LEVEL_WORDS: Record<Escalation['level'], string> = {
  warning: 'Warning',
  critical: 'Critical',
  liquidatable: 'Liquidatable now',
};

/**
 * A risk alert's words (docs/alerts.md "The messages"): the title names the position and
 * its figures ("Critical — Long 10,175 WAL on WAL_USDC: 1.190, liquidation at $0.1965, −1.2 %"),
 * the message starts with the action that repairs it, as written enough to reach the target
 * ("Deposit 307.41 USDC or repay 70.7072 SUI ($238.99) from its balance → 1.224."), then why, then the facts.
 */
export function riskAlertText(
  e: Escalation,
  r: Pick<RiskReading, 'risk_ratio' | 'distance_pct' | 'manager_id'>,
  t: EscalationRules,
  about: PositionWords | undefined,
): { title: string; message: string } {
  const ratio = r.risk_ratio === null ? '?' : ratioText(r.risk_ratio);
  const word = e.kind === 'worse' ? 'Critical, closer' : LEVEL_WORDS[e.level];
  const where = about?.headline ?? `Margin manager ${short(r.manager_id)}: risk ratio ${ratio}`;
  const liquidation = ratioText(about?.liquidation ?? t.liquidation);
  let why: string;
  if (e.level === 'liquidatable')
    why = `Its ratio ${ratio} is at or below its liquidation ratio ${liquidation}: liquidators can take it at any moment.`;
  else if (e.kind === 'worse') why = 'Still critical, and half as far from liquidation as at the last alert.';
  else {
    const threshold = e.level === 'critical' ? t.critical : t.warning;
    why =
      r.risk_ratio !== null && r.risk_ratio < threshold
        ? `Its ratio ${ratio} fell below the ${e.level} threshold ${ratioText(threshold)}.`
        : `It is within ${settingPercentText(t.near_pct ?? 0, CORE_LOCALE)} of its liquidation price.`;
  }
  const action = about?.action ? `${about.action}${e.level === 'liquidatable' ? ' now' : ''}. ` : '';
  const facts = about
    ? ` ${about.text}`
    : r.distance_pct === null
      ? ''
      : ` A ${percentText(Math.abs(towardZeroAt(r.distance_pct, DISTANCE_DIGITS)), DISTANCE_DIGITS, CORE_LOCALE)} ${r.distance_pct < 0 ? 'fall' : 'rise'} in the base price liquidates it.`;
  return {
    title: `${word} \u2014 ${where}`,
    message: `${action}${why}${facts} It is liquidated at or below a ratio of ${liquidation}.`,
  };
}

/** The amounts in words, or none when they cannot be read (the store failing a read): the alert goes out without them. */
function wordsOrNone(words: () => string | undefined): string | undefined {
  try {
    return words();
  } catch {
    return undefined;
  }
}

/** An alert that could not be stored, as the shells are handed it. */
function unstored(alert: NewAlert): AlertRecord {
  const { dedupe_key: _key, ...fields } = alert;
  return { ...fields, id: 0, acknowledged_at: null, snoozed_until: null };
}
