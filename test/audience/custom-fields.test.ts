import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { upsertContact } from '../../src/modules/contacts/write';
import { countOf, query } from './helpers';
import { tenant, type Client } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const dataOf = async (c: Client, email: string) => {
  const res = await c
    .post('/contacts/lookup')
    .send({ emails: [email] })
    .expect(200);
  return (await c.get(`/contacts/${res.body.found[0].id}`).expect(200)).body.data;
};

const typesOf = async (projectId: string) =>
  Object.fromEntries(
    (
      await query<{ key: string; type: string }>(stack, 'select key, type from contact_fields where project_id = ? order by key', [
        projectId,
      ])
    ).map((r) => [r.key, r.type]),
  );

describe('custom-field rules, through every writer of data', () => {
  const email = 'fields@example.test';

  // Each writer applies the rules the same way: the contacts endpoints, /v1/track and its dashboard alias.
  const writers: Array<[string, (c: Client, data: object) => Promise<unknown>]> = [
    [
      'POST /contacts',
      (c, data) =>
        c
          .post('/contacts')
          .send({ email, data })
          .expect((r) => expect(r.status).toBeLessThan(300)),
    ],
    ['POST /v1/track', (c, data) => c.track({ email, event: 'updated', data }).expect(200)],
    ['POST /events/track', (c, data) => c.post('/events/track').send({ email, event: 'updated', data }).expect(200)],
    [
      'PATCH /contacts/{id}',
      async (c, data) => {
        const { body } = await c.post('/contacts/lookup').send({ emails: [email] });
        const id = body.found[0]?.id ?? (await c.post('/contacts').send({ email }).expect(201)).body.id;
        await c.patch(`/contacts/${id}`).send({ data }).expect(200);
      },
    ],
  ];

  it.each(writers)(
    '%s: patches, stores primitives, deletes on null, ignores "", keeps request-only values out, filters reserved keys',
    async (_name, write) => {
      const { c } = await tenant(stack);
      await write(c, { plan: 'pro', seats: 3, trial: true, locale: 'fr', nested: { tier: 'gold' } });
      await write(c, {
        seats: 5, // rule 2: replaced
        trial: null, // rule 3: deleted
        plan: '', // rule 4: ignored
        coupon: { value: 'SAVE10', persistent: false }, // rule 5: not stored
        kept: { value: 'yes', persistent: true }, // stored, unwrapped
        id: 'x',
        plunk_id: 'x',
        plunk_email: 'x',
        email: 'evil@example.test',
        unsubscribeUrl: 'x',
        subscribeUrl: 'x',
        manageUrl: 'x', // rule 6
        subscribed: false,
        createdAt: 'x',
        updatedAt: 'x', // rule 7
      });
      expect(await dataOf(c, email)).toEqual({ plan: 'pro', seats: 5, locale: 'fr', nested: { tier: 'gold' }, kept: 'yes' });
      const contact = (await c.post('/contacts/lookup').send({ emails: [email] })).body.found[0];
      expect(contact.subscribed).toBe(true);
    },
  );

  it("infers each key's type from its first non-null value and keeps it, while storing any later value", async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email, data: { n: null, s: '' } })
      .expect(201);
    expect(await typesOf(projectId)).toEqual({});
    await c
      .post('/contacts')
      .send({
        email,
        data: {
          n: 42,
          b: false,
          day: '2024-02-29',
          stamp: '2024-02-29T10:11:12.123Z',
          stampNoMs: '2024-02-29T10:11:12Z',
          notDate: '2024/02/29',
          offset: '2024-02-29T10:11:12+02:00',
          numeric: '42',
          list: [1, 2],
          profile: { tier: 'gold', since: '2020-01-01' },
          temp: { value: 7, persistent: false },
        },
      })
      .expect(200);
    const inferred = {
      n: 'number',
      b: 'boolean',
      day: 'date',
      stamp: 'date',
      stampNoMs: 'date',
      notDate: 'string',
      offset: 'string',
      numeric: 'string',
      list: 'string',
      'profile.tier': 'string',
      'profile.since': 'date',
    };
    expect(await typesOf(projectId)).toEqual(inferred);
    await c
      .post('/contacts')
      .send({ email: 'other@example.test', data: { n: 'forty-two', b: 'nope' } })
      .expect(201);
    expect(await typesOf(projectId)).toEqual(inferred);
    expect(await dataOf(c, 'other@example.test')).toEqual({ n: 'forty-two', b: 'nope' });
  });

  it('settles on one type when the first values of a key arrive concurrently with different types', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const values = [1, 'one', true, '2024-01-01', 2, 'two', false, '2024-01-02'];
    const results = await Promise.all(
      values.map((v, i) => c.track({ email: `racer${i}@example.test`, event: 'e', data: { contested: v } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await query<{ type: string }>(stack, 'select type from contact_fields where project_id = ? and key = ?', [
      projectId,
      'contested',
    ]);
    expect(rows).toHaveLength(1);
    expect(['number', 'string', 'boolean', 'date']).toContain(rows[0]!.type);
  });

  it('hands request-only values back to the caller of upsertContact, for templates', async () => {
    const {
      project: { id: projectId },
    } = await tenant(stack);
    const em = stack.deps.orm.em.fork();
    const result = await upsertContact(
      em,
      projectId,
      {
        email: 'Vars@Example.test',
        data: { first: 'Ada', code: { value: 'X1', persistent: false }, email: { value: 'x', persistent: false } },
      },
      { defaultSubscribed: false },
    );
    expect(result.isNew).toBe(true);
    expect(result.variables).toEqual({ code: 'X1' });
    expect(result.contact).toMatchObject({ email: 'vars@example.test', subscribed: false, data: { first: 'Ada' } });
    expect(result.flip).toBeNull();
  });

  it('refuses data that is not an object of JSON values with 422, storing nothing', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    for (const data of [[1, 2], 'text', 5, { ['k'.repeat(256)]: 1 }, { '': 1 }, { ok: 'nul\u0000byte' }]) {
      const res = await c.track({ email, event: 'e', data });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await countOf(stack, 'contacts', projectId)).toBe(0);
    expect(await countOf(stack, 'contact_fields', projectId)).toBe(0);
  });
});

describe('GET /contacts/fields', () => {
  it('lists the standard fields and each custom field with its type and coverage', async () => {
    const { c } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 'pro', age: 30, profile: { tier: 'gold' } } })
      .expect(201);
    await c
      .post('/contacts')
      .send({ email: 'b@example.test', data: { plan: 'free' } })
      .expect(201);
    await c.post('/contacts').send({ email: 'c@example.test' }).expect(201);
    const res = await c.get('/contacts/fields').expect(200);
    expect(res.body.fields).toEqual([
      { field: 'email', type: 'string', isCustom: false, coverage: 1 },
      { field: 'subscribed', type: 'boolean', isCustom: false, coverage: 1 },
      { field: 'createdAt', type: 'date', isCustom: false, coverage: 1 },
      { field: 'updatedAt', type: 'date', isCustom: false, coverage: 1 },
      { field: 'data.age', type: 'number', isCustom: true, coverage: 1 / 3 },
      { field: 'data.plan', type: 'string', isCustom: true, coverage: 2 / 3 },
      { field: 'data.profile.tier', type: 'string', isCustom: true, coverage: 1 / 3 },
    ]);
  });

  it('reports zero coverage for a project without contacts', async () => {
    const { c } = await tenant(stack);
    const res = await c.get('/contacts/fields').expect(200);
    expect(res.body.fields.map((f: { coverage: number }) => f.coverage)).toEqual([0, 0, 0, 0]);
  });
});

describe('POST /contacts/fields', () => {
  it('declares a field with its type, which a later value keeps, and which DELETE forgets', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 'pro' } })
      .expect(201);
    const res = await c.post('/contacts/fields').send({ field: 'data.renewsOn', type: 'date' }).expect(201);
    expect(res.body).toEqual({ field: 'data.renewsOn', type: 'date', isCustom: true, coverage: 0 });
    await c.post('/contacts/fields').send({ field: 'profile.tier', type: 'number' }).expect(201);
    expect((await c.get('/contacts/fields').expect(200)).body.fields.slice(4)).toEqual([
      { field: 'data.plan', type: 'string', isCustom: true, coverage: 1 },
      { field: 'data.profile.tier', type: 'number', isCustom: true, coverage: 0 },
      { field: 'data.renewsOn', type: 'date', isCustom: true, coverage: 0 },
    ]);
    // The declared type is the first type seen (rule 9): a later value of another type is stored, the type stays.
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { renewsOn: 'soon' } })
      .expect(200);
    expect((await typesOf(projectId)).renewsOn).toBe('date');
    expect((await c.delete('/contacts/fields/data.renewsOn').expect(200)).body).toEqual({ field: 'data.renewsOn', deletedFrom: 1 });
    await c.post('/contacts/fields').send({ field: 'renewsOn', type: 'string' }).expect(201);
  });

  it('refuses an existing field, a path under or over one, a reserved key and a path beyond the limits, changing nothing', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 'pro', profile: { tier: 'gold' } } })
      .expect(201);
    for (const field of ['data.plan', 'plan', 'plan.level', 'profile', 'data.profile.tier']) {
      const res = await c.post('/contacts/fields').send({ field, type: 'string' });
      expect([field, res.status, res.body.error.code]).toEqual([field, 409, 'CONFLICT']);
    }
    for (const field of ['email', 'data.id', 'subscribed.x']) {
      const res = await c.post('/contacts/fields').send({ field, type: 'string' });
      expect([field, res.status, res.body.error.code]).toEqual([field, 400, 'BAD_REQUEST']);
    }
    for (const [field, code] of [
      ['k'.repeat(101), 'key_too_long'],
      ['a..b', 'key_too_long'],
      ['data.', 'key_too_long'],
      ['a.b.c.d.e.f', 'too_deep'],
    ] as const) {
      const res = await c.post('/contacts/fields').send({ field, type: 'string' });
      expect(res.status).toBe(422);
      expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'field', code })]);
    }
    const bad = await c.post('/contacts/fields').send({ field: 'score', type: 'integer' });
    expect(bad.status).toBe(422);
    expect(await typesOf(projectId)).toEqual({ plan: 'string', 'profile.tier': 'string' });
  });
});

describe('GET /contacts/fields/{field}/values', () => {
  it('returns values with counts, most frequent first, typed as stored', async () => {
    const { c } = await tenant(stack);
    const plans = ['pro', 'free', 'free', 'team', 'free', 'pro'];
    for (const [i, plan] of plans.entries())
      await c
        .post('/contacts')
        .send({ email: `v${i}@example.test`, subscribed: i < 2, data: { plan, seats: i % 2, profile: { tier: 'gold' } } })
        .expect(201);
    const res = await c.get('/contacts/fields/data.plan/values').expect(200);
    expect(res.body).toEqual({
      field: 'data.plan',
      values: [
        { value: 'free', count: 3 },
        { value: 'pro', count: 2 },
        { value: 'team', count: 1 },
      ],
    });
    expect((await c.get('/contacts/fields/seats/values').expect(200)).body).toEqual({
      field: 'data.seats',
      values: [
        { value: 0, count: 3 },
        { value: 1, count: 3 },
      ],
    });
    expect((await c.get('/contacts/fields/data.profile.tier/values').expect(200)).body.values).toEqual([{ value: 'gold', count: 6 }]);
    expect((await c.get('/contacts/fields/subscribed/values').expect(200)).body.values).toEqual([
      { value: false, count: 4 },
      { value: true, count: 2 },
    ]);
  });

  it('answers 404 for a field the project never had', async () => {
    const { c } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'x@example.test', data: { plan: 'pro' } })
      .expect(201);
    for (const field of ['data.nope', 'data.', 'data.plan..x']) {
      const res = await c.get(`/contacts/fields/${encodeURIComponent(field)}/values`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('returns at most 100 values', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await query(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'm' || g || '@example.test', true, jsonb_build_object('code', g) from generate_series(1, 150) g`,
      [projectId],
    );
    await query(stack, `insert into contact_fields (project_id, key, type, created_at) values (?, 'code', 'number', now())`, [projectId]);
    expect((await c.get('/contacts/fields/data.code/values').expect(200)).body.values).toHaveLength(100);
  });
});

describe('GET /contacts/fields/{field}/usage', () => {
  it('lists the segments whose conditions reference the field; campaigns and workflows are empty until they exist', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const uses = {
      logic: 'AND',
      groups: [
        {
          filters: [{ field: 'email', operator: 'contains', value: 'x' }],
          conditions: { logic: 'OR', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] },
        },
      ],
    };
    const other = { logic: 'AND', groups: [{ filters: [{ field: 'data.seats', operator: 'greaterThan', value: 1 }] }] };
    const segment = (name: string, condition: object | null) =>
      query(
        stack,
        `insert into segments (id, created_at, updated_at, project_id, name, type, condition) values (?, now(), now(), ?, ?, 'DYNAMIC', ?::jsonb) returning id`,
        [randomUUID(), projectId, name, JSON.stringify(condition)],
      );
    const [[used]] = await Promise.all([segment('Pro users', uses), segment('Big teams', other), segment('Static', null)]);
    expect((await c.get('/contacts/fields/data.plan/usage').expect(200)).body).toEqual({
      segments: [{ id: used!.id, name: 'Pro users' }],
      campaigns: [],
      workflows: [],
    });
    expect((await c.get('/contacts/fields/plan/usage').expect(200)).body.segments).toHaveLength(1);
    expect((await c.get('/contacts/fields/email/usage').expect(200)).body.segments).toHaveLength(1);
    expect((await c.get('/contacts/fields/data.unused/usage').expect(200)).body).toEqual({ segments: [], campaigns: [], workflows: [] });
    for (const bad of ['data.', `data.${'k'.repeat(300)}`]) expect((await c.get(`/contacts/fields/${bad}/usage`)).status).toBe(404);
  });
});

describe('DELETE /contacts/fields/{field}', () => {
  it('removes the field from every contact and forgets its type, so the next value infers it afresh', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 'pro', keep: 1, profile: { tier: 'gold', since: 2020 } } })
      .expect(201);
    await c
      .post('/contacts')
      .send({ email: 'b@example.test', data: { plan: 'free' } })
      .expect(201);
    await c
      .post('/contacts')
      .send({ email: 'c@example.test', data: { keep: 2 } })
      .expect(201);
    const res = await c.delete('/contacts/fields/data.plan').expect(200);
    expect(res.body).toEqual({ field: 'data.plan', deletedFrom: 2 });
    expect(await dataOf(c, 'a@example.test')).toEqual({ keep: 1, profile: { tier: 'gold', since: 2020 } });
    expect(await dataOf(c, 'b@example.test')).toEqual({});
    expect(await typesOf(projectId)).toEqual({ keep: 'number', 'profile.since': 'number', 'profile.tier': 'string' });

    expect((await c.delete('/contacts/fields/data.profile.tier').expect(200)).body.deletedFrom).toBe(1);
    expect(await dataOf(c, 'a@example.test')).toEqual({ keep: 1, profile: { since: 2020 } });
    expect((await c.delete('/contacts/fields/data.profile').expect(200)).body.deletedFrom).toBe(1);
    expect(await typesOf(projectId)).toEqual({ keep: 'number' });

    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 3 } })
      .expect(200);
    expect((await typesOf(projectId)).plan).toBe('number');
  });

  it('refuses standard fields with 400 and unknown fields with 404, changing nothing', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await c
      .post('/contacts')
      .send({ email: 'a@example.test', data: { plan: 'pro' } })
      .expect(201);
    for (const field of ['email', 'subscribed', 'createdAt', 'updatedAt']) {
      const res = await c.delete(`/contacts/fields/${field}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect((await c.delete('/contacts/fields/data.nope')).status).toBe(404);
    expect(await dataOf(c, 'a@example.test')).toEqual({ plan: 'pro' });
    expect(await typesOf(projectId)).toEqual({ plan: 'string' });
  });
});
