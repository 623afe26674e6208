import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject, TestUser } from '../helpers/fixtures';
import { newTenant } from '../helpers/tenants';
import { sql } from '../helpers/seed';

/** docs/architecture.md "The body pipeline": NUL, nesting, UTF-8, unknown methods and the /v1/send body limit, through HTTP. */
let stack: TestStack;
let user: TestUser;
let project: TestProject;
beforeAll(async () => {
  stack = await startStack();
  ({ user, project } = await newTenant(stack));
});
afterAll(() => stack?.close());

const MB = 1024 * 1024;
const NUL = 'a\u0000b';
const auth = () => ({ Authorization: `Bearer ${project.secret}` });

/** Sends `body` as it is, bytes or text, so that the client cannot fix it on the way. */
function raw(method: string, path: string, body: Buffer | string | undefined, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; json: () => Record<string, any> }>((resolve, reject) => {
    const { port } = stack.server.address() as AddressInfo;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          'Content-Type': 'application/json',
          ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
          ...auth(),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('NUL (U+0000) in text', () => {
  const id = randomUUID();
  it.each([
    ['post', '/templates', { name: NUL, subject: 's', body: 'b', from: 'a@example.test' }, 'name'],
    ['post', '/campaigns', { name: NUL }, 'name'],
    ['post', '/segments', { name: NUL, type: 'STATIC' }, 'name'],
    ['post', '/workflows', { name: NUL, trigger: { type: 'EVENT', event: 'x' } }, 'name'],
    ['post', `/workflows/${id}/steps`, { type: 'DELAY', name: NUL, config: {} }, 'name'],
    ['post', '/contacts/lookup', { emails: ['ok@example.test', NUL] }, 'emails.1'],
    ['post', '/contacts', { email: 'n@example.test', data: { note: NUL } }, 'data.note'],
    ['post', '/v1/track', { email: 'n@example.test', event: 'x', data: { [NUL]: 1 } }, `data.${NUL}`],
  ])('%s %s answers 422 naming the field, storing nothing', async (method, path, body, field) => {
    const key = path === '/v1/track' ? project.public : project.secret;
    const res = await stack.http()[method as 'post'](path).set('Authorization', `Bearer ${key}`).send(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [expect.objectContaining({ field, code: 'invalid_string' })],
    });
  });

  it('in the project name (session routes) answers 422 naming the field', async () => {
    const res = await stack.http().post('/users/@me/projects').set('Cookie', user.cookie).send({ name: NUL });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it.each([
    ['/contacts', 'search'],
    ['/templates', 'search'],
    ['/campaigns', 'search'],
    ['/workflows', 'search'],
    ['/events', 'name'],
  ])('in a query parameter of GET %s answers 422 naming query.%s', async (path, param) => {
    const res = await stack.http().get(`${path}?${param}=a%00b`).set(auth());
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [expect.objectContaining({ field: `query.${param}` })] });
  });

  it('in a path segment answers 404', async () => {
    const res = await stack.http().get('/contacts/fields/data.a%00b/values').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('stores nothing: no contact is created by the refused requests', async () => {
    const rows = await sql(stack, 'select count(*)::int as n from contacts where project_id = ?', [project.id]);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('JSON nesting', () => {
  const bodies: Array<[string, string, (depth: number) => unknown]> = [
    ['/v1/track', 'public', (d) => ({ email: 'deep@example.test', event: 'x', data: { k: nested(d - 2) } })],
    [
      '/v1/send',
      'secret',
      (d) => ({ to: 'deep@example.test', subject: 's', body: 'b', from: 'a@example.test', data: { k: nested(d - 2) } }),
    ],
    ['/contacts', 'secret', (d) => ({ email: 'deep@example.test', data: { k: nested(d - 2) } })],
    [`/workflows/${randomUUID()}/steps`, 'secret', (d) => ({ type: 'UPDATE_CONTACT', config: { data: { k: nested(d - 3) } } })],
    [`/workflows/${randomUUID()}/executions`, 'secret', (d) => ({ email: 'deep@example.test', context: { k: nested(d - 2) } })],
  ];

  it.each(bodies)('POST %s: deeper than 64 levels (1,450 here) is 422 naming the limit', async (path, kind, body) => {
    const key = kind === 'public' ? project.public : project.secret;
    const res = await raw('POST', path, JSON.stringify(body(1450)), { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'JSON bodies nest at most 64 levels',
      errors: [{ field: 'body', code: 'too_nested', message: 'Nests objects and arrays deeper than 64 levels' }],
    });
  });

  it.each(bodies)('POST %s: 65 levels are refused, 64 pass the check', async (path, kind, body) => {
    const key = kind === 'public' ? project.public : project.secret;
    expect((await raw('POST', path, JSON.stringify(body(65)), { Authorization: `Bearer ${key}` })).json().error?.errors?.[0]?.code).toBe(
      'too_nested',
    );
    const ok = await raw('POST', path, JSON.stringify(body(64)), { Authorization: `Bearer ${key}` });
    expect(ok.status).toBeLessThan(500);
    expect(ok.json().error?.errors?.[0]?.code).not.toBe('too_nested');
  });

  it('counts brackets inside strings as text', async () => {
    const res = await raw(
      'POST',
      '/contacts',
      JSON.stringify({ email: 'brackets@example.test', data: { k: '\\"[{'.repeat(500), ['[{"'.repeat(30)]: 1 } }),
    );
    expect(res.status).toBe(201);
  });
});

describe('bytes that are not UTF-8', () => {
  it('in a JSON body answer 400', async () => {
    const body = Buffer.concat([Buffer.from('{"email":"x@example.test","data":{"k":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const res = await raw('POST', '/contacts', body);
    expect(res.status).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'BAD_REQUEST', message: 'The request body is not valid UTF-8' });
    const rows = await sql(stack, 'select count(*)::int as n from contacts where project_id = ? and email = ?', [
      project.id,
      'x@example.test',
    ]);
    expect(rows[0]!.n).toBe(0);
  });

  it('in a query parameter answer 400', async () => {
    const res = await stack.http().get('/contacts?search=%FF').set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'The query string is not valid UTF-8' });
  });
});

describe('unknown methods', () => {
  it('TRACE on a route answers 405 in the envelope with the Allow header', async () => {
    const res = await raw('TRACE', '/contacts', undefined);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('HEAD, GET, POST');
    expect(res.json()).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED', statusCode: 405 } });
  });

  it('a known method the route does not serve answers the same', async () => {
    const res = await raw('PUT', '/contacts', '{}');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('HEAD, GET, POST');
  });
});

describe('Allow on paths that a route with fewer parameters serves', () => {
  it('OPTIONS lists the methods of /contacts/bulk-subscribe, not those of /contacts/{id}', async () => {
    const res = await raw('OPTIONS', '/contacts/bulk-subscribe', undefined);
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('POST');
  });

  it('DELETE /contacts/bulk-unsubscribe answers 405, not a 404 for a contact named bulk-unsubscribe', async () => {
    const res = await raw('DELETE', '/contacts/bulk-unsubscribe', '{}');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('GET /workflows/{id}/executions/cancel-all answers 405 with Allow: POST', async () => {
    const res = await raw('GET', `/workflows/${randomUUID()}/executions/cancel-all`, undefined);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('/openapi.json', () => {
  it('describes sort and dir of GET /contacts as optional strings, and answers without them', async () => {
    const doc = (await stack.http().get('/openapi.json').expect(200)).body;
    const params = doc.paths['/contacts'].get.parameters as Array<{ name: string; required: boolean; schema: { type: string } }>;
    for (const name of ['sort', 'dir'])
      expect(params.find((p) => p.name === name)).toMatchObject({ required: false, schema: { type: 'string' } });
    expect((await stack.http().get('/contacts?sort=nope').set(auth())).status).toBe(200);
  });

  it("leaves a filter's unit optional, in requests and responses", async () => {
    const doc = JSON.stringify((await stack.http().get('/openapi.json').expect(200)).body);
    expect(doc).toContain('"unit"');
    expect(doc).not.toMatch(/"required":\["field","operator","unit"\]/);
  });

  it('answers a malformed subscription link with the HTML page it documents', async () => {
    const res = await stack.http().get(`/unsubscribe/${'x'.repeat(300)}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('account addresses', () => {
  it.each([
    [
      'longer than the users column (255)',
      `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`,
    ],
    ['with a domain label over 63 characters', `a@${'b'.repeat(64)}.com`],
    ['with a local part over 64 characters', `${'a'.repeat(65)}@example.test`],
    ['with a domain label ending in a hyphen', 'a@example-.test'],
  ])('signup and invitation refuse an address %s with 422', async (_what, email) => {
    const signup = await stack.http().post('/auth/signup').send({ email, password: 'correct horse battery' });
    expect(signup.status).toBe(422);
    expect(signup.body.error.errors).toEqual([expect.objectContaining({ field: 'email' })]);
    const invite = await stack.http().post(`/projects/${project.id}/members`).set('Cookie', user.cookie).send({ email });
    expect(invite.status).toBe(422);
  });
});

describe('/v1/send body limit', () => {
  // Defaults: 10 attachments of 10 MB together (13.3 MB base64), a 1,000,000-character body at 3 bytes, and
  // the 2 MB general limit for the rest: 19,119,128 bytes.
  const LIMIT = Math.ceil((10 * MB) / 3) * 4 + 10 * 4096 + 3_000_000 + 2 * MB;

  it('refuses a body larger than the largest valid request with 413 before reading it', async () => {
    const res = await raw('POST', '/v1/send', Buffer.alloc(LIMIT + 1, ' '));
    expect(res.status).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('reads the largest valid request: 10 MB of attachments and a body of 1,000,000 three-byte characters', async () => {
    const body = {
      to: 'big@example.test',
      from: 'sender@unverified.example.test',
      subject: 'Big',
      body: '€'.repeat(1_000_000),
      attachments: [{ filename: 'a.bin', content: Buffer.alloc(10 * MB, 'a').toString('base64'), contentType: 'application/octet-stream' }],
    };
    const text = JSON.stringify(body);
    expect(Buffer.byteLength(text)).toBeGreaterThan(16 * MB);
    const res = await raw('POST', '/v1/send', text);
    // Read and validated whole: what stops it is the unverified sender domain, not its size.
    expect(res.status).toBe(403);
  });
});
