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

/** decisions.md: an unknown field or operator, or a missing unit or value, is a 400 naming it. */
export function invalidFilter(err: FilterError, field: string): ApiError {
  const where = [field, err.path].filter(Boolean).join('.');
  return new ApiError(400, 'BAD_REQUEST', `Invalid ${field}: ${err.message} (at ${where})`, {
    errors: [{ field: where, message: err.message, code: 'invalid_filter' }],
    suggestion: 'See decisions.md "Filters" for the fields, operators and units a filter tree takes.',
  });
}
