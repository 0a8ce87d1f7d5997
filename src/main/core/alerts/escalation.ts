import {
  LEVEL_HYSTERESIS,
  LEVEL_RANK,
  NEAR_HYSTERESIS,
  type PositionLevel,
  type RiskThresholds,
} from '../../../shared/risk-model';

/** The rules a reading is judged by: the thresholds in force and the pool's liquidation ratio. */
export interface EscalationRules extends RiskThresholds {
  liquidation: number;
}

/** One reading of a position: its ratio and its distance to the liquidation price (percent). */
export interface PositionReading {
  ratio: number | null;
  distancePct: number | null;
}

/** What to alert on: the level entered, or `worse` when a critical position kept worsening. */
export interface Escalation {
  level: Exclude<PositionLevel, 'ok'>;
  /** Entered from a lower level (`rise`), or still critical and its distance to liquidation halved (`worse`). */
  kind: 'rise' | 'worse';
  /** The level before this reading. */
  from: PositionLevel;
}

/** An alert as remembered: when, and how far from liquidation the position was then. */
interface Alerted {
  at: number;
  ratio: number | null;
  /** How far from liquidation, as a share: |distance| / 100 where known, else ratio / liquidation - 1. */
  room: number | null;
}

/**
 * The least a critical position must come closer (a share of the price: half a point) to be
 * alerted again: at 0.4 % and then 0.2 % the next word is "Liquidatable now", not another
 * "closer" that a one-decimal distance shows as the same figure.
 */
export const CLOSER_MIN = 0.005;

/** What a tracker keeps across a restart: each manager's level (when not ok) and its last alert per level. */
export interface TrackerState {
  levels: Record<string, PositionLevel>;
  alerts?: Record<string, Alerted>;
  /** The format before the `alerts` record (alert times only); read, never written. */
  lastAlertAt?: Record<string, number>;
}

/**
 * A position's level judged with its thresholds scaled by `factor` (>= 1 widens every band:
 * the hysteresis a level is left by). At or below the liquidation ratio it is liquidatable.
 */
function levelAt(r: PositionReading, t: EscalationRules, factor: number): PositionLevel {
  if (r.ratio === null) return 'ok';
  if (r.ratio <= t.liquidation * factor) return 'liquidatable';
  // The near-liquidation band widens NEAR_HYSTERESIS / LEVEL_HYSTERESIS times as much.
  const nearFactor = 1 + (factor - 1) * (NEAR_HYSTERESIS / LEVEL_HYSTERESIS);
  const near = t.near_pct !== null && r.distancePct !== null && Math.abs(r.distancePct) <= t.near_pct * nearFactor;
  if (r.ratio < t.critical * factor || near) return 'critical';
  if (r.ratio < t.warning * factor) return 'warning';
  return 'ok';
}

const roomOf = (r: PositionReading, t: EscalationRules): number | null =>
  r.distancePct !== null ? Math.abs(r.distancePct) / 100 : r.ratio === null ? null : r.ratio / t.liquidation - 1;

/**
 * Escalation that never sleeps (docs/operations.md "Risk readings and alerts"). Levels ok → warning → critical →
 * liquidatable. A level is entered as soon as a reading is in it and left only once a reading
 * clears it by the hysteresis (its thresholds × (1 + hysteresis)), so a ratio hovering at a
 * threshold alerts once. Then:
 *
 * - every rise in level alerts at once, whatever the cooldown: a return to critical after the
 *   position had recovered is news to a trader who saw it recover (the hysteresis keeps a ratio
 *   hovering at a threshold from rising again and again);
 * - a critical position whose distance to liquidation has halved since its last alert, by half a
 *   point or more (CLOSER_MIN), is alerted again (`worse`), cooldown or not: from 3 % that is at
 *   most twice (1.5 %, 0.75 %) before liquidatable;
 * - a steady position alerts once.
 */
export class EscalationTracker {
  private readonly levels = new Map<string, PositionLevel>();
  private readonly alerted = new Map<string, Alerted>();

  constructor(
    private readonly hysteresis = LEVEL_HYSTERESIS,
    private cooldownMs = 15 * 60_000,
  ) {}

  setCooldown(ms: number): void {
    this.cooldownMs = ms;
  }

  /**
   * What to keep across a restart (`restore`): without it a restarted app took every position as
   * ok and alerted again each one still below a threshold, at every start. Alerts older than the
   * cooldown are left out, except a critical one (its room to liquidation is what `worse` reads).
   */
  state(now: number): TrackerState {
    const levels: Record<string, PositionLevel> = {};
    for (const [id, level] of this.levels) if (level !== 'ok') levels[id] = level;
    const alerts: Record<string, Alerted> = {};
    for (const [key, a] of this.alerted) {
      const id = key.slice(0, key.lastIndexOf(':'));
      const critical = key.endsWith(':critical') && this.levels.get(id) === 'critical';
      if (now - a.at < this.cooldownMs || critical) alerts[key] = a;
    }
    return { levels, alerts };
  }

  restore(s: TrackerState): void {
    for (const [id, level] of Object.entries(s.levels ?? {}))
      if (Object.hasOwn(LEVEL_RANK, level)) this.levels.set(id, level);
    for (const [key, at] of Object.entries(s.lastAlertAt ?? {}))
      if (typeof at === 'number') this.alerted.set(key, { at, ratio: null, room: null });
    for (const [key, a] of Object.entries(s.alerts ?? {}))
      if (a && typeof a.at === 'number')
        this.alerted.set(key, {
          at: a.at,
          ratio: typeof a.ratio === 'number' ? a.ratio : null,
          room: typeof a.room === 'number' ? a.room : null,
        });
  }

  /**
   * The manager was liquidated: what is left is a new position (the liquidation restored its
   * ratio), so its level and alerts start again and a second approach is alerted as the first.
   */
  forget(managerId: string): void {
    this.levels.delete(managerId);
    for (const key of [...this.alerted.keys()]) if (key.startsWith(`${managerId}:`)) this.alerted.delete(key);
  }

  level(managerId: string): PositionLevel {
    return this.levels.get(managerId) ?? 'ok';
  }

  /** The level it holds for a manager it has judged since it was last forgotten; undefined otherwise. */
  held(managerId: string): PositionLevel | undefined {
    return this.levels.get(managerId);
  }

  /** Feed a reading; returns what to alert on, if anything. */
  observe(managerId: string, reading: PositionReading, t: EscalationRules, now: number): Escalation | null {
    const prev = this.level(managerId);
    const raw = levelAt(reading, t, 1);
    // Down only as far as the hysteresis lets it: a band is left once the reading clears it widened.
    const held = levelAt(reading, t, 1 + this.hysteresis);
    const next =
      LEVEL_RANK[raw] >= LEVEL_RANK[prev] ? raw : LEVEL_RANK[held] < LEVEL_RANK[prev] ? (held as PositionLevel) : prev;
    this.levels.set(managerId, next);
    if (next === 'ok') return null;
    const key = `${managerId}:${next}`;
    const last = this.alerted.get(key);
    const room = roomOf(reading, t);
    const mark = (kind: Escalation['kind']): Escalation => {
      this.alerted.set(key, { at: now, ratio: reading.ratio, room });
      return { level: next, kind, from: prev };
    };
    if (LEVEL_RANK[next] > LEVEL_RANK[prev]) return mark('rise');
    if (
      next === 'critical' &&
      last !== undefined &&
      last.room !== null &&
      room !== null &&
      room <= last.room / 2 &&
      last.room - room >= CLOSER_MIN
    )
      return mark('worse');
    return null;
  }
}
