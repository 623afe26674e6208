import { z } from 'zod';
import type { AppContext } from './context';
import { ApiError, PlainError, badRequest, notFound, validationError } from './errors';
import { toFieldErrors } from './zod-issues';
import { notFoundCodeOf } from './resource-id';

export type AuthKind =
  /** No credentials. */
  | 'none'
  /** Dashboard session cookie. */
  | 'session'
  /** The dashboard session cookie when one is sent; a missing or invalid one is no error (the handler decides). */
  | 'optional-session'
  /** `Bearer sk_…`, or a member's session cookie with `X-Project-Id`. */
  | 'secret'
  /** `Bearer pk_…` only (/v1/track). */
  | 'public'
  /** `Bearer <ADMIN_TOKEN>`: the deployment's operators (docs/operators.md). */
  | 'admin'
  /** `Bearer sk_…` only, never the session cookie (/mcp, whose tool calls pass the key on). */
  | 'secretKey';

export type Bucket = 'track' | 'send' | 'contacts';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : S extends undefined ? undefined : unknown;

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

export interface AgentHints {
  /** The tool's name, `<group>_<action>` (the CLI's `postwire <group> <action>`), instead of the one derived from the path. */
  name?: string;
  /** A POST that changes nothing (a count, a preview, a simulation): a read-only tool. */
  readOnly?: true;
}

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: Method;
  /** OpenAPI-style path, e.g. `/contacts/{id}`. */
  path: string;
  tag: string;
  summary: string;
  auth: AuthKind;
  /** Token bucket of docs/rate-limits.md this route draws from, when buckets are enabled. */
  bucket?: Bucket;
  params?: P;
  query?: Q;
  body?: B;
  /** How the body arrives; `none` leaves the stream to the handler (multipart). */
  bodyType?: 'json' | 'form' | 'none';
  /** The media type /openapi.json gives a body the handler reads itself (`none`); multipart/form-data by default. */
  bodyContentType?: string;
  /** Body size limit in bytes; defaults to MAX_BODY_MB. */
  bodyLimit?: number;
  /** Endpoints that answer a bad body with the plain `{ error }` 400 instead of the 422 envelope (docs/architecture.md). */
  plainBodyErrors?: boolean;
  /** Answers a path that names nothing (a malformed parameter) when the route's 404 is not the JSON envelope, e.g. an HTML page. */
  malformedPath?: (ctx: AppContext) => void;
  /** Honours the `Idempotency-Key` header (docs/idempotency.md); see src/app/idempotency.ts. */
  idempotent?: boolean;
  /**
   * How many requests a valid body counts for in the rate limits (docs/rate-limits.md): a batch counts each of
   * its emails. Such a route is counted once its body is read (a body refused counts once).
   */
  weight?: (body: Out<B>) => number;
  /**
   * Makes mail go (a send, a test send, a campaign or an automation started): a suspended project refuses it
   * with 403 PROJECT_DISABLED under the dashboard's session cookie too, which otherwise still reads and edits
   * it (docs/security.md). Its API keys are refused on every route.
   */
  sends?: boolean;
  responses: Record<number, ResponseDoc>;
  /** How the MCP tools and the CLI present the route where their rules guess wrong (docs/mcp.md "Tools"). */
  agent?: AgentHints;
  handler: (ctx: AppContext, input: RouteInput<P, Q, B>) => Promise<void> | void;
}

/**
 * A refinement that enforces one of the limits of docs/contacts.md "Limits" marks itself with `params.limit`: beyond a limit
 * is 422 VALIDATION_ERROR naming it, also on the endpoints whose other body failures are the plain 400.
 */
const isLimit = (issue: z.core.$ZodIssue) => issue.code === 'custom' && issue.params?.limit === true;

export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(def: RouteDef<P, Q, B>): RouteDef {
  return def as unknown as RouteDef;
}

export function parseParams(def: RouteDef, raw: Record<string, string>): unknown {
  const missing = (key: PropertyKey | undefined) =>
    notFound(def.tag.replace(/s$/, ''), def.params ? notFoundCodeOf(def.params as Schema, key) : undefined);
  // A path segment holding NUL names nothing (and is no text PostgreSQL could compare).
  const nul = Object.keys(raw).find((key) => raw[key]!.includes('\0'));
  if (nul !== undefined) throw missing(nul);
  if (!def.params) return raw;
  const parsed = (def.params as Schema).safeParse(raw);
  // A malformed identifier cannot name an existing resource.
  if (!parsed.success) throw missing(parsed.error.issues[0]?.path[0]);
  return parsed.data;
}

export function parseQuery(def: RouteDef, raw: Record<string, string | string[] | undefined>): unknown {
  if (!def.query) return raw;
  const parsed = (def.query as Schema).safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    throw badRequest('Invalid query parameters', { errors: toFieldErrors(parsed.error, 'query') });
  }
  return parsed.data;
}

export function parseBody(def: RouteDef, raw: unknown): unknown {
  if (!def.body) return raw;
  const parsed = (def.body as Schema).safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  if (def.plainBodyErrors && !parsed.error.issues.some(isLimit)) {
    const first = parsed.error.issues[0];
    const field = first?.path.map(String).join('.') || 'body';
    throw new PlainError(`${field}: ${first?.message ?? 'invalid'}`);
  }
  if (raw === undefined || raw === null || typeof raw !== 'object') {
    throw new ApiError(422, 'VALIDATION_ERROR', 'Request body must be a JSON object', {
      errors: toFieldErrors(parsed.error),
    });
  }
  throw validationError(toFieldErrors(parsed.error));
}

/** `/contacts/{id}` → `/contacts/:id` for @koa/router. */
export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
