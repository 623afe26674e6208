import type { z } from 'zod';
import type { Method, RouteDef } from '../../http/route';
import { relinkLocalRefs, toJsonSchema, type JsonSchema } from '../openapi/schemas';
import { operationName, toolName, type OperationName } from './names';

/** One route as the MCP server and the CLI offer it: a tool, a command (docs/mcp.md "Tools", docs/cli.md). */
export interface Operation extends OperationName {
  /** `contacts_list`: the MCP tool's name. */
  name: string;
  method: Method;
  path: string;
  summary: string;
  readOnly: boolean;
  destructive: boolean;
  /** The route honours `Idempotency-Key`; the input's `idempotencyKey` carries it. */
  idempotencyKey: boolean;
  pathParams: string[];
  queryParams: string[];
  /** Where the body comes from: the input's other properties, its `body` property, or nowhere. */
  body: 'flat' | 'nested' | 'none';
  /** The body is sent as multipart/form-data; these fields are files. */
  files: string[] | undefined;
  /** JSON Schema of the input, converted from the route's own zod schemas: always an object. */
  inputSchema: JsonSchema;
  /** The summary, with the method, path and how the input is laid out. */
  description: string;
}

/** The idempotency key's property in a tool's input. */
export const IDEMPOTENCY_ARG = 'idempotencyKey';

/** Actions that destroy or void something beyond a DELETE: they are marked destructive. */
const DESTRUCTIVE = /^(reset|cancel|cancel-all|bulk-delete|bulk-unsubscribe|rotate-secret|regenerate-keys)$/;

const FILE_NOTE = "The file's content: text as it is, or a data: URL (data:<type>;base64,…) for binary content.";

/**
 * What a project's secret key can call makes a tool: every `secret` route with a JSON body, no body, or a
 * multipart form whose fields are declared. Session routes (account, project settings), public pages, the
 * tracking links, webhooks from providers, admin routes and /mcp itself (`secretKey`) are not offered.
 */
export function isEligible(def: RouteDef): boolean {
  if (def.auth !== 'secret') return false;
  // An explicit `none` is a stream the handler reads itself: a tool can fill it only when its form is declared.
  if (def.bodyType === 'none') return def.body !== undefined;
  return def.bodyType !== 'form';
}

interface Part {
  properties: Record<string, JsonSchema>;
  required: string[];
  plain: boolean;
  schema: JsonSchema;
}

/** A part's JSON Schema, its local definitions renamed `<prefix>_<name>` into `defs`, so that parts can share one input. */
function part(schema: unknown, prefix: string, defs: Record<string, JsonSchema>): Part | undefined {
  if (!schema) return undefined;
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = toJsonSchema(schema as z.ZodType, 'input') as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const relink = (value: unknown) => relinkLocalRefs(value, (name) => `#/$defs/${prefix}_${name}`);
  for (const [name, def] of Object.entries($defs ?? {})) defs[`${prefix}_${name}`] = relink(def) as JsonSchema;
  const linked = relink(json) as JsonSchema;
  const properties = (linked.properties ?? {}) as Record<string, JsonSchema>;
  const plain = linked.type === 'object' && !('anyOf' in linked || 'oneOf' in linked || 'allOf' in linked || '$ref' in linked);
  return { properties, required: (linked.required ?? []) as string[], plain, schema: linked };
}

const isFile = (prop: JsonSchema) => prop.format === 'binary' || prop.contentEncoding === 'binary';

function describe(def: RouteDef, body: Operation['body'], idempotencyKey: boolean): string {
  const notes = [`${def.method.toUpperCase()} ${def.path}`];
  if (body === 'nested') notes.push('the request body goes in `body`');
  if (idempotencyKey) notes.push(`\`${IDEMPOTENCY_ARG}\` is sent as Idempotency-Key (docs/idempotency.md)`);
  return `${def.summary}\n\n(${notes.join('; ')})`;
}

function operationOf(def: RouteDef, routes: readonly RouteDef[]): Operation {
  const name = operationName(def, routes);
  const defs: Record<string, JsonSchema> = {};
  const params = part(def.params, 'path', defs);
  const query = part(def.query, 'query', defs);
  const multipart = def.bodyType === 'none';
  const bodyPart = part(def.body, 'body', defs);
  const pathParams = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const queryParams = Object.keys(query?.properties ?? {});
  const idempotencyKey = def.idempotent === true;

  const properties: Record<string, JsonSchema> = {};
  for (const p of pathParams) properties[p] = params?.properties[p] ?? { type: 'string' };
  Object.assign(properties, query?.properties);
  const taken = new Set([...Object.keys(properties), IDEMPOTENCY_ARG]);
  const required = [...pathParams, ...(query?.required ?? [])];

  let body: Operation['body'] = 'none';
  let files: string[] | undefined;
  if (bodyPart) {
    const bodyProps = Object.fromEntries(
      Object.entries(bodyPart.properties).map(([k, v]) =>
        multipart && isFile(v) ? [k, { type: 'string', description: [v.description, FILE_NOTE].filter(Boolean).join('. ') }] : [k, v],
      ),
    );
    if (multipart) files = Object.keys(bodyPart.properties).filter((k) => isFile(bodyPart.properties[k]!));
    if (bodyPart.plain && !Object.keys(bodyProps).some((k) => taken.has(k))) {
      body = 'flat';
      Object.assign(properties, bodyProps);
      required.push(...bodyPart.required);
    } else {
      body = 'nested';
      properties.body = { ...bodyPart.schema, ...(bodyPart.plain ? { properties: bodyProps } : {}) };
      required.push('body');
    }
  }
  if (idempotencyKey) {
    properties[IDEMPOTENCY_ARG] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Performs the request once per project and key (1-255 printable ASCII characters), for safe retries',
    };
  }
  const readOnly = def.method === 'get' || def.agent?.readOnly === true;
  const lastWord = def.path.split('/').at(-1) ?? '';
  return {
    ...name,
    name: toolName(name),
    method: def.method,
    path: def.path,
    summary: def.summary,
    readOnly,
    destructive: !readOnly && (def.method === 'delete' || DESTRUCTIVE.test(lastWord)),
    idempotencyKey,
    pathParams,
    queryParams,
    body,
    files,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required: [...new Set(required)] } : {}),
      ...(Object.keys(defs).length ? { $defs: defs } : {}),
    },
    description: describe(def, body, idempotencyKey),
  };
}

/** Every eligible route of `routes` as an operation; names are unique (a clash gets the method appended). */
export function operationsOf(routes: readonly RouteDef[]): Operation[] {
  const seen = new Set<string>();
  return routes.filter(isEligible).map((def) => {
    const op = operationOf(def, routes);
    if (seen.has(op.name)) {
      op.action = [...op.action, def.method];
      op.name = toolName(op);
    }
    seen.add(op.name);
    return op;
  });
}
