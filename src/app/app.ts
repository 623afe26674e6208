import Koa, { type Next } from 'koa';
import Router from '@koa/router';
import type { Deps } from '../deps';
import type { AppContext, AppState } from '../http/context';
import { allowedMethods, methodNotAllowed } from '../http/allow';
import { errorHandler } from './error-handler';
import { ApiError } from '../http/errors';
import { mountRoutes } from './mount';
import { RateLimiter } from '../http/rate-limit';
import { requestContext } from '../http/request-context';
import { clientAddress } from '../http/client-address';
import { securityHeaders } from '../http/security-headers';
import type { RouteDef } from '../http/route';
import { allRoutes } from './routes';
import { hideAdminWithoutToken } from '../modules/admin/routes';

export interface App {
  koa: Koa<AppState>;
  limiter: RateLimiter;
}

/** `routes` defaults to the whole API; tests may mount extra routes beside it. */
export function createApp(deps: Deps, routes: RouteDef[] = allRoutes(deps)): App {
  // X-Forwarded-* of any peer but a trusted proxy are dropped before Koa reads them (clientAddress).
  const koa = new Koa<AppState>({ proxy: true });
  const router = new Router<AppState>();
  const limiter = new RateLimiter(deps.orm, deps.config, deps.logger);
  mountRoutes(router, routes, deps, limiter);

  koa.use(securityHeaders());
  koa.use(clientAddress(deps.config.TRUSTED_PROXIES));
  koa.use(requestContext(deps.orm, deps.logger));
  koa.use(errorHandler(deps.logger));
  koa.use(hideAdminWithoutToken(deps.config));
  koa.use(async (ctx: AppContext, next: Next) => {
    await next();
    if (ctx.method === 'OPTIONS' && ctx.response.get('Allow')) ctx.set('Allow', allowedMethods(ctx).join(', '));
    if (ctx.body !== undefined && ctx.body !== null) return;
    // The router answers 501 to a method it serves on no route (TRACE); to the client that is one more
    // method this path does not allow (docs/architecture.md "A request, start to finish").
    if (ctx.status === 405 || ctx.status === 501) throw methodNotAllowed(ctx);
    if (ctx.status === 404) {
      throw new ApiError(404, 'NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`, {
        suggestion: 'See /openapi.json for the endpoints this server offers.',
      });
    }
  });
  koa.use(router.routes());
  koa.use(router.allowedMethods({ throw: false }));
  koa.on('error', (err, ctx?: AppContext) => deps.logger.error({ err, requestId: ctx?.state.requestId }, 'koa error'));
  return { koa, limiter };
}
