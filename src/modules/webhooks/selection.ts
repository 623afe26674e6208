/**
 * Which events an endpoint takes (docs/webhooks.md "Selection"): a list of event names and prefix patterns
 * ending in `*` (`email.*`, `*`); an empty list takes every event.
 */
export function selects(patterns: readonly string[], eventName: string): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => (p.endsWith('*') ? eventName.startsWith(p.slice(0, -1)) : eventName === p));
}
