import type { Operation } from './catalog';
import { IDEMPOTENCY_ARG } from './catalog';

/** Sends a request to the API and returns its answer: `fetch` to a server, or the app in this process. */
export type Dispatch = (request: Request) => Promise<Response>;

/** The API's answer to one call: its status and JSON body (text when it is not JSON, null when empty). */
export interface ApiAnswer {
  status: number;
  ok: boolean;
  body: unknown;
}

/** The fields of the error envelope (docs/architecture.md "Error envelope") a caller shows. */
export interface ApiFailure {
  code: string;
  message: string;
  statusCode: number;
  requestId?: string;
  errors?: Array<{ field: string; message: string; code: string }>;
  details?: Record<string, unknown>;
  suggestion?: string;
}

/** The API could not be reached at all (no answer, not an error answer). */
export class Unreachable extends Error {
  constructor(baseUrl: string, reason: string) {
    super(`could not reach the API at ${baseUrl} (${reason})`);
  }
}

/** `fetch` to the API at `baseUrl`, the clients' dispatch: a failure to connect is Unreachable. */
export const remoteDispatch =
  (baseUrl: string): Dispatch =>
  async (request) => {
    try {
      return await fetch(request);
    } catch (err) {
      throw new Unreachable(baseUrl, err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err));
    }
  };

/** A call that never reached the API, refused for the same reason the API would refuse it, in its shape. */
export class InputError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

const missing = (field: string) =>
  new InputError({
    code: 'VALIDATION_ERROR',
    message: `${field} is required`,
    statusCode: 422,
    errors: [{ field, message: `${field} is required: it is a part of the path`, code: 'required' }],
  });

/** A file field's value: a Blob as it is, a `data:` URL decoded, any other text as a text file. */
async function fileOf(name: string, value: unknown): Promise<Blob> {
  if (value instanceof Blob) return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^data:[^,]*,/.test(text)) {
    const decoded = await (await fetch(text)).blob();
    return new File([decoded], name, { type: decoded.type });
  }
  return new File([text], `${name}.txt`, { type: 'text/plain' });
}

const queryValues = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(queryValues)
    : value === undefined || value === null
      ? []
      : [typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean)];

/**
 * The HTTP request for a call of `op` with `args` (docs/mcp.md "Input"): path parameters fill the path, query
 * parameters the query string, and the body is the other arguments (`flat`) or `args.body` (`nested`). An
 * argument the route does not name goes where the API will judge it: into a flat body, else the query string.
 */
export async function requestOf(
  op: Operation,
  args: Record<string, unknown>,
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<Request> {
  const rest = { ...args };
  const take = (key: string) => {
    const value = rest[key];
    delete rest[key];
    return value;
  };
  let path = op.path;
  for (const name of op.pathParams) {
    const value = take(name);
    if (value === undefined || value === null || value === '') throw missing(name);
    path = path.replace(`{${name}}`, encodeURIComponent(String(value as string)));
  }
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const name of op.queryParams) for (const value of queryValues(take(name))) url.searchParams.append(name, value);
  const head = new Headers(headers);
  const key = take(IDEMPOTENCY_ARG);
  if (op.idempotencyKey && key !== undefined) head.set('Idempotency-Key', String(key as string));

  let body: RequestInit['body'];
  const content = op.body === 'flat' ? rest : op.body === 'nested' ? take('body') : undefined;
  if (op.body !== 'flat')
    for (const [name, value] of Object.entries(rest)) for (const v of queryValues(value)) url.searchParams.append(name, v);
  if (op.files) {
    const form = new FormData();
    for (const [name, value] of Object.entries((content ?? {}) as Record<string, unknown>)) {
      if (op.files.includes(name)) form.append(name, await fileOf(name, value));
      else for (const v of queryValues(value)) form.append(name, v);
    }
    body = form;
  } else if (op.body !== 'none') {
    head.set('Content-Type', 'application/json');
    body = JSON.stringify(content ?? {});
  }
  return new Request(url, { method: op.method.toUpperCase(), headers: head, body });
}

/** Reads an answer of the API. */
export async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body: unknown = text || null;
  if (text && /json/.test(response.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, ok: response.ok, body };
}

/** The failure an answer carries: the error envelope, the plain `{ error }` of a few endpoints, or the status alone. */
export function failureOf(answer: ApiAnswer): ApiFailure {
  const body = answer.body as { error?: unknown } | null;
  if (body && typeof body === 'object' && body.error && typeof body.error === 'object') return body.error as ApiFailure;
  const message =
    body && typeof body === 'object' && typeof body.error === 'string'
      ? body.error
      : typeof body === 'string' && body
        ? body
        : `HTTP ${answer.status}`;
  return { code: answer.status === 400 ? 'BAD_REQUEST' : `HTTP_${answer.status}`, message, statusCode: answer.status };
}
