import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { query } from './helpers';
import { newTenant, client } from '../helpers/tenants';

let stack: TestStack;
let owner: TestProject;
let intruder: TestProject;
let contactId: string;

const snapshot = async () => ({
  contacts: await query(stack, 'select id, email, subscribed, data, updated_at from contacts where project_id = ? order by id', [owner.id]),
  events: await query(stack, 'select id, name from events where project_id = ? order by id', [owner.id]),
  fields: await query(stack, 'select key, type from contact_fields where project_id = ? order by key', [owner.id]),
});
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  stack = await startStack();
  owner = (await newTenant(stack)).project;
  intruder = (await newTenant(stack)).project;
  const api = client(stack, owner);
  contactId = (await api.track({ email: 'private@example.test', event: 'secret-event', data: { plan: 'pro' } }).expect(200)).body.data
    .contact;
  const condition = {
    logic: 'AND',
    groups: [
      {
        filters: [
          { field: 'data.plan', operator: 'equals', value: 'pro' },
          { field: 'event.secret-event', operator: 'triggered' },
        ],
      },
    ],
  };
  await query(
    stack,
    `insert into segments (id, created_at, updated_at, project_id, name, type, condition) values (?, now(), now(), ?, 'Owner segment', 'DYNAMIC', ?::jsonb)`,
    [randomUUID(), owner.id, JSON.stringify(condition)],
  );
  before = await snapshot();
});
afterAll(() => stack.close());

describe("another project's keys never reach a project's audience", () => {
  const other = () => client(stack, intruder);

  it.each([
    ['GET', '/contacts/{contact}'],
    ['PATCH', '/contacts/{contact}'],
    ['DELETE', '/contacts/{contact}'],
    ['GET', '/events/contact/{contact}'],
    ['GET', '/contacts/fields/data.plan/values'],
    ['DELETE', '/contacts/fields/data.plan'],
    ['DELETE', '/events/secret-event'],
  ])("%s %s with the other project's secret key is 404", async (method, template) => {
    const api = other();
    const path = template.replace('{contact}', contactId);
    const req =
      method === 'GET'
        ? api.get(path)
        : method === 'PATCH'
          ? api.patch(path).send({ subscribed: false, data: { plan: 'hacked' } })
          : api.delete(path);
    const res = await req;
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('private@example.test');
    expect(await snapshot()).toEqual(before);
  });

  it('lists and aggregates nothing of the other project', async () => {
    const api = other();
    expect((await api.get('/contacts').expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    expect((await api.get('/contacts?search=private').expect(200)).body.total).toBe(0);
    expect(
      (
        await api
          .post('/contacts/lookup')
          .send({ emails: ['private@example.test'] })
          .expect(200)
      ).body,
    ).toEqual({ found: [], missing: ['private@example.test'] });
    expect((await api.get('/contacts/fields').expect(200)).body.fields.map((f: { field: string }) => f.field)).not.toContain('data.plan');
    expect((await api.get('/contacts/fields/data.plan/usage').expect(200)).body).toEqual({ segments: [], campaigns: [], workflows: [] });
    expect((await api.get('/events').expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    expect((await api.get('/events/names').expect(200)).body).toEqual({ names: [] });
    expect((await api.get('/events/stats').expect(200)).body).toMatchObject({ total: 0, topEvents: [] });
    expect((await api.get('/events/secret-event/usage').expect(200)).body).toEqual({ segments: [], campaigns: [], workflows: [] });
  });

  it('keeps a cursor of one project from paging another', async () => {
    const ownerApi = client(stack, owner);
    await ownerApi.post('/contacts').send({ email: 'second@example.test' }).expect(201);
    const page = await ownerApi.get('/contacts?limit=1').expect(200);
    const res = await other().get(`/contacts?limit=1&cursor=${page.body.cursor}`).expect(200);
    expect(res.body.data).toEqual([]);
    await ownerApi.delete(`/contacts/${page.body.data[0].id}`).expect(204);
  });

  it("writes through the same email into the writer's own project only", async () => {
    const api = other();
    const posted = await api
      .post('/contacts')
      .send({ email: 'private@example.test', subscribed: false, data: { plan: 'mine' } })
      .expect(201);
    const tracked = await api.track({ email: 'private@example.test', event: 'secret-event' }).expect(200);
    expect(posted.body.id).not.toBe(contactId);
    expect(tracked.body.data.contact).toBe(posted.body.id);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses keys of the wrong kind or of no project with 401, changing nothing', async () => {
    const attempts = [
      stack.http().get('/contacts').set('Authorization', `Bearer ${owner.public}`),
      stack.http().get(`/contacts/${contactId}`).set('Authorization', 'Bearer sk_not_a_key'),
      stack.http().get('/events').set('Authorization', `Bearer ${owner.public}`),
      stack.http().post('/events/track').set('Authorization', `Bearer ${owner.public}`).send({ email: 'private@example.test', event: 'x' }),
      stack.http().post('/v1/track').set('Authorization', `Bearer ${owner.secret}`).send({ email: 'private@example.test', event: 'x' }),
      stack.http().post('/v1/track').set('Authorization', 'Bearer pk_not_a_key').send({ email: 'private@example.test', event: 'x' }),
      stack.http().delete(`/contacts/${contactId}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
    expect(await snapshot()).toEqual(before);
  });
});
