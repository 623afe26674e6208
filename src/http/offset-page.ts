import { z } from 'zod';
import { MAX_PAGE } from './cursor';

/** api.md "Pagination": offset lists take `page` (from 1) and `pageSize` (default 20, larger values clamped). */
export const offsetPageFields = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, MAX_PAGE))
    .describe(`Larger values are clamped to ${MAX_PAGE}`),
};
