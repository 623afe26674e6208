import { z } from 'zod';

/** The window of analytics and activity counts when a request names none. */
export const DEFAULT_RANGE_DAYS = 30;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const Instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** `from` and `to` of a query; spread into a z.object. */
export const rangeFields = {
  from: Instant.optional().describe(`Start, ISO 8601 (an offset or Z); default ${DEFAULT_RANGE_DAYS} days before \`to\``),
  to: Instant.optional().describe('End, exclusive, ISO 8601; default now. A `to` not after `from` makes an empty range'),
};

export interface Range {
  from: Date;
  to: Date;
}

/**
 * The range a query names. Any two instants the document allows are answered (docs/openapi.md): when `to` is
 * not after `from` the range is empty, at `to`, and counts nothing.
 */
export function resolveRange(q: { from?: Date; to?: Date }, now = new Date()): Range {
  const to = q.to ?? now;
  const from = q.from ?? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  return { from: from < to ? from : to, to };
}

/**
 * The range widened to whole buckets of `unitMs` (UTC hours or days: plain arithmetic on epoch time, so no
 * time zone or daylight-saving rule can shift a bucket): the first bucket holds `from`, the last holds the
 * instant just before `to`. An empty range stays as it is: no bucket.
 */
export function alignRange(range: Range, unitMs: number): Range {
  if (range.from >= range.to) return range;
  const from = Math.floor(range.from.getTime() / unitMs) * unitMs;
  const to = Math.ceil(range.to.getTime() / unitMs) * unitMs;
  return { from: new Date(from), to: new Date(to) };
}

export const RangeResponse = {
  from: z.iso.datetime().describe('Start of the first bucket counted'),
  to: z.iso.datetime().describe('End (exclusive) of the last bucket counted'),
};

export const rangeView = (r: Range) => ({ from: r.from.toISOString(), to: r.to.toISOString() });
