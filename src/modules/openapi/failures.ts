import { z } from 'zod';
import type { ResponseDoc, RouteDef } from '../../http/route';

/** The error envelope (docs/architecture.md "Error envelope"), as src/app/error-handler.ts writes it. */
export const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    statusCode: z.number().int(),
    requestId: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string(), code: z.string(), received: z.unknown().optional() })).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    suggestion: z.string().optional(),
  }),
  timestamp: z.string(),
});

/** The plain `{ error }` body of the endpoints that declare `plainBodyErrors`. */
export const PlainErrorBody = z.object({ error: z.string() });

/**
 * Failures that the shared pipeline (src/app/mount.ts) can answer on a route before its handler runs, so
 * that each operation documents them without every route repeating them. A route's own entry wins.
 */
export function pipelineFailures(def: RouteDef): Record<number, ResponseDoc> {
  const failures: Record<number, ResponseDoc> = {};
  const add = (status: number, description: string, schema?: z.ZodType) => {
    const known = failures[status];
    failures[status] = { description: known ? `${known.description}; ${description}` : description, schema: schema ?? known?.schema };
  };
  if (def.auth === 'session') add(401, 'UNAUTHORIZED: no valid session cookie');
  if (def.auth === 'admin') {
    add(401, 'UNAUTHORIZED: missing or wrong ADMIN_TOKEN');
    add(404, 'NOT_FOUND: this deployment has no ADMIN_TOKEN, so /admin does not exist');
  }
  if (def.auth === 'secret' || def.auth === 'public' || def.auth === 'secretKey') {
    add(401, 'INVALID_API_KEY: missing or wrong key');
    add(403, 'FORBIDDEN (not a member) or PROJECT_DISABLED');
    add(429, 'RATE_LIMIT_EXCEEDED; see Retry-After');
  }
  if (def.params) add(404, 'NOT_FOUND: malformed identifier');
  if (def.query) add(400, 'BAD_REQUEST: invalid query parameters, or not UTF-8');
  if (def.query) add(422, 'VALIDATION_ERROR: a query parameter holds NUL (U+0000)');
  const bodyType = def.bodyType ?? (def.body ? 'json' : 'none');
  if (bodyType === 'json') add(415, 'UNSUPPORTED_MEDIA_TYPE: not application/json');
  if (bodyType !== 'none') add(413, 'PAYLOAD_TOO_LARGE');
  if (bodyType !== 'none')
    add(400, bodyType === 'json' ? 'BAD_REQUEST: malformed JSON, or a body that is not UTF-8' : 'BAD_REQUEST: a body that is not UTF-8');
  if (bodyType === 'json') add(422, 'VALIDATION_ERROR: JSON nested deeper than 64 levels');
  if (bodyType !== 'none') add(422, 'VALIDATION_ERROR: text holding NUL (U+0000) or a lone surrogate, named in `errors`');
  if (def.body && def.plainBodyErrors) add(400, 'Invalid body, as `{ error }`', z.union([ErrorEnvelope, PlainErrorBody]));
  else if (def.body) add(422, 'VALIDATION_ERROR, with the fields in `errors`');
  return failures;
}
