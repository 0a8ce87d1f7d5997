import type { AlertLevel, Thresholds } from '../../../shared/contract';

export type RiskLevel = 'ok' | 'warning' | 'critical';

const RANK: Record<RiskLevel, number> = { ok: 0, warning: 1, critical: 2 };

/** What a tracker remembers: each manager's level (when not ok) and when each manager:level last alerted. */
export interface TrackerState {
  levels: Record<string, RiskLevel>;
  lastAlertAt: Record<string, number>;
}

/**
 * Threshold crossings with hysteresis and a cooldown: a level is entered when the ratio falls
 * below its threshold and left only when the ratio climbs above threshold x (1 + hysteresis);
 * an alert fires when the level gets worse, and not again for the same manager and level
 * within the cooldown. A ratio hovering at a threshold therefore alerts once.
 */
export class ThresholdTracker {
  private readonly levels = new Map<string, RiskLevel>();
  private readonly lastAlertAt = new Map<string, number>();

  constructor(
    private readonly hysteresis = 0.02,
    private cooldownMs = 15 * 60_000,
  ) {}

  setCooldown(ms: number): void {
    this.cooldownMs = ms;
  }

  /**
   * What to keep across a restart (`restore`): without it a restarted app took every position as
   * ok and alerted again each one still below a threshold, at every start. Alert times older
   * than the cooldown (`now`) are left out.
   */
  state(now = Date.now()): TrackerState {
    const levels: Record<string, RiskLevel> = {};
    for (const [id, level] of this.levels) if (level !== 'ok') levels[id] = level;
    const lastAlertAt: Record<string, number> = {};
    for (const [key, at] of this.lastAlertAt) if (now - at < this.cooldownMs) lastAlertAt[key] = at;
    return { levels, lastAlertAt };
  }

  restore(s: TrackerState): void {
    for (const [id, level] of Object.entries(s.levels ?? {})) if (Object.hasOwn(RANK, level)) this.levels.set(id, level);
    for (const [key, at] of Object.entries(s.lastAlertAt ?? {})) if (typeof at === 'number') this.lastAlertAt.set(key, at);
  }

  level(managerId: string): RiskLevel {
    return this.levels.get(managerId) ?? 'ok';
  }

  /** Feed a reading; returns the level to alert on, if any. */
  observe(managerId: string, ratio: number | null, t: Thresholds, now = Date.now()): AlertLevel | null {
    const prev = this.level(managerId);
    let next: RiskLevel;
    if (ratio === null) next = 'ok';
    else {
      const up = 1 + this.hysteresis;
      if (ratio < t.critical) next = 'critical';
      else if (ratio < t.warning) next = prev === 'critical' && ratio < t.critical * up ? 'critical' : 'warning';
      else if (prev !== 'ok' && ratio < t.warning * up) next = prev === 'critical' && ratio < t.critical * up ? 'critical' : 'warning';
      else next = 'ok';
    }
    this.levels.set(managerId, next);
    if (RANK[next] <= RANK[prev] || next === 'ok') return null;
    const key = `${managerId}:${next}`;
    const last = this.lastAlertAt.get(key);
    if (last !== undefined && now - last < this.cooldownMs) return null;
    this.lastAlertAt.set(key, now);
    return next;
  }
}
