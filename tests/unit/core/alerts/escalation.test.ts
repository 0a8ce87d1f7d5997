import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EscalationTracker,
  type EscalationRules,
  type PositionReading,
  type TrackerState,
} from '../../../../src/main/core/alerts/escalation';
import { LEVEL_RANK, levelOf } from '../../../../src/shared/risk-model';

/** A pool that liquidates at 1.1, warning at 1.5, critical at 1.25 (no near-price rule unless asked). */
const t: EscalationRules = { warning: 1.5, critical: 1.25, near_pct: null, liquidation: 1.1 };
const at = (ratio: number, distancePct: number | null = null): PositionReading => ({ ratio, distancePct });
const COOLDOWN = 15 * 60_000;

describe('escalation: levels with hysteresis', () => {
  it('alerts once per crossing while a ratio hovers at a threshold', () => {
    const tr = new EscalationTracker(0.02, 60_000);
    const ratios = [1.6, 1.49, 1.51, 1.49, 1.505, 1.495, 1.52, 1.49];
    const fired = ratios.map((r, i) => tr.observe('m', at(r), t, i * 1000)?.level ?? null);
    expect(fired.filter((x) => x !== null)).toEqual(['warning']);
  });

  it('every rise alerts at once, inside the cooldown of the level below', () => {
    const tr = new EscalationTracker(0.02, COOLDOWN);
    expect(tr.observe('m', at(1.45), t, 0)).toEqual({ level: 'warning', kind: 'rise', from: 'ok' });
    expect(tr.observe('m', at(1.2), t, 1000)).toEqual({ level: 'critical', kind: 'rise', from: 'warning' });
    // The trader's case: 1.199 on a pool that liquidates at 1.2, its last alert seconds old.
    const pool: EscalationRules = { ...t, liquidation: 1.2, critical: 1.225, warning: 1.275 };
    const p = new EscalationTracker(0.02, COOLDOWN);
    expect(p.observe('p', at(1.26), pool, 0)?.level).toBe('warning');
    expect(p.observe('p', at(1.199), pool, 2 * 60_000)).toEqual({
      level: 'liquidatable',
      kind: 'rise',
      from: 'warning',
    });
    // At the liquidation ratio exactly: liquidatable ("at or below"), as levelOf says.
    expect(levelOf(1.2, null, pool, 1.2)).toBe('liquidatable');
  });

  it('leaves a level only past the hysteresis; a return after a recovery alerts again, cooldown or not', () => {
    const tr = new EscalationTracker(0.02, 10_000);
    expect(tr.observe('m', at(1.2), t, 0)?.level).toBe('critical');
    expect(tr.observe('m', at(1.26), t, 1000)).toBeNull(); // above 1.25 but inside the band
    expect(tr.level('m')).toBe('critical');
    expect(tr.observe('m', at(1.6), t, 2000)).toBeNull();
    expect(tr.level('m')).toBe('ok');
    // Back into warning and critical within the cooldown: each rise alerts.
    expect(tr.observe('m', at(1.45), t, 3000)?.level).toBe('warning');
    expect(tr.observe('m', at(1.21), t, 4000)?.level).toBe('critical');
    expect(tr.observe('m', at(1.09), t, 7000)?.level).toBe('liquidatable');
    // The near-liquidation band is left only past 3.3 % (one decimal of rounding is no recovery).
    const near: EscalationRules = { ...t, near_pct: 3 };
    const n = new EscalationTracker(0.02, 10_000);
    expect(n.observe('n', at(1.4, -3.0), near, 0)?.level).toBe('critical');
    expect(n.observe('n', at(1.4, -3.1), near, 1000)).toBeNull();
    expect(n.observe('n', at(1.4, -3.0), near, 2000)).toBeNull();
    expect(n.level('n')).toBe('critical');
    expect(n.observe('n', at(1.4, -3.4), near, 3000)).toBeNull();
    expect(n.level('n')).toBe('warning');
  });

  it('a critical position that keeps worsening is alerted at each halving of its distance', () => {
    const near: EscalationRules = { ...t, near_pct: 3 };
    const tr = new EscalationTracker(0.02, COOLDOWN);
    const out = [-2.8, -2.0, -1.5, -1.4, -1.1, -0.7, -0.6, -0.3].map(
      (d, i) => tr.observe('m', at(1.3, d), near, i * 1000)?.kind ?? null,
    );
    // 2.8 → 1.4 (halved) → 0.7; 0.3 is half of 0.7 but only 0.4 points closer (CLOSER_MIN).
    expect(out).toEqual(['rise', null, null, 'worse', null, 'worse', null, null]);
  });

  it('after a liquidation the position starts again: a second approach within the cooldown is alerted', () => {
    const tr = new EscalationTracker(0.02, COOLDOWN);
    expect(tr.observe('m', at(1.2), t, 0)?.level).toBe('critical');
    expect(tr.observe('m', at(1.2), t, 60_000)).toBeNull();
    tr.forget('m');
    expect(tr.level('m')).toBe('ok');
    expect(tr.observe('m', at(1.2), t, 120_000)?.level).toBe('critical');
  });

  it('hands over its levels and alerts, takes them back, and reads the format before it', () => {
    const tr = new EscalationTracker(0.02, 10_000);
    tr.observe('a', at(1.4), t, 0);
    tr.observe('b', at(1.2), t, 5_000);
    const state = tr.state(12_000);
    expect(state.levels).toEqual({ a: 'warning', b: 'critical' });
    // b's critical alert is kept past the cooldown: its room is what a halving is measured against.
    expect(Object.keys(state.alerts ?? {})).toEqual(['b:critical']);
    const again = new EscalationTracker(0.02, 10_000);
    again.restore(JSON.parse(JSON.stringify(state)) as TrackerState);
    expect(again.observe('a', at(1.4), t, 13_000)).toBeNull();
    expect(again.observe('b', at(1.2), t, 13_000)).toBeNull();
    expect(again.observe('b', at(1.12), t, 14_000)?.kind).toBe('worse'); // room 0.091 → 0.018
    const old = new EscalationTracker(0.02, 10_000);
    old.restore({ levels: { c: 'critical' }, lastAlertAt: { 'c:critical': 12_000 } });
    expect(old.level('c')).toBe('critical');
    expect(old.observe('c', at(1.0), t, 13_000)?.level).toBe('liquidatable');
  });
});

/** Readings a position can take: ratios from deep in liquidation to healthy, distances where known. */
const reading = fc.record({
  ratio: fc.oneof(fc.constant(null), fc.double({ min: 0.8, max: 2.2, noNaN: true })),
  distancePct: fc.oneof(fc.constant(null), fc.double({ min: -40, max: -0.01, noNaN: true })),
});
/** A pool's rules: its liquidation ratio, critical 5 % and warning 15 % above it, a near band or none. */
const rules = fc
  .record({
    liquidation: fc.double({ min: 1.05, max: 1.3, noNaN: true }),
    near_pct: fc.oneof(fc.constant(null), fc.double({ min: 0.5, max: 5, noNaN: true })),
  })
  .map((r): EscalationRules => ({
    liquidation: r.liquidation,
    critical: r.liquidation * 1.05,
    warning: r.liquidation * 1.15,
    near_pct: r.near_pct,
  }));
const steps = fc.array(fc.record({ r: reading, gapMs: fc.integer({ min: 0, max: 20 * 60_000 }) }), {
  minLength: 1,
  maxLength: 60,
});

describe('escalation: properties (fast-check, injected clock)', () => {
  it('no reading that enters a higher level goes unalerted', () => {
    fc.assert(
      fc.property(rules, steps, fc.integer({ min: 0, max: 30 * 60_000 }), (rule, seq, cooldown) => {
        const tr = new EscalationTracker(0.02, cooldown);
        let now = 0;
        for (const { r: x, gapMs } of seq) {
          now += gapMs;
          const before = tr.level('m');
          const raw = levelOf(x.ratio, x.distancePct, rule, rule.liquidation);
          const out = tr.observe('m', x, rule, now);
          if (LEVEL_RANK[raw] > LEVEL_RANK[before]) {
            // Entered a higher level: the tracker is there, and it alerts, whatever the cooldown.
            expect(tr.level('m')).toBe(raw);
            expect(out).toMatchObject({ level: raw, kind: 'rise' });
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a steady position alerts at most once per cooldown', () => {
    fc.assert(
      fc.property(rules, reading, fc.integer({ min: 1, max: 200 }), (rule, x, n) => {
        const tr = new EscalationTracker(0.02, COOLDOWN);
        let alerts = 0;
        // Readings every 10 s for up to 33 minutes: the same reading, so one alert at most.
        for (let i = 0; i < n; i++) if (tr.observe('m', x, rule, i * 10_000)) alerts++;
        expect(alerts).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('a position worsening toward liquidation alerts a bounded number of times, each level once', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.5, max: 2, noNaN: true }), fc.integer({ min: 5, max: 400 }), (start, n) => {
        const tr = new EscalationTracker(0.02, COOLDOWN);
        const near: EscalationRules = { ...t, near_pct: 3 };
        const kinds: string[] = [];
        for (let i = 0; i <= n; i++) {
          const ratio = start - ((start - 1.05) * i) / n;
          const distance = (1.1 / ratio - 1) * 100;
          const out = tr.observe('m', at(ratio, distance), near, i * 1000);
          if (out) kinds.push(out.kind === 'worse' ? 'worse' : out.level);
        }
        expect(kinds.filter((k) => k === 'warning')).toHaveLength(1);
        expect(kinds.filter((k) => k === 'critical')).toHaveLength(1);
        expect(kinds.filter((k) => k === 'liquidatable')).toHaveLength(1);
        // Critical from a ratio of 1.25 (about 12 % from liquidation at 1.1): halvings of half a
        // point or more from there are at most five (6, 3, 1.5, 0.75 %).
        expect(kinds.filter((k) => k === 'worse').length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 300 },
    );
  });
});
