import { z } from 'zod';
import { badRequest } from './errors';

/** Cursor lists (docs/architecture.md "Pagination") default to 20 items and clamp larger requests to 100. */
export const MAX_PAGE = 100;
export const PageLimit = z.coerce
  .number()
  .int()
  .min(1)
  .default(20)
  .transform((n) => Math.min(n, MAX_PAGE))
  .describe('Page size, 1-100 (default 20); larger values are clamped to 100');

/** Where a page ended: the sort key and id of its last row. */
export interface CursorPosition {
  value: string;
  id: string;
}

const Encoded = z.object({ o: z.string(), v: z.string(), i: z.uuid() });

/** Opaque to callers; it carries the ordering it was issued for, so it is never read under another one. */
export const encodeCursor = (ordering: string, at: CursorPosition) =>
  Buffer.from(JSON.stringify({ o: ordering, v: at.value, i: at.id })).toString('base64url');

export function decodeCursor(raw: string, ordering: string): CursorPosition {
  let parsed: z.ZodSafeParseResult<z.infer<typeof Encoded>>;
  try {
    parsed = Encoded.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    parsed = Encoded.safeParse(null);
  }
  if (!parsed.success) {
    throw badRequest('Invalid cursor', { suggestion: 'Pass the `cursor` of the previous page unchanged.' });
  }
  if (parsed.data.o !== ordering) {
    throw badRequest(`This cursor was issued for another ordering (${parsed.data.o})`, {
      suggestion: 'Repeat the query parameters of the first page along with its cursor.',
    });
  }
  return { value: parsed.data.v, id: parsed.data.i };
}

/** `{ data, cursor, hasMore, total }`; `total` counts every match on the first page and is 0 on later ones. */
export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    cursor: z.string().nullable().describe('Pass as `cursor` to get the next page; null on the last page'),
    hasMore: z.boolean(),
    total: z.number().int().describe('Matches in the whole list on the first page; 0 on later pages'),
  });
