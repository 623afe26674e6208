import { z } from 'zod';
import { PageLimit } from './cursor';

/** Offset lists (docs/architecture.md "Pagination") take `page` (from 1) and `pageSize` (default 20, larger values clamped). */
export const offsetPageFields = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: PageLimit,
};
