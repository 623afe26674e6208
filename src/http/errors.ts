export interface FieldError {
  field: string;
  message: string;
  code: string;
  received?: unknown;
}

export interface ApiErrorExtra {
  errors?: FieldError[];
  details?: Record<string, unknown>;
  suggestion?: string;
  headers?: Record<string, string>;
}

/** A failure answered with the error envelope (docs/architecture.md "Error envelope"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: ApiErrorExtra = {},
  ) {
    super(message);
  }
}

/** The plain `{ error: <message> }` 400 body of a few dashboard endpoints (docs/architecture.md "Error envelope"). */
export class PlainError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: ApiErrorExtra) => new ApiError(400, 'BAD_REQUEST', message, extra);
export const unauthorized = (message = 'Authentication required', code = 'UNAUTHORIZED') => new ApiError(401, code, message);
export const forbidden = (message = 'You do not have access to this resource', code = 'FORBIDDEN') => new ApiError(403, code, message);
export const notFound = (what: string, code = 'NOT_FOUND') => new ApiError(404, code, `${what} not found`);
export const conflict = (message: string, details?: Record<string, unknown>) => new ApiError(409, 'CONFLICT', message, { details });
export const validationError = (errors: FieldError[], message = 'Validation failed') =>
  new ApiError(422, 'VALIDATION_ERROR', message, {
    errors,
    suggestion: 'Check the fields listed in errors and send the request again.',
  });
