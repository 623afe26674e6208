/**
 * Exponential backoff for work retried by the background loops: `baseMs` after the first failure, doubling
 * with each earlier one up to `maxMs`. Jitter keeps rows that failed together (an outage) from all retrying
 * in lockstep.
 */
export function backoffMs(earlierFailures: number, baseMs: number, maxMs: number): number {
  const capped = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(0, earlierFailures), 30));
  return Math.round(capped * (0.75 + Math.random() * 0.25));
}
