import { z } from 'zod';

const notFoundCodes = new WeakMap<z.ZodType, string>();

/**
 * A path parameter that names a resource. Identifiers are opaque to clients (docs/architecture.md "Error envelope"), so a malformed one
 * answers the same 404 as an unknown one, with the resource's own code (e.g. TEMPLATE_NOT_FOUND).
 */
export function resourceId(notFoundCode: string): z.ZodUUID {
  const schema = z.uuid();
  notFoundCodes.set(schema, notFoundCode);
  return schema;
}

/** The 404 code for a malformed `key` of a params object schema; NOT_FOUND unless it is a resourceId. */
export function notFoundCodeOf(params: z.ZodType, key: PropertyKey | undefined): string {
  const field = params instanceof z.ZodObject && typeof key === 'string' ? (params.shape as Record<string, z.ZodType>)[key] : undefined;
  return (field && notFoundCodes.get(field)) ?? 'NOT_FOUND';
}
