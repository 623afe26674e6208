import type { Next } from 'koa';
import type { Logger } from '../logger';
import type { AppContext } from '../http/context';
import { databaseApiError } from './database-errors';
import { ApiError, PlainError } from '../http/errors';

/** Turns every failure into the error envelope, or the plain `{ error }` body of a few endpoints (docs/architecture.md). */
export function errorHandler(logger: Logger) {
  return async (ctx: AppContext, next: Next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof PlainError) {
        ctx.status = err.status;
        ctx.body = { error: err.message };
        return;
      }
      const apiError =
        err instanceof ApiError
          ? err
          : (databaseApiError(err) ??
            new ApiError(500, 'INTERNAL_SERVER_ERROR', 'An unexpected error occurred', {
              suggestion: 'Retry later; if it persists, contact support with the requestId.',
            }));
      // A refusal the API makes on purpose is the client's to read, not an operator's: the access line has its
      // status. A failure answered 5xx is logged as an error with the request id the client was given.
      if (apiError.status >= 500) {
        logger.error(
          { err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: apiError.status },
          'request failed',
        );
      } else if (!(err instanceof ApiError)) {
        logger.debug(
          { requestId: ctx.state.requestId, code: apiError.code, reason: err instanceof Error ? err.message : String(err) },
          'refused',
        );
      }
      const { errors, details, suggestion, headers } = apiError.extra;
      for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
      ctx.status = apiError.status;
      ctx.body = {
        success: false,
        error: {
          code: apiError.code,
          message: apiError.message,
          statusCode: apiError.status,
          requestId: ctx.state.requestId,
          ...(errors ? { errors } : {}),
          ...(details ? { details } : {}),
          ...(suggestion ? { suggestion } : {}),
        },
        timestamp: new Date().toISOString(),
      };
    }
  };
}
