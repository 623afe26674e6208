import type { AppContext } from './context';
import { ApiError } from './errors';

interface MatchedLayer {
  methods: string[];
  paramNames: unknown[];
}

const matchedLayers = (ctx: AppContext): MatchedLayer[] => (ctx as unknown as { matched?: MatchedLayer[] }).matched ?? [];

/** The routes that name the path most exactly: those with the fewest parameters among all that match it. */
function exactLayers(ctx: AppContext): MatchedLayer[] {
  const layers = matchedLayers(ctx);
  const fewest = Math.min(...layers.map((layer) => layer.paramNames.length));
  return layers.filter((layer) => layer.paramNames.length === fewest);
}

/**
 * The methods the request's path serves, for `Allow`. A route with fewer parameters shadows the templated
 * ones that also match: `/contacts/bulk-subscribe` is that resource, not a contact `{id}`, so it allows
 * POST only; likewise `/workflows/{id}/executions/cancel-all` beside `.../{executionId}`.
 */
export function allowedMethods(ctx: AppContext): string[] {
  return [...new Set(exactLayers(ctx).flatMap((layer) => layer.methods))];
}

export const methodNotAllowed = (ctx: AppContext, allow = allowedMethods(ctx).join(', ')) =>
  new ApiError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`, { details: { allow }, headers: { Allow: allow } });

/** A malformed parameter on a path that a more exact route serves for other methods: the answer is theirs, a 405. */
export function assertNotShadowed(ctx: AppContext, paramCount: number): void {
  if (exactLayers(ctx).some((layer) => layer.paramNames.length < paramCount)) throw methodNotAllowed(ctx);
}
