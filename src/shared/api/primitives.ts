import * as v from 'valibot';

/**
 * A number on the wire. The service contract says "number", but the real service's SDK types some of them
 * (depth levels, OHLC prices) as strings, so a numeric string is accepted and normalised here,
 * at the boundary, instead of in every view (docs/service.md, Units).
 */
export const Num = v.union(
  [
    v.pipe(v.number(), v.finite()),
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/, 'expected a numeric string'),
      v.transform(Number),
    ),
  ],
  'expected a number',
);

/** An identifier that one response sends as a number and another as a string: always a string after parsing. */
export const IdString = v.union(
  [
    v.string(),
    v.pipe(
      v.number(),
      v.integer(),
      v.transform((n) => String(n)),
    ),
  ],
  'expected a string or an integer',
);

/** Integers beyond 2^53 (volumes, u128 order ids) travel as decimal strings and stay strings. */
export const BigIntString = v.union(
  [
    v.pipe(v.string(), v.regex(/^\d+$/, 'expected a decimal integer string')),
    v.pipe(
      v.number(),
      v.integer(),
      v.transform((n) => String(n)),
    ),
  ],
  'expected a decimal integer string',
);
