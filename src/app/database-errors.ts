import { isTooManyFieldsError, TOO_MANY_FIELDS_MESSAGE } from '../modules/contacts/data-limits';
import { ApiError, validationError } from '../http/errors';

/** PostgreSQL's SQLSTATE of a cancelled statement (here: one that ran past STATEMENT_TIMEOUT_MS). */
const QUERY_CANCELED = '57014';

/**
 * The database refusals a request can cause that are not defects, as the error envelope answers them
 * (docs/architecture.md "Error envelope"); any other error stays unexpected (500). Errors come from the driver
 * or wrapped by MikroORM, both with `code`.
 */
export function databaseApiError(err: unknown): ApiError | undefined {
  if (isTooManyFieldsError(err)) {
    return validationError(
      [{ field: 'data', code: 'too_many_fields', message: TOO_MANY_FIELDS_MESSAGE }],
      `${TOO_MANY_FIELDS_MESSAGE}; this request would add more`,
    );
  }
  if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED) {
    return new ApiError(
      503,
      'SERVICE_UNAVAILABLE',
      'A database statement took longer than STATEMENT_TIMEOUT_MS and was cancelled; nothing was changed',
      {
        suggestion: 'Retry later; if it persists, contact support with the requestId.',
      },
    );
  }
  return undefined;
}
