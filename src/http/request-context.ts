import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import type { AppContext } from './context';

const INCOMING_ID = /^[\x21-\x7e]{1,128}$/;

/** Request ID (kept from `X-Request-Id` when sane), a per-request entity manager, and one access log line. */
export function requestContext(orm: Orm, logger: Logger) {
  return async (ctx: AppContext, next: Next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.state.em = orm.em.fork();
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          projectId: ctx.state.project?.id,
        },
        'request',
      );
    }
  };
}
