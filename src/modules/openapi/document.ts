import { z } from 'zod';
import type { ResponseDoc, RouteDef } from '../../http/route';
import { VERSION } from '../../version';
import { ErrorEnvelope, pipelineFailures } from './failures';
import { SchemaCollector, type JsonSchema } from './schemas';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const SECURITY: Record<RouteDef['auth'], Array<Record<string, string[]>>> = {
  none: [],
  session: [{ sessionCookie: [] }],
  // The empty requirement: the operation also works without credentials.
  'optional-session': [{}, { sessionCookie: [] }],
  secret: [{ secretKey: [] }, { sessionCookie: [], projectHeader: [] }],
  public: [{ publicKey: [] }],
  admin: [{ adminToken: [] }],
  secretKey: [{ secretKey: [] }],
};

const templateNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

function parameters(def: RouteDef, schemas: SchemaCollector): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = schemas.convert(schema as z.ZodType, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      list.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop });
    }
  }
  // OpenAPI requires every templated segment to be declared, also on routes that take it unvalidated.
  for (const name of templateNames(def.path)) {
    if (!list.some((p) => p.in === 'path' && p.name === name)) list.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (def.idempotent) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Performs the request once per project and key (1-255 printable ASCII characters); see docs/idempotency.md',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    });
  }
  return list;
}

function response(status: number, doc: ResponseDoc, schemas: SchemaCollector): JsonSchema {
  const schema = doc.schema ? schemas.convert(doc.schema, 'output') : status >= 400 ? ERROR_REF : undefined;
  return { description: doc.description, ...(schema ? { content: { [doc.contentType ?? 'application/json']: { schema } } } : {}) };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApi(routes: RouteDef[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const schemas = new SchemaCollector();
  const error = schemas.convert(ErrorEnvelope, 'output');
  for (const def of routes) {
    const responses = { ...pipelineFailures(def), ...def.responses };
    const op: JsonSchema = {
      tags: [def.tag],
      summary: def.summary,
      operationId: `${def.method}${def.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security: SECURITY[def.auth],
      parameters: parameters(def, schemas),
      responses: Object.fromEntries(Object.entries(responses).map(([status, doc]) => [status, response(Number(status), doc, schemas)])),
    };
    if (def.body) {
      const contentType =
        def.bodyContentType ??
        { json: 'application/json', form: 'application/x-www-form-urlencoded', none: 'multipart/form-data' }[def.bodyType ?? 'json'];
      op.requestBody = { required: true, content: { [contentType]: { schema: schemas.convert(def.body as z.ZodType, 'input') } } };
    }
    (paths[def.path] ??= {})[def.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Postwire API', version: VERSION },
    paths,
    components: {
      schemas: { Error: error, ...schemas.components },
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Project secret key, sk_…' },
        publicKey: { type: 'http', scheme: 'bearer', description: 'Project public key, pk_… (only /v1/track)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'postwire_session' },
        projectHeader: { type: 'apiKey', in: 'header', name: 'X-Project-Id' },
        adminToken: { type: 'http', scheme: 'bearer', description: "The deployment's ADMIN_TOKEN (docs/operators.md)" },
      },
    },
  };
}
