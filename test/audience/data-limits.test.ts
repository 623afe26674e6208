import { startStack, type TestStack } from '../helpers/stack';
import { query } from './helpers';
import { newTenant, tenant, client, type Client } from '../helpers/tenants';

/** docs/contacts.md "Limits": the limits of `data`, the 1,000 fields of a project, and the statement timeout. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** Everything a write of data can change in a project. */
async function stateOf(projectId: string) {
  const rows = await query<{ contacts: string; data: unknown; events: string; fields: string; steps: string }>(
    stack,
    `select (select count(*) from contacts where project_id = ?) as contacts,
            (select jsonb_agg(data order by email) from contacts where project_id = ?) as data,
            (select count(*) from events where project_id = ?) as events,
            (select count(*) from contact_fields where project_id = ?) as fields,
            (select count(*) from automation_steps s join automations a on a.id = s.automation_id where a.project_id = ?) as steps`,
    [projectId, projectId, projectId, projectId, projectId],
  );
  return rows[0];
}

const keys = (n: number, prefix = 'k') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
const list = (n: number) => Array.from({ length: n }, (_, i) => i);
/** `depth` keys deep: { a: { a: … { a: 1 } } }. */
const deep = (depth: number): Record<string, unknown> => (depth === 1 ? { a: 1 } : { a: deep(depth - 1) });

type Response = { status: number; body: { error?: { code: string; errors?: Array<{ field: string; code: string; message: string }> } } };
/** `prepare` makes what the write needs (a contact, a workflow) before the project's state is taken. */
interface Writer {
  prepare: (c: Client) => Promise<string | undefined>;
  write: (c: Client, data: object, target: string | undefined) => Promise<Response>;
}

const email = 'limits@example.test';
const writers: Array<[string, Writer]> = [
  ['POST /v1/track', { prepare: async () => undefined, write: (c, data) => c.track({ email, event: 'limits', data }) }],
  ['POST /contacts', { prepare: async () => undefined, write: (c, data) => c.post('/contacts').send({ email, data }) }],
  [
    'PATCH /contacts/{id}',
    {
      prepare: async (c) => (await c.post('/contacts').send({ email: 'patched@example.test' }).expect(201)).body.id,
      write: (c, data, id) => c.patch(`/contacts/${id}`).send({ data }),
    },
  ],
  [
    'UPDATE_CONTACT step',
    {
      prepare: async (c) => (await c.post('/workflows').send({ name: 'Limits', eventName: 'signup' }).expect(201)).body.id,
      write: (c, data, id) => c.post(`/workflows/${id}/steps`).send({ type: 'UPDATE_CONTACT', config: { data } }),
    },
  ],
];

const over: Array<[string, object, string, string]> = [
  ['101 keys', keys(101), 'too_many_keys', 'at most 100 keys'],
  ['101 keys counting nested ones', { a: keys(50), b: keys(49) }, 'too_many_keys', 'at most 100 keys'],
  ['a key of 101 characters', { ['k'.repeat(101)]: 1 }, 'key_too_long', 'at most 100 characters'],
  ['a nested key of 101 characters', { profile: { ['k'.repeat(101)]: 1 } }, 'key_too_long', 'at most 100 characters'],
  ['a path 6 keys deep', deep(6), 'too_deep', 'at most 5 keys deep'],
  ['a path 6 keys deep under a request-only value', { x: { value: deep(5), persistent: false } }, 'too_deep', 'at most 5 keys deep'],
  ['an array of 1,001 elements', { list: list(1001) }, 'array_too_long', 'at most 1,000 elements'],
  ['a nested array of 1,001 elements', { profile: { tags: [list(3), list(1001)] } }, 'array_too_long', 'at most 1,000 elements'],
];

const atLimits: Array<[string, object]> = [
  ['100 keys', keys(100)],
  ['100 keys counting nested ones', { a: keys(50), b: keys(48) }],
  ['a key of 100 characters', { ['k'.repeat(100)]: 1 }],
  ['a path 5 keys deep', deep(5)],
  ['arrays of 1,000 elements', { list: list(1000), nested: [list(1000), list(1000)] }],
  [
    'a path of 5 keys of 100 characters',
    { ['a'.repeat(100)]: { ['b'.repeat(100)]: { ['c'.repeat(100)]: { ['d'.repeat(100)]: { ['e'.repeat(100)]: 1 } } } } },
  ],
];

describe.each(writers)('%s', (name, writer) => {
  it.each(over)('refuses %s with 422 VALIDATION_ERROR naming the limit, changing nothing', async (_what, data, code, message) => {
    const t = await tenant(stack);
    const target = await writer.prepare(t.c);
    const before = await stateOf(t.project.id);
    const res = await writer.write(t.c, data, target);
    expect([res.status, res.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(res.body.error?.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ code, message: expect.stringContaining(message) })]),
    );
    expect(await stateOf(t.project.id)).toEqual(before);
  });

  it.each(atLimits)('accepts %s', async (_what, data) => {
    const t = await tenant(stack);
    const res = await writer.write(t.c, data, await writer.prepare(t.c));
    expect(res.status).toBeLessThan(300);
  });

  if (name !== 'UPDATE_CONTACT step') {
    it('lists the longest path the limits allow as a field', async () => {
      const t = await tenant(stack);
      const key = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(100)).join('.');
      await writer.write(t.c, atLimits[atLimits.length - 1]![1], await writer.prepare(t.c));
      const fields = (await t.c.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; type: string }>;
      expect(fields.filter((f) => f.field.startsWith('data.'))).toEqual([
        expect.objectContaining({ field: `data.${key}`, type: 'number' }),
      ]);
      expect((await t.c.get(`/contacts/fields/data.${key}/values`).expect(200)).body.values).toEqual([{ value: 1, count: 1 }]);
    });
  }
});

describe('the 1,000 custom fields of a project', () => {
  it('refuses the 1,001st field with 422 on every writer, changing nothing, and keeps writing the 1,000', async () => {
    const t = await tenant(stack);
    for (let i = 0; i < 10; i++) await t.c.track({ email: `seed${i}@example.test`, event: 'seed', data: keys(100, `f${i}_`) }).expect(200);
    expect((await stateOf(t.project.id))?.fields).toBe('1000');

    for (const [, writer] of writers.slice(0, 3)) {
      const target = await writer.prepare(t.c);
      const before = await stateOf(t.project.id);
      const res = await writer.write(t.c, { one_too_many: 'x' }, target);
      expect([res.status, res.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
      expect(res.body.error?.errors).toEqual([
        expect.objectContaining({ field: 'data', code: 'too_many_fields', message: expect.stringContaining('1000') }),
      ]);
      expect(await stateOf(t.project.id)).toEqual(before);
    }

    // Known fields still take values, also from a new contact.
    await t.c.track({ email: 'late@example.test', event: 'seed', data: { f0_1: 7 } }).expect(200);
    const fields = (await t.c.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; coverage: number }>;
    expect(fields).toHaveLength(1004);
    expect(fields.find((f) => f.field === 'data.f0_1')?.coverage).toBeCloseTo(2 / 12);
  });

  it('admits exactly one of concurrent writers adding the last free field', async () => {
    const t = await tenant(stack);
    await query(
      stack,
      `insert into contact_fields (project_id, key, type, created_at) select ?, 'f' || k, 'string', now() from generate_series(1, 999) k`,
      [t.project.id],
    );
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        Promise.all([
          t.c.post('/contacts').send({ email: `racer${i}@example.test`, data: { [`last${i}`]: i } }),
          t.c.track({ email: `tracker${i}@example.test`, event: 'x', data: { [`other${i}`]: i } }),
        ]),
      ),
    );
    const statuses = results
      .flat()
      .map((r) => r.status)
      .sort((a, b) => a - b);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    expect(statuses.filter((s) => s < 300)).toHaveLength(1);
    expect((await stateOf(t.project.id))?.fields).toBe('1000');
  });

  it('lets a field freed by DELETE /contacts/fields be replaced', async () => {
    const t = await tenant(stack);
    for (let i = 0; i < 10; i++) await t.c.track({ email: `seed${i}@example.test`, event: 'seed', data: keys(100, `f${i}_`) }).expect(200);
    expect((await t.c.track({ email, event: 'x', data: { fresh: 1 } })).status).toBe(422);
    await t.c.delete('/contacts/fields/data.f3_3').expect(200);
    await t.c.track({ email, event: 'x', data: { fresh: 1 } }).expect(200);
  });
});

describe('coverage kept by the field catalog', () => {
  it('stays exact through creates, patches, unsets, nested values, deletions of contacts and of fields', async () => {
    const t = await tenant(stack);
    const coverage = async () =>
      Object.fromEntries(
        ((await t.c.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; coverage: number; isCustom: boolean }>)
          .filter((f) => f.isCustom)
          .map((f) => [f.field, f.coverage]),
      );
    await t.c.track({ email: 'a@example.test', event: 'x', data: { plan: 'pro', profile: { tier: 'gold' } } }).expect(200);
    await t.c.track({ email: 'b@example.test', event: 'x', data: { plan: 'free' } }).expect(200);
    const c = (
      await t.c
        .post('/contacts')
        .send({ email: 'c@example.test', data: { profile: { tier: 'silver', size: 3 } } })
        .expect(201)
    ).body;
    const d = (await t.c.post('/contacts').send({ email: 'd@example.test' }).expect(201)).body;
    expect(await coverage()).toEqual({ 'data.plan': 0.5, 'data.profile.size': 0.25, 'data.profile.tier': 0.5 });

    await t.c
      .patch(`/contacts/${c.id}`)
      .send({ data: { plan: 'pro', profile: { tier: 'bronze' } } })
      .expect(200); // size goes
    await t.c.track({ email: 'b@example.test', event: 'x', data: { plan: null } }).expect(200);
    await t.c
      .patch(`/contacts/${d.id}`)
      .send({ data: { plan: 'pro' } })
      .expect(200);
    expect(await coverage()).toEqual({ 'data.plan': 0.75, 'data.profile.size': 0, 'data.profile.tier': 0.5 });

    await t.c.delete(`/contacts/${c.id}`).expect(204);
    expect(await coverage()).toEqual({ 'data.plan': 2 / 3, 'data.profile.size': 0, 'data.profile.tier': 1 / 3 });
    await t.c.delete('/contacts/fields/data.profile').expect(200);
    expect(await coverage()).toEqual({ 'data.plan': 2 / 3 });
  });
});

describe('DELETE /contacts/fields/{field} in a large project', () => {
  it('removes the field from every contact, range by range, including contacts created in the same instant', async () => {
    const t = await tenant(stack);
    // 12,001 contacts sharing one created_at: more than two ranges, told apart by id alone.
    await query(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'bulk' || i || '@example.test', true, jsonb_build_object('plan', 'p' || (i % 3), 'keep', i)
       from generate_series(1, 12001) i`,
      [t.project.id],
    );
    await query(
      stack,
      `insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now()), (?, 'keep', 'number', now())`,
      [t.project.id, t.project.id],
    );
    expect((await t.c.delete('/contacts/fields/data.plan').expect(200)).body).toEqual({ field: 'data.plan', deletedFrom: 12001 });
    const [left] = await query<{ with_plan: string; with_keep: string }>(
      stack,
      `select count(*) filter (where data #> '{plan}' is not null) as with_plan, count(*) filter (where data #> '{keep}' is not null) as with_keep from contacts where project_id = ?`,
      [t.project.id],
    );
    expect(left).toEqual({ with_plan: '0', with_keep: '12001' });
    const fields = (await t.c.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; coverage: number }>;
    expect(fields.filter((f) => f.field.startsWith('data.'))).toEqual([
      { field: 'data.keep', type: 'number', isCustom: true, coverage: 1 },
    ]);
  });
});

describe('GET /contacts/fields/{field}/values in a large project', () => {
  it('estimates counts from the newest 20,000 contacts, scaled to the project, most frequent first', async () => {
    const t = await tenant(stack);
    await query(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'many' || i || '@example.test', true, jsonb_build_object('plan', case when i % 3 = 0 then 'team' else 'free' end)
       from generate_series(1, 30000) i`,
      [t.project.id],
    );
    await query(stack, `insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now())`, [
      t.project.id,
    ]);
    const { values } = (await t.c.get('/contacts/fields/data.plan/values').expect(200)).body as {
      values: Array<{ value: string; count: number }>;
    };
    expect(values.map((v) => v.value)).toEqual(['free', 'team']);
    // 20,000 of the 30,000 contacts, counted and scaled by 1.5: within a few percent of the exact 20,000 and 10,000.
    expect(Math.abs(values[0]!.count - 20_000)).toBeLessThan(1_000);
    expect(Math.abs(values[1]!.count - 10_000)).toBeLessThan(1_000);
  });
});

describe('STATEMENT_TIMEOUT_MS', () => {
  let slow: TestStack;
  beforeAll(async () => {
    slow = await startStack({ env: { STATEMENT_TIMEOUT_MS: '300' } });
  });
  afterAll(() => slow?.close());

  it('cancels a statement that runs longer with 503 SERVICE_UNAVAILABLE, changing nothing; the connections stay usable', async () => {
    const { project } = await newTenant(slow);
    const c = client(slow, project);
    const contact = (
      await c
        .post('/contacts')
        .send({ email, data: { plan: 'free' } })
        .expect(201)
    ).body;

    // A transaction holding the contact's row makes the PATCH's statement wait on the lock, past the timeout.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = slow.deps.orm.em.fork().transactional(async (tx) => {
      await tx.execute('select 1 from contacts where id = ? for update', [contact.id]);
      locked();
      await released;
    });
    await isLocked;
    const res = await c.patch(`/contacts/${contact.id}`).send({ data: { plan: 'pro' } });
    release();
    await holder;
    expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(res.body.error.message).toContain('STATEMENT_TIMEOUT_MS');

    // Every connection of the pool (5) serves again, and the refused change did not happen.
    const reads = await Promise.all(Array.from({ length: 10 }, () => c.get(`/contacts/${contact.id}`)));
    expect(reads.map((r) => [r.status, r.body.data])).toEqual(Array.from({ length: 10 }, () => [200, { plan: 'free' }]));
    await c
      .patch(`/contacts/${contact.id}`)
      .send({ data: { plan: 'pro' } })
      .expect(200);
  });
});
