import { startStack, type TestStack } from '../helpers/stack';
import { uniqueEmail } from '../helpers/fixtures';
import { tenant, type Tenant } from '../helpers/tenants';

/**
 * A request that /openapi.json calls valid is accepted (docs/openapi.md): where the fuzzer found the document
 * promising more than the service took (NUL in strings, the activity type list, the analytics range, an
 * account address's lengths), each rule is checked against what the service answers.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let stack: TestStack;
let doc: Document;
let t: Tenant;
beforeAll(async () => {
  stack = await startStack();
  doc = (await stack.http().get('/openapi.json').expect(200)).body;
  t = await tenant(stack);
});
afterAll(() => stack.close());

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string' ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema;

/** Every string schema a request can carry (bodies and parameters, through references), once each. */
function requestStrings(): Array<{ where: string; schema: Schema }> {
  const found: Array<{ where: string; schema: Schema }> = [];
  const seen = new Set<Schema>();
  const walk = (raw: unknown, where: string) => {
    if (!raw || typeof raw !== 'object') return;
    const schema = resolve(raw as Schema);
    if (seen.has(schema)) return;
    seen.add(schema);
    if (schema.type === 'string' && !('enum' in schema) && !('const' in schema) && schema.format !== 'binary')
      found.push({ where, schema });
    for (const key of ['items', 'additionalProperties', 'propertyNames', 'not']) walk(schema[key], `${where}.${key}`);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      for (const [i, inner] of ((schema[key] as unknown[] | undefined) ?? []).entries()) walk(inner, `${where}.${key}[${i}]`);
    for (const [name, inner] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {}))
      walk(inner, `${where}.${name}`);
  };
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.in} ${p.name}`);
      for (const [type, content] of Object.entries(op.requestBody?.content ?? {})) walk(content.schema, `${method} ${path} ${type}`);
    }
  return found;
}

/** The patterns a string schema holds, its own and those of `allOf`. */
const patternsOf = (schema: Schema): RegExp[] =>
  [schema.pattern, ...((schema.allOf as Schema[] | undefined) ?? []).map((s) => s.pattern)]
    .filter((p): p is string => typeof p === 'string')
    .map((p) => new RegExp(p));

/** What the document says of a string: its patterns and length bounds. */
const documentTakes = (schema: Schema, value: string) =>
  patternsOf(schema).every((p) => p.test(value)) &&
  value.length >= Number(schema.minLength ?? 0) &&
  value.length <= Number(schema.maxLength ?? Infinity);

const parameter = (path: string, name: string) => doc.paths[path]!.get!.parameters!.find((p) => p.name === name)!.schema;

describe('/openapi.json states what requests are accepted', () => {
  it('excludes NUL from every string of a request, which the body pipeline refuses', () => {
    const strings = requestStrings();
    expect(strings.length).toBeGreaterThan(100);
    const withNul = ['\u0000', 'a\u0000b', 'a\u0000@example.test'];
    // A string with a format is a URI, an address, a date...: no format's grammar admits NUL.
    const open = strings.filter(
      ({ schema }) => !('format' in schema) && withNul.some((probe) => patternsOf(schema).every((p) => p.test(probe))),
    );
    expect(open.map(({ where, schema }) => `${where}: ${JSON.stringify(schema)}`)).toEqual([]);
  });

  it("states the activity feed's type list exactly: what matches is answered, what does not is refused", async () => {
    const samples = ['SENT', 'sent', ' Opened , CLICKED\t', 'failed,RECEIVED', 'SENT,,OPENED', ',SENT', 'SHIPPED', 'SENT OPENED', '0', ''];
    for (const path of ['/activity', '/activity/recent-count']) {
      const anyOf = parameter(path, 'type').anyOf as Schema[];
      const single = anyOf.find((s) => s.type === 'string')!;
      for (const value of samples) {
        const res = await t.c.get(`${path}?type=${encodeURIComponent(value)}`);
        expect([value, res.status]).toEqual([value, documentTakes(single, value) ? 200 : 400]);
      }
    }
  });

  it("states an account address's limits exactly: 64 characters before the @, domain labels of 63", async () => {
    const email = resolve(
      (doc.paths['/auth/signup']!.post!.requestBody!.content['application/json']!.schema.properties as Record<string, Schema>).email!,
    );
    // [local part, domain]; a label of its own before the domain keeps each address new.
    const samples: Array<[string, string]> = [
      ['a'.repeat(64), 'example.test'],
      ['a'.repeat(65), 'example.test'],
      ['a', `${'b'.repeat(63)}.test`],
      ['a', `${'b'.repeat(64)}.test`],
      ['a', 'ends-with-hyphen-.test'],
      ['a', `example.${'t'.repeat(63)}`],
      ['a', `example.${'t'.repeat(64)}`],
      ['a..b', 'example.test'],
    ];
    for (const [local, domain] of samples) {
      const value = `${local}@${Math.random().toString(36).slice(2, 8)}.${domain}`;
      const res = await stack.http().post('/auth/signup').send({ email: value, password: 'long enough password' });
      expect([value, res.status]).toEqual([value, documentTakes(email, value) ? 200 : 422]);
    }
    expect(documentTakes(email, uniqueEmail())).toBe(true);
  });

  it('answers any range the document allows: a long one cut to its latest 1000 buckets, a reversed one empty', async () => {
    for (const query of ['interval=hour&from=2000-01-01T00:00:00Z', 'interval=day&from=0020-02-29T00:00:00Z&to=2024-02-29T00:00:00Z']) {
      for (const path of ['/analytics/timeseries', '/analytics/contacts']) {
        const res = await t.c.get(`${path}?${query}`).expect(200);
        expect(res.body.points).toHaveLength(1000);
      }
    }
    const reversed = 'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z';
    for (const path of ['timeseries', 'contacts', 'top-campaigns', 'campaign-stats', 'top-events'])
      await t.c.get(`/analytics/${path}?${reversed}`).expect(200);
    await t.c.get(`/activity/stats?${reversed}`).expect(200);
    await t.c.get('/activity/recent-count?since=2999-01-01T00:00:00Z').expect(200);
  });
});
