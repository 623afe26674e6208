import { z } from 'zod';

/** A name or label shown on one line: trimmed, 1-`max` characters, no line breaks (they would break a page's layout or a header). */
export const oneLineText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // NUL is refused on purpose (PostgreSQL cannot store it in text).
    // oxlint-disable-next-line no-control-regex
    .regex(/^[^\r\n\u0000]*$/, 'Must not contain line breaks');
