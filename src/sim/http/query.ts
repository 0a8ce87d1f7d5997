import { PER_PAGE_DEFAULT, PER_PAGE_MAX, type Page } from '../../shared/api';
import { badParameter } from './errors';

/**
 * Query parameters with the bounds of the service contract; every violation is a 400 that names the
 * parameter, its range and what was sent (docs/service.md, Error responses).
 */
export class Query {
  constructor(private readonly params: URLSearchParams) {}

  str(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null || value === '' ? undefined : value;
  }

  /** Repeated parameter and comma-separated values both accepted (docs/service.md, Collections and type paths). */
  list(name: string): string[] {
    return this.params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
  }

  int(name: string, def: number, min: number, max: number): number {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (!/^-?\d+$/.test(raw.trim())) {
      throw badParameter(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    }
    const n = Number(raw);
    if (n < min || n > max) throw badParameter(`${name} must be an integer from ${min} to ${max} (got ${raw})`);
    return n;
  }

  /** A non-negative number (UNIX seconds, checkpoints); decimals are floored. */
  num(name: string): number | undefined {
    const raw = this.str(name);
    if (raw === undefined) return undefined;
    if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw badParameter(`${name} must be a non-negative number (got "${raw}")`);
    return Math.floor(Number(raw));
  }

  paging(): { page: number; perPage: number } {
    return {
      page: this.int('page', 0, 0, Number.MAX_SAFE_INTEGER),
      perPage: this.int('perPage', PER_PAGE_DEFAULT, 1, PER_PAGE_MAX),
    };
  }
}

export function paginate<T>(items: readonly T[], page: number, perPage: number): Page<T> {
  const start = page * perPage;
  return {
    items: items.slice(start, start + perPage),
    isLastPage: start + perPage >= items.length,
    currentPage: page,
    perPage,
  };
}
