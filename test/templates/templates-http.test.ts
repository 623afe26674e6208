import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { addDomain, bearer } from '../domains/helpers';
import { senderTenant, verifiedDomain, type SenderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const get = (t: SenderTenant, path: string) => stack.http().get(path).set('Authorization', bearer(t.project));
const post = (t: SenderTenant, path: string, body?: object) => stack.http().post(path).set('Authorization', bearer(t.project)).send(body);
const patch = (t: SenderTenant, path: string, body: object) => stack.http().patch(path).set('Authorization', bearer(t.project)).send(body);
const del = (t: SenderTenant, path: string) => stack.http().delete(path).set('Authorization', bearer(t.project));

const valid = (t: SenderTenant, extra: object = {}) => ({
  name: 'Welcome',
  subject: 'Hi {{ name ?? "there" }}',
  body: '<p>Hello {{ first name }}</p>',
  from: `hello@${t.domain}`,
  ...extra,
});

async function create(t: SenderTenant, extra: object = {}) {
  const res = await post(t, '/templates', valid(t, extra));
  if (res.status !== 201) throw new Error(`POST /templates answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const total = async (t: SenderTenant) => (await get(t, '/templates').expect(200)).body.total as number;

const expectEnvelope = (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, statusCode: status, requestId: expect.any(String) } });
};

describe('POST /templates', () => {
  it('creates a MARKETING template by default and returns it', async () => {
    const t = await senderTenant(stack);
    const res = await post(t, '/templates', valid(t)).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Welcome',
      description: null,
      subject: 'Hi {{ name ?? "there" }}',
      body: '<p>Hello {{ first name }}</p>',
      text: null,
      from: `hello@${t.domain}`,
      fromName: null,
      replyTo: null,
      type: 'MARKETING',
      projectId: t.project.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await get(t, `/templates/${res.body.id}`).expect(200)).body).toEqual(res.body);
  });

  it('stores every optional field', async () => {
    const t = await senderTenant(stack);
    const extra = { description: 'internal note', fromName: 'Acme', replyTo: 'support@elsewhere.example.test', type: 'TRANSACTIONAL' };
    const body = await create(t, extra);
    expect(body).toMatchObject(extra);
  });

  it.each([
    ['name', 'Name is required'],
    ['subject', 'Subject is required'],
    ['body', 'Body is required'],
    ['from', 'From address is required'],
  ])('answers a missing %s with a plain 400 { error } and creates nothing', async (field, message) => {
    const t = await senderTenant(stack);
    const body: Record<string, unknown> = valid(t);
    delete body[field];
    const res = await post(t, '/templates', body).expect(400);
    expect(res.body).toEqual({ error: message });
    const blank = await post(t, '/templates', { ...valid(t), [field]: '' }).expect(400);
    expect(blank.body).toEqual({ error: message });
    expect(await total(t)).toBe(0);
  });

  it('answers an empty body with the plain 400 too', async () => {
    const t = await senderTenant(stack);
    expect((await post(t, '/templates').expect(400)).body).toEqual({ error: 'Name is required' });
    expect(await total(t)).toBe(0);
  });

  it.each([
    ['from', { from: 'not-an-email' }],
    ['replyTo', { replyTo: 'nope' }],
    ['type', { type: 'NEWSLETTER' }],
    ['subject', { subject: 'two\nlines' }],
    ['name', { name: 'x'.repeat(256) }],
    ['fromName', { fromName: 42 }],
  ])('refuses an invalid %s with 422 VALIDATION_ERROR and creates nothing', async (field, extra) => {
    const t = await senderTenant(stack);
    const res = await post(t, '/templates', valid(t, extra));
    expectEnvelope(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field })]);
    expect(await total(t)).toBe(0);
  });

  it('refuses a template that does not parse with 422 naming the line and the reason', async () => {
    const t = await senderTenant(stack);
    const res = await post(t, '/templates', valid(t, { body: '<p>Hi</p>\n{% if vip %}\n<p>VIP</p>' }));
    expectEnvelope(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([{ field: 'body', code: 'invalid_template', message: 'Line 2: tag {% if vip %} not closed' }]);
    expect(res.body.error.details).toEqual({ problems: [{ field: 'body', line: 2, reason: 'tag {% if vip %} not closed' }] });

    const subject = await post(t, '/templates', valid(t, { subject: 'Hi {{ name | shout }}' }));
    expectEnvelope(subject, 422, 'VALIDATION_ERROR');
    expect(subject.body.error.errors[0]).toMatchObject({ field: 'subject', message: 'Line 1: undefined filter: shout' });

    const include = await post(t, '/templates', valid(t, { body: '{% include "/etc/passwd" %}' }));
    expectEnvelope(include, 422, 'VALIDATION_ERROR');
    expect(await total(t)).toBe(0);
  });

  it('refuses a sender on a pending, unknown or foreign domain with 403 INTERNAL_SERVER_ERROR and creates nothing', async () => {
    const t = await senderTenant(stack);
    const pending = await addDomain(stack, t.project);
    const other = await senderTenant(stack);
    for (const from of [`hi@${pending.domain}`, 'hi@unknown.example.test', `hi@${other.domain}`, `hi@sub.${t.domain}`]) {
      const res = await post(t, '/templates', valid(t, { from }));
      expectEnvelope(res, 403, 'INTERNAL_SERVER_ERROR');
    }
    expect(await total(t)).toBe(0);
  });

  it('refuses a missing or public key with 401 INVALID_API_KEY', async () => {
    const t = await senderTenant(stack);
    expectEnvelope(await stack.http().post('/templates').send(valid(t)), 401, 'INVALID_API_KEY');
    expectEnvelope(
      await stack.http().post('/templates').set('Authorization', `Bearer ${t.project.public}`).send(valid(t)),
      401,
      'INVALID_API_KEY',
    );
    expect(await total(t)).toBe(0);
  });
});

describe('GET /templates', () => {
  let t: SenderTenant;
  beforeAll(async () => {
    t = await senderTenant(stack);
    await create(t, { name: 'Banana', subject: 'Yellow', type: 'TRANSACTIONAL' });
    await create(t, { name: 'apple', description: 'Fruit of the 100% kind', subject: 'Red' });
    await create(t, { name: 'cherry', subject: 'Dark RED_ones', type: 'HEADLESS' });
  });
  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((x) => x.name);

  it('pages newest first by default', async () => {
    const first = await get(t, '/templates?pageSize=2').expect(200);
    expect(first.body).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
    expect(names(first)).toEqual(['cherry', 'apple']);
    const second = await get(t, '/templates?pageSize=2&page=2').expect(200);
    expect(names(second)).toEqual(['Banana']);
    const beyond = await get(t, '/templates?pageSize=2&page=3').expect(200);
    expect(beyond.body).toMatchObject({ data: [], total: 3, page: 3, totalPages: 2 });
  });

  it('defaults to page 1 of 20 and clamps pageSize to 100', async () => {
    expect((await get(t, '/templates').expect(200)).body).toMatchObject({ page: 1, pageSize: 20, totalPages: 1 });
    expect((await get(t, '/templates?pageSize=500').expect(200)).body).toMatchObject({ pageSize: 100 });
  });

  it('filters by type', async () => {
    expect(names(await get(t, '/templates?type=HEADLESS').expect(200))).toEqual(['cherry']);
    expect(names(await get(t, '/templates?type=MARKETING').expect(200))).toEqual(['apple']);
  });

  it('searches name, description and subject case-insensitively, with % and _ taken literally', async () => {
    expect(names(await get(t, '/templates?search=BAN').expect(200))).toEqual(['Banana']);
    expect(names(await get(t, '/templates?search=fruit').expect(200))).toEqual(['apple']);
    expect(names(await get(t, '/templates?search=red').expect(200))).toEqual(['cherry', 'apple']);
    expect(names(await get(t, `/templates?search=${encodeURIComponent('100%')}`).expect(200))).toEqual(['apple']);
    expect(names(await get(t, '/templates?search=d_o').expect(200))).toEqual(['cherry']);
    expect((await get(t, '/templates?search=%25').expect(200)).body.total).toBe(1);
    expect((await get(t, '/templates?search=zzz').expect(200)).body).toMatchObject({ data: [], total: 0, totalPages: 0 });
  });

  it('sorts by name case-insensitively, by updatedAt, and falls back on unknown sort or dir', async () => {
    expect(names(await get(t, '/templates?sort=name&dir=asc').expect(200))).toEqual(['apple', 'Banana', 'cherry']);
    expect(names(await get(t, '/templates?sort=name').expect(200))).toEqual(['cherry', 'Banana', 'apple']);
    expect(names(await get(t, '/templates?sort=createdAt&dir=asc').expect(200))).toEqual(['Banana', 'apple', 'cherry']);
    const banana = (await get(t, '/templates?search=banana').expect(200)).body.data[0];
    await patch(t, `/templates/${banana.id}`, { fromName: 'Touched' }).expect(200);
    expect(names(await get(t, '/templates?sort=updatedAt&dir=asc').expect(200))).toEqual(['apple', 'cherry', 'Banana']);
    expect(names(await get(t, '/templates?sort=createdAt&dir=asc').expect(200))).toEqual(['Banana', 'apple', 'cherry']);
    expect(names(await get(t, '/templates?sort=subject&dir=sideways').expect(200))).toEqual(['cherry', 'apple', 'Banana']);
  });

  it.each(['page=0', 'page=abc', 'page=1.5', 'pageSize=0', 'pageSize=-3', 'type=NEWSLETTER'])(
    'refuses %s with 400 BAD_REQUEST',
    async (query) => {
      const res = await get(t, `/templates?${query}`);
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(res.body.error.errors[0].field).toBe(`query.${query.split('=')[0]}`);
    },
  );

  it("never lists another project's templates", async () => {
    const other = await senderTenant(stack);
    expect((await get(other, '/templates').expect(200)).body).toMatchObject({ data: [], total: 0 });
  });
});

describe('GET /templates/{id}', () => {
  it("answers 404 TEMPLATE_NOT_FOUND for an unknown id, another project's template, or a malformed id", async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const { id } = await create(other);
    expectEnvelope(await get(t, `/templates/${id}`), 404, 'TEMPLATE_NOT_FOUND');
    expectEnvelope(await get(t, `/templates/${randomUUID()}`), 404, 'TEMPLATE_NOT_FOUND');
    expectEnvelope(await get(t, '/templates/not-a-uuid'), 404, 'TEMPLATE_NOT_FOUND');
  });
});

describe('PATCH /templates/{id}', () => {
  it('changes only the fields sent; null clears an optional field', async () => {
    const t = await senderTenant(stack);
    const before = await create(t, { description: 'd', fromName: 'Acme', replyTo: 'r@elsewhere.example.test' });
    await new Promise((r) => setTimeout(r, 5));
    const res = await patch(t, `/templates/${before.id}`, { name: 'Renamed', fromName: null, description: null, type: 'HEADLESS' }).expect(
      200,
    );
    expect(res.body).toEqual({
      ...before,
      name: 'Renamed',
      fromName: null,
      description: null,
      type: 'HEADLESS',
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await get(t, `/templates/${before.id}`).expect(200)).body).toEqual(res.body);
    expect((await patch(t, `/templates/${before.id}`, {}).expect(200)).body).toMatchObject({
      name: 'Renamed',
      replyTo: 'r@elsewhere.example.test',
    });
  });

  it('accepts a new sender on another verified domain of the project', async () => {
    const t = await senderTenant(stack);
    const { id } = await create(t);
    const second = (await verifiedDomain(stack, t.project)).domain;
    expect((await patch(t, `/templates/${id}`, { from: `news@${second}` }).expect(200)).body.from).toBe(`news@${second}`);
  });

  it('refuses bad input and leaves the template unchanged', async () => {
    const t = await senderTenant(stack);
    const pending = await addDomain(stack, t.project);
    const before = await create(t);
    const refusals: Array<[object, number, string]> = [
      [{ from: `hi@${pending.domain}` }, 403, 'INTERNAL_SERVER_ERROR'],
      [{ body: 'fine\n\n{{ name ?? }}' }, 422, 'VALIDATION_ERROR'],
      [{ subject: '{% for x in y %}' }, 422, 'VALIDATION_ERROR'],
      [{ name: '' }, 422, 'VALIDATION_ERROR'],
      [{ from: null }, 422, 'VALIDATION_ERROR'],
      [{ type: 'OTHER' }, 422, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of refusals) {
      expectEnvelope(await patch(t, `/templates/${before.id}`, { name: 'Changed', ...body }), status, code);
    }
    const unparseable = await patch(t, `/templates/${before.id}`, { body: 'fine\n\n{{ name ?? }}' });
    expect(unparseable.body.error.errors).toEqual([
      { field: 'body', code: 'invalid_template', message: 'Line 3: "??" needs a value on both sides in {{ name ?? }}' },
    ]);
    expect((await get(t, `/templates/${before.id}`).expect(200)).body).toEqual(before);
  });

  it("answers 404 for another project's template and leaves it unchanged", async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const theirs = await create(other);
    expectEnvelope(await patch(t, `/templates/${theirs.id}`, { name: 'Mine now' }), 404, 'TEMPLATE_NOT_FOUND');
    expect((await get(other, `/templates/${theirs.id}`).expect(200)).body).toEqual(theirs);
  });
});

describe('DELETE /templates/{id}', () => {
  it('deletes with 204; the template is gone', async () => {
    const t = await senderTenant(stack);
    const keep = await create(t, { name: 'Keep' });
    const { id } = await create(t);
    const res = await del(t, `/templates/${id}`).expect(204);
    expect(res.text).toBe('');
    expectEnvelope(await get(t, `/templates/${id}`), 404, 'TEMPLATE_NOT_FOUND');
    expectEnvelope(await del(t, `/templates/${id}`), 404, 'TEMPLATE_NOT_FOUND');
    expect((await get(t, '/templates').expect(200)).body.data).toEqual([keep]);
  });

  it("answers 404 for another project's template and keeps it", async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const theirs = await create(other);
    expectEnvelope(await del(t, `/templates/${theirs.id}`), 404, 'TEMPLATE_NOT_FOUND');
    await get(other, `/templates/${theirs.id}`).expect(200);
  });
});

describe('POST /templates/{id}/duplicate', () => {
  it('creates a copy named "(Copy)" and returns it, its id being the new template ID', async () => {
    const t = await senderTenant(stack);
    const original = await create(t, { description: 'd', fromName: 'Acme', type: 'TRANSACTIONAL' });
    const res = await post(t, `/templates/${original.id}/duplicate`).expect(201);
    expect(res.body).toEqual({
      ...original,
      id: expect.any(String),
      name: 'Welcome (Copy)',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body.id).not.toBe(original.id);
    expect((await get(t, `/templates/${res.body.id}`).expect(200)).body).toEqual(res.body);
    expect((await get(t, `/templates/${original.id}`).expect(200)).body).toEqual(original);
  });

  it('keeps the name within 255 characters', async () => {
    const t = await senderTenant(stack);
    const original = await create(t, { name: 'n'.repeat(255) });
    const copy = (await post(t, `/templates/${original.id}/duplicate`).expect(201)).body;
    expect(copy.name).toBe(`${'n'.repeat(248)} (Copy)`);
  });

  it("answers 404 for an unknown or another project's template and creates nothing", async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const theirs = await create(other);
    expectEnvelope(await post(t, `/templates/${theirs.id}/duplicate`), 404, 'TEMPLATE_NOT_FOUND');
    expectEnvelope(await post(t, `/templates/${randomUUID()}/duplicate`), 404, 'TEMPLATE_NOT_FOUND');
    expect(await total(t)).toBe(0);
    expect(await total(other)).toBe(1);
  });
});

describe('GET /templates/{id}/usage', () => {
  it('lists no campaigns or workflows for a template nothing references', async () => {
    const t = await senderTenant(stack);
    const { id } = await create(t);
    expect((await get(t, `/templates/${id}/usage`).expect(200)).body).toEqual({ campaigns: [], workflows: [], forms: [] });
  });

  it("answers 404 for an unknown or another project's template", async () => {
    const t = await senderTenant(stack);
    const theirs = await create(await senderTenant(stack));
    expectEnvelope(await get(t, `/templates/${theirs.id}/usage`), 404, 'TEMPLATE_NOT_FOUND');
    expectEnvelope(await get(t, `/templates/${randomUUID()}/usage`), 404, 'TEMPLATE_NOT_FOUND');
  });
});
