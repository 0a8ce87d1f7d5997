/**
 * A predicate compiled from a valibot schema, for the hot path: true only where
 * `v.safeParse(schema, x)` succeeds, without valibot's allocations (a dataset per value, an
 * output copy of every object). False means "ask valibot", which gives the message: a check that
 * is unsure answers false, never true. The margin stream validates every event with it: valibot's
 * allocations were a large share of an event's handling (docs/operations.md, A liquidation's way
 * to its alert, has the figures).
 *
 * It knows the shapes the stream schemas use (object, variant on a literal, union, string,
 * number, literal, and pipes of finite/integer/trim/regex ending in a transform) and refuses any
 * other when compiled, so a schema that grows a new shape fails its test instead of passing
 * events valibot would reject.
 */
import type { GenericSchema } from 'valibot';

type Check = (x: unknown) => boolean;
/** A pipe step: the value for the next step, or FAIL. */
type Step = (x: unknown) => unknown;
const FAIL = Symbol('fail');

interface Node {
  type: string;
  kind?: string;
  pipe?: Node[];
  entries?: Record<string, Node>;
  options?: Node[];
  key?: string;
  literal?: unknown;
  requirement?: unknown;
}

export function quickCheck(schema: GenericSchema): Check {
  return compile(schema as unknown as Node);
}

function compile(s: Node): Check {
  const base = compileBase(s);
  if (!s.pipe) return base;
  const steps = s.pipe.slice(1).map(compileAction);
  return (x) => {
    if (!base(x)) return false;
    let value = x;
    for (const step of steps) {
      value = step(value);
      if (value === FAIL) return false;
    }
    return true;
  };
}

function compileAction(a: Node, at: number, all: Node[]): Step {
  switch (a.type) {
    case 'finite':
      return (x) => (Number.isFinite(x) ? x : FAIL);
    case 'integer':
      return (x) => (Number.isInteger(x) ? x : FAIL);
    case 'trim':
      return (x) => (x as string).trim();
    case 'regex': {
      const re = a.requirement as RegExp;
      if (re.global || re.sticky) throw new Error('quickCheck: a stateful regex');
      return (x) => (re.test(x as string) ? x : FAIL);
    }
    case 'transform':
      // Its output is what a later step would see: only a last transform is known not to matter.
      if (at !== all.length - 1) throw new Error('quickCheck: a transform before another action');
      return (x) => x;
    default:
      throw new Error(`quickCheck: no check for the action "${a.type}"`);
  }
}

function compileBase(s: Node): Check {
  switch (s.type) {
    case 'string':
      return (x) => typeof x === 'string';
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'literal': {
      const literal = s.literal;
      return (x) => x === literal;
    }
    case 'union': {
      const options = s.options!.map(compile);
      return (x) => options.some((o) => o(x));
    }
    case 'object': {
      const entries = Object.entries(s.entries!).map(([key, value]) => [key, compile(value)] as const);
      return (x) => {
        if (!x || typeof x !== 'object') return false;
        for (const [key, check] of entries)
          if (!(key in x) || !check((x as Record<string, unknown>)[key])) return false;
        return true;
      };
    }
    case 'variant': {
      const key = s.key!;
      const byValue = new Map<unknown, Check>();
      for (const option of s.options!) {
        const discriminator = option.type === 'object' ? option.entries![key] : undefined;
        if (discriminator?.type !== 'literal' || discriminator.pipe)
          throw new Error('quickCheck: a variant option not keyed by a literal');
        byValue.set(discriminator.literal, compile(option));
      }
      return (x) => {
        if (!x || typeof x !== 'object' || !(key in x)) return false;
        return byValue.get((x as Record<string, unknown>)[key])?.(x) ?? false;
      };
    }
    default:
      throw new Error(`quickCheck: no check for the schema "${s.type}"`);
  }
}
