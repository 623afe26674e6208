import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths };

/** One field the API refused, as its error envelope names it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A failed call, carrying the API's own message and suggestion so the page can show them as they are. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestion?: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
  }
}

interface Envelope {
  error?: string | { code?: string; message?: string; suggestion?: string; errors?: FieldProblem[] };
}

/** Both shapes the API fails in: the error envelope, and the plain `{ error }` 400 of a few dashboard endpoints. */
export function failureOf(status: number, body: unknown): ApiFailure {
  const error = (body as Envelope | null)?.error;
  if (typeof error === 'string') return new ApiFailure(status, 'BAD_REQUEST', error);
  if (error && typeof error === 'object') {
    return new ApiFailure(
      status,
      error.code ?? 'ERROR',
      error.message ?? `Request failed (${status})`,
      error.suggestion,
      error.errors ?? [],
    );
  }
  return new ApiFailure(status, 'NETWORK', status === 0 ? 'The server could not be reached' : `Request failed (${status})`);
}

let projectId: string | null = null;

/** The project every resource call acts on (`X-Project-Id` beside the session cookie). */
export function useProjectHeader(id: string | null): void {
  projectId = id;
}

const projectHeader: Middleware = {
  onRequest({ request }) {
    if (projectId && !request.headers.has('X-Project-Id')) request.headers.set('X-Project-Id', projectId);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use(projectHeader);

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an `api.GET(...)`-style call and returns its data, or throws its ApiFailure. */
export async function call<T>(request: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await request;
  } catch {
    throw new ApiFailure(0, 'NETWORK', 'The server could not be reached', 'Check that Postwire is running, then try again.');
  }
  if (outcome.error !== undefined || !outcome.response.ok) throw failureOf(outcome.response.status, outcome.error);
  return outcome.data as T;
}
