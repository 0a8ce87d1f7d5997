import * as v from 'valibot';

/** The pagination envelope of every paged list (docs/service.md, Pagination). */
export function PageSchema<TItem extends v.GenericSchema>(item: TItem) {
  return v.object({
    items: v.array(item),
    isLastPage: v.boolean(),
    currentPage: v.number(),
    perPage: v.number(),
  });
}

export interface Page<T> {
  items: T[];
  isLastPage: boolean;
  currentPage: number;
  perPage: number;
}

/** Bounds of the paging parameters (docs/service.md, Limits). */
export const PAGE_DEFAULT = 0;
export const PER_PAGE_DEFAULT = 10;
export const PER_PAGE_MAX = 50;
