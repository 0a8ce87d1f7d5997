import * as v from 'valibot';

/**
 * The building blocks of the contract's argument schemas (CONTRACT_ARGS in contract.ts) and the
 * checks every argument passes before them: bounded numbers and times, addresses as the chain
 * reads them, http(s) URLs, a bounded `fields` filter; no lone surrogates, no deep nesting.
 */

/** An address or object id: 0x and up to 64 hex digits; a short form is expanded (0x2 is 0x00…02), as the chain reads it. */
export const Address = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'not an address: expected 0x followed by 64 hex digits'),
  v.transform((a) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`),
);
/**
 * A margin manager's id as a command that saves something for it takes one: an `Address`, with a
 * message in plain words (a manager id is an object id like any other).
 */
export const ManagerId = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'malformed: a manager id is 0x followed by 64 hex digits'),
  v.transform((a) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`),
);
export const PageArg = v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0)));
export const PerPageArg = v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(50)));
export const Name = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));
export const OptId = v.optional(Name);
/** A pool's name as the service spells it (SUI_USDC): the same rule as a pool's topic, checked before any request. */
export const PoolName = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^[A-Za-z0-9_]{1,64}$/, 'not a pool name: letters, digits and _ only, like SUI_USDC'),
);
/** UNIX seconds up to the year 2286: far beyond any real time, far below 2^53. */
export const UnixSeconds = v.pipe(
  v.number(),
  v.finite(),
  v.integer(),
  v.minValue(0),
  v.maxValue(9_999_999_999, 'expected UNIX seconds (a time before the year 2286)'),
);
export const UnixMs = v.pipe(
  v.number(),
  v.finite(),
  v.integer(),
  v.minValue(0),
  v.maxValue(9_999_999_999_999, 'expected UNIX milliseconds (a time before the year 2286)'),
);
export const Checkpoint = v.pipe(
  v.number(),
  v.finite(),
  v.integer(),
  v.minValue(0),
  v.maxValue(Number.MAX_SAFE_INTEGER),
);

/** Longest span one `trades` call covers (7 days: at most a few dozen requests of 100 trades on a busy pool). */
export const TRADES_MAX_SPAN_SEC = 7 * 86_400;
/** Longest span one `candles` call covers: 10,000 periods (100 requests of 100 candles). */
export const CANDLES_MAX_PERIODS = 10_000;
/** How far into the future a range may end (clocks differ; the service answers nothing there). */
export const FUTURE_SLACK_SEC = 86_400;

type Range = { from: number; to: number };
export const ORDERED = 'from must not be after to';
export const NOT_FUTURE = 'to must not be more than a day in the future';
export const TOO_LONG = 'the range is too long for one request; ask for a shorter one';
export const ordered = (a: Range): boolean => a.from <= a.to;
export const notFuture = (a: Range): boolean => a.to <= Date.now() / 1000 + FUTURE_SLACK_SEC;
export const Ratio = v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(1000));

/** An http(s) URL of at most 2,000 characters: no `javascript:`, `file:` or `data:` service. */
export const HttpUrl = (name: string) =>
  v.pipe(
    v.string(),
    v.maxLength(2000, `${name} is too long`),
    v.url(`${name} must be an http(s) URL`),
    v.check((u) => /^https?:\/\/[^/]/i.test(u), `${name} must be an http(s) URL`),
  );

/** Most keys a `fields` filter may have, and how deep it may nest (the service matches flat paths). */
export const FIELDS_MAX_KEYS = 50;
export const FIELDS_MAX_DEPTH = 4;
export const Fields = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(200)), v.unknown()),
  v.check((f) => Object.keys(f).length <= FIELDS_MAX_KEYS, `fields may have at most ${FIELDS_MAX_KEYS} keys`),
  v.check((f) => depthOf(f) <= FIELDS_MAX_DEPTH, `fields may nest at most ${FIELDS_MAX_DEPTH} levels`),
  v.check((f) => JSON.stringify(f).length <= 8_192, 'fields is larger than 8 KB'),
);

/** How deep a JSON value nests (iterative: a hostile value 100,000 levels deep is measured, not recursed into). */
export function depthOf(value: unknown, limit = 64): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(x)) stack.push([child, d + 1]);
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Arguments nest this deep at most (the deepest schema, `fields`, needs 1 + 4). */
const ARGS_MAX_DEPTH = 8;

/** The path of the first string (key or value) with a lone surrogate, or of a value nested too deep. */
export function malformed(args: unknown): { path: string; problem: string } | undefined {
  const stack: Array<[unknown, string, number]> = [[args, '', 0]];
  while (stack.length > 0) {
    const [x, path, d] = stack.pop()!;
    if (typeof x === 'string') {
      if (LONE_SURROGATE.test(x)) return { path, problem: 'contains a broken character (a lone UTF-16 surrogate)' };
      continue;
    }
    if (typeof x !== 'object' || x === null) continue;
    if (d >= ARGS_MAX_DEPTH) return { path, problem: 'is nested too deeply' };
    for (const [k, child] of Object.entries(x)) {
      const at = path ? `${path}.${k}` : k;
      if (LONE_SURROGATE.test(k))
        return { path: at, problem: 'has a key with a broken character (a lone UTF-16 surrogate)' };
      stack.push([child, at, d + 1]);
    }
  }
  return undefined;
}
