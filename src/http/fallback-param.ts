import { z } from 'zod';

/**
 * A query parameter of a few known values where any other value, or none, means `fallback` (the lists'
 * `sort` and `dir`). It takes any string, and /openapi.json says so: an enum there would promise a 4xx
 * for the values that fall back.
 */
export function fallbackParam<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  const known = new Set<string>(values);
  return z
    .string()
    .optional()
    .transform((v): T[number] => (v !== undefined && known.has(v) ? v : fallback))
    .describe(`${values.join(' or ')}; any other value, or none, means ${fallback}`);
}
