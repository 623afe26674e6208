import type Router from '@koa/router';
import type { Deps } from '../deps';
import { authenticate } from './authenticate';
import type { AppContext } from '../http/context';
import { assertNotShadowed } from '../http/allow';
import { ApiError } from '../http/errors';
import { readFormBody, readJsonBody } from '../http/body';
import { withIdempotency } from './idempotency';
import type { RateLimiter } from '../http/rate-limit';
import { assertQueryText } from '../http/well-formed';
import { koaPath, parseBody, parseParams, parseQuery, type RouteDef } from '../http/route';

/** Registers each route behind the same pipeline: authenticate, limit, read and validate input, handle. */
export function mountRoutes(router: Router<AppContext['state']>, routes: RouteDef[], deps: Deps, limiter: RateLimiter) {
  const defaultLimit = deps.config.MAX_BODY_MB * 1024 * 1024;
  for (const def of routes) {
    router[def.method](koaPath(def.path), async (raw) => {
      const ctx = raw as unknown as AppContext;
      await authenticate(deps, ctx, def.auth, def.sends);
      const project = ctx.state.project;
      const limit = (cost: number) => limiter.enforce(ctx, project!.id, def.auth, def.bucket, cost);
      // A weighed route counts once its body says how much; a body refused before that counts once.
      const weighed = project !== undefined && def.weight !== undefined;
      if (project && !weighed) await limit(1);
      let params: unknown;
      try {
        params = parseParams(def, ctx.params as Record<string, string>);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          assertNotShadowed(ctx, Object.keys(ctx.params ?? {}).length);
          if (def.malformedPath) return def.malformedPath(ctx);
        }
        throw err;
      }
      if (def.query) assertQueryText(ctx.querystring, ctx.query);
      const query = parseQuery(def, ctx.query);
      const bodyLimit = def.bodyLimit ?? defaultLimit;
      const bodyType = def.bodyType ?? (def.body ? 'json' : 'none');
      // The body is read under the idempotency claim, so that a bad body is a 4xx that releases the key.
      const run = async () => {
        // With `none`, a body schema only documents the form; the handler reads and checks the stream itself.
        let body: unknown;
        try {
          body =
            bodyType === 'json'
              ? parseBody(def, await readJsonBody(ctx, bodyLimit))
              : bodyType === 'form'
                ? parseBody(def, await readFormBody(ctx, bodyLimit))
                : undefined;
        } catch (err) {
          if (weighed) await limit(1);
          throw err;
        }
        if (weighed) await limit(def.weight!(body));
        await def.handler(ctx, { params, query, body });
      };
      await (def.idempotent ? withIdempotency(deps, ctx, run) : run());
    });
  }
}
