import type { AppContext } from './context';
import { ApiError } from './errors';

interface MatchedLayer {
  methods: string[];
  paramNames: unknown[];
}

const matchedLayers = (ctx: AppContext): MatchedLayer[] => (ctx as unknown as { matched?: MatchedLayer[] }).matched ?? [];

/**
 * The methods the request's path serves, for `Allow`. A fixed path shadows the templated ones it also
 * matches: `/contacts/bulk-subscribe` is that resource, not a contact `{id}`, so it allows POST only.
 */
export function allowedMethods(ctx: AppContext): string[] {
  const layers = matchedLayers(ctx);
  const fixed = layers.filter((layer) => layer.paramNames.length === 0);
  return [...new Set((fixed.length > 0 ? fixed : layers).flatMap((layer) => layer.methods))];
}

export const methodNotAllowed = (ctx: AppContext, allow = allowedMethods(ctx).join(', ')) =>
  new ApiError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`, { details: { allow }, headers: { Allow: allow } });

/** A malformed `{id}` on a path that a fixed route serves for other methods: the answer is theirs, a 405. */
export function assertNotFixedPath(ctx: AppContext): void {
  if (matchedLayers(ctx).some((layer) => layer.paramNames.length === 0)) throw methodNotAllowed(ctx);
}
