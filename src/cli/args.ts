import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function intOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

export function numberOption(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError(`--${name} must be a number of at least ${min} (got "${value}")`);
  return n;
}

/** Resolve on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(sig);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
