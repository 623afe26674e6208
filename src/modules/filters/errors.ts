import { ApiError } from '../../http/errors';

/** A filter tree that cannot be used; `path` points into the tree (`groups.0.filters.1.operator`). */
export class FilterError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** docs/filters.md "Choices": an unknown field or operator, or a missing unit or value, is a 400 naming it. */
function invalidFilter(err: FilterError, field: string): ApiError {
  const where = [field, err.path].filter(Boolean).join('.');
  return new ApiError(400, 'BAD_REQUEST', `Invalid ${field}: ${err.message} (at ${where})`, {
    errors: [{ field: where, message: err.message, code: 'invalid_filter' }],
    suggestion: 'See GET /openapi.json (the FilterTree schema) for the fields, operators and units a filter tree takes.',
  });
}

/** Runs `work`, which reads a filter tree given as `field` of the request; a FilterError it throws is the 400. */
export async function asFilterField<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof FilterError ? invalidFilter(err, field) : err;
  }
}
