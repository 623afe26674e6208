import { createHash } from 'node:crypto';
import { z } from 'zod';
import { NUL_FREE_PATTERN } from '../../http/well-formed';

export type JsonSchema = Record<string, unknown>;

const LOCAL_REF = '#/$defs/';

/** A zod schema as JSON Schema, the same way for /openapi.json and the MCP tools (docs/mcp.md). */
export const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', override: io === 'input' ? nulFree : keepPatternOnly }) as JsonSchema;

/**
 * zod checks an email address against the `pattern` it emits, not against RFC 5321 (a local part of more than
 * 64 characters passes); `format: email` would promise that stricter rule, so the pattern alone stands.
 */
function keepPatternOnly({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.format === 'email' && typeof jsonSchema.pattern === 'string') delete jsonSchema.format;
}

/** `value` with each `$ref` to a local definition (`#/$defs/<name>`) pointed at `to(name)` instead. */
export function relinkLocalRefs(value: unknown, to: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => relinkLocalRefs(v, to));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith(LOCAL_REF)
        ? [key, to(inner.slice(LOCAL_REF.length))]
        : [key, relinkLocalRefs(inner, to)],
    ),
  );
}

/**
 * The body pipeline refuses NUL in every string of a request (src/http/well-formed.ts) before any route's schema
 * runs, so a request string without a pattern of its own gets the pipeline's: otherwise the document would call
 * a string with NUL valid, and the service refuse it. Patterns of the schemas themselves exclude NUL
 * (test/platform/openapi.test.ts checks each); file contents (`format: binary`) may hold any byte. A string
 * with a format needs none: no format's grammar (a URI's, an address's, a date's) admits NUL, and a pattern
 * beside a format leaves generators such as schemathesis drawing strings for the pattern until one happens to
 * be a URI (minutes for a 2,048-character URL, docs/contributors/openapi.md "Fuzzing").
 */
function nulFree(ctx: { jsonSchema: Record<string, unknown> }): void {
  keepPatternOnly(ctx);
  const { jsonSchema } = ctx;
  if (jsonSchema.type !== 'string' || 'format' in jsonSchema) return;
  if ('pattern' in jsonSchema || 'allOf' in jsonSchema || 'enum' in jsonSchema || 'const' in jsonSchema) return;
  jsonSchema.pattern = NUL_FREE_PATTERN;
}

/**
 * Converts the zod schemas of one OpenAPI document. A recursive schema comes out of zod with its own
 * `$defs`, which a `$ref` inside the document cannot reach; they move to `components.schemas`.
 */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};
  private readonly hashes = new Map<string, string>();

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = toJsonSchema(schema, io);
    const { $schema: _dialect, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    if (!$defs) return rest;
    const names = new Map(Object.entries($defs).map(([local, def]) => [local, this.claim(local, def)]));
    const relink = (value: unknown) => relinkLocalRefs(value, (local) => `#/components/schemas/${names.get(local)}`);
    for (const [local, def] of Object.entries($defs)) this.components[names.get(local)!] = relink(def) as JsonSchema;
    return relink(rest) as JsonSchema;
  }

  /** A component name for a definition: its zod `id` when it has one, else one derived from its content. */
  private claim(local: string, def: JsonSchema): string {
    const hash = createHash('sha256').update(JSON.stringify(def)).digest('hex').slice(0, 8);
    const wanted = local.startsWith('__schema') ? `Schema${hash}` : local;
    const name = this.hashes.has(wanted) && this.hashes.get(wanted) !== hash ? `${wanted}${hash}` : wanted;
    this.hashes.set(name, hash);
    return name;
  }
}
