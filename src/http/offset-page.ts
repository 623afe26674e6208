import { z } from 'zod';
import { PageLimit } from './cursor';

/** Offset lists (docs/architecture.md "Pagination") take `page` (from 1) and `pageSize` (default 20, larger values clamped). */
export const offsetPageFields = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: PageLimit,
};

export interface OffsetQuery {
  page: number;
  pageSize: number;
}

/** The envelope's counts beside `data`, for a page schema that carries more (as analytics' totals). */
export const offsetPageShape = {
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
};

/** An offset list's answer: a page of `item` with its counts. */
export const offsetPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), ...offsetPageShape });

/** The rows an offset query skips. */
export const offsetOf = (query: OffsetQuery): number => (query.page - 1) * query.pageSize;

/** The envelope of one page of `total` rows. */
export const pageOf = <T>(data: T[], total: number, query: OffsetQuery) => ({
  data,
  total,
  page: query.page,
  pageSize: query.pageSize,
  totalPages: Math.ceil(total / query.pageSize),
});
