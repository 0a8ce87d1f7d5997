import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, MarginEventSchema, Num, PoolStreamEventSchema, quickCheck } from '../../../../src/shared/api';
import { World } from '../../../../src/sim';
import { Rng } from '../../../../src/sim/rng';

const valid = quickCheck(MarginEventSchema);

let built: unknown[] | null = null;

/**
 * Every event of a Demo world's margin history (all four types), as the stream sends them. The
 * history is the default length (3.25 days), not shorter: a withdrawal is rare (about 6 in
 * 2 days, since most traders sit below the 2.0 ratio a withdrawal needs), so a 2-day world may
 * have none (seed 7's had 6 before the leverage tiers and crowds redrew every world, and none
 * after; 1 seed in 30 has none), while every one of seeds 1-30 has 8 or more in 3.25 days.
 */
function demoEvents(): unknown[] {
  built ??= new World({ seed: 7, nowMs: Date.UTC(2026, 10, 20) }).log
    .since('all')
    .map((e) => JSON.parse(e.json) as unknown);
  return built;
}

/** Values a hostile or sloppy service may put anywhere. */
const ODD: unknown[] = [
  undefined,
  null,
  true,
  0,
  -1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  ' ',
  '12',
  ' 12 ',
  '1e5',
  '-3.5E-2',
  '1.',
  '.5',
  '0x1f',
  'abc',
  '12abc',
  '1\n2',
  [],
  [1],
  {},
  { a: 1 },
  EVENT_TYPES.deposit,
  EVENT_TYPES.liquidation,
  EVENT_TYPES.liveTrade,
];

function mutate(event: unknown, rng: Rng): unknown {
  const copy = structuredClone(event) as Record<string, unknown>;
  const data = copy['data'] as Record<string, unknown>;
  const target = rng.next() < 0.5 ? copy : data;
  const keys = [...Object.keys(target), 'extra'];
  const key = keys[Math.floor(rng.next() * keys.length)]!;
  if (rng.next() < 0.15) delete target[key];
  else target[key] = ODD[Math.floor(rng.next() * ODD.length)];
  if (rng.next() < 0.05) copy['data'] = ODD[Math.floor(rng.next() * ODD.length)];
  return copy;
}

describe('quickCheck (the compiled check the margin stream validates with)', () => {
  it("passes every event of a Demo world's margin history, as valibot does", () => {
    const events = demoEvents();
    const types = new Set(events.map((e) => (e as { type: string }).type));
    expect([...types].sort()).toEqual(
      [EVENT_TYPES.deposit, EVENT_TYPES.liquidation, EVENT_TYPES.managerCreated, EVENT_TYPES.withdraw].sort(),
    );
    for (const e of events) {
      expect(v.safeParse(MarginEventSchema, e).success).toBe(true);
      expect(valid(e)).toBe(true);
    }
  });

  it('agrees with valibot on 20,000 mutated events (never true where valibot rejects)', () => {
    const events = demoEvents();
    const rng = new Rng(12);
    let rejected = 0;
    for (let i = 0; i < 20_000; i++) {
      const e = mutate(events[i % events.length], rng);
      const expected = v.safeParse(MarginEventSchema, e).success;
      if (valid(e) !== expected)
        throw new Error(`quickCheck said ${!expected} where valibot said ${expected}: ${JSON.stringify(e)}`);
      if (!expected) rejected++;
    }
    // The mutations do break events (the comparison above means something) and leave some valid.
    expect(rejected).toBeGreaterThan(5_000);
    expect(rejected).toBeLessThan(19_000);
  });

  it('checks numbers as Num does: finite numbers and numeric strings, trimmed', () => {
    const num = quickCheck(Num);
    for (const x of ODD) expect(num(x), JSON.stringify(x) ?? String(x)).toBe(v.safeParse(Num, x).success);
  });

  it('refuses, when compiled, a shape it has no exact check for', () => {
    expect(() => quickCheck(PoolStreamEventSchema)).toThrow(/no check for the schema/);
    expect(() => quickCheck(v.object({ a: v.optional(v.string()) }))).toThrow(/optional/);
    expect(() => quickCheck(v.pipe(v.string(), v.transform(Number), v.minValue(1)))).toThrow(/transform before/);
    expect(() => quickCheck(v.pipe(v.string(), v.regex(/a/g)))).toThrow(/stateful/);
  });
});
