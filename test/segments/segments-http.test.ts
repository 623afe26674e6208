import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { addContact, allOf, createSegment, filter, proPlan, segmentEvents, snapshot } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true, env: { SEGMENT_COMPUTE_WAIT_SECONDS: '1' } });
});
afterAll(() => stack?.close());

async function withPlans(t: Tenant) {
  await addContact(t, 'ann@example.test', { plan: 'pro' });
  await addContact(t, 'bob@example.test', { plan: 'free' });
  await addContact(t, 'cat@example.test', { plan: 'pro' });
}

describe('POST /segments', () => {
  it('creates a DYNAMIC segment with its member count and returns it with 201', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const res = await t.c.post('/segments').send({ name: 'Pro users', description: 'Paying', condition: proPlan });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Pro users',
      description: 'Paying',
      type: 'DYNAMIC',
      condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] },
      trackMembership: false,
      memberCount: 2,
      projectId: t.project.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await t.c.get(`/segments/${res.body.id}`).expect(200)).body).toEqual(res.body);
  });

  it('creates a STATIC segment, ignoring a condition', async () => {
    const t = await tenant(stack);
    const res = await t.c.post('/segments').send({ name: 'Hand-picked', type: 'STATIC', condition: proPlan }).expect(201);
    expect(res.body).toMatchObject({ type: 'STATIC', condition: null, memberCount: 0, description: null });
  });

  it('answers a DYNAMIC segment without an object condition with a plain 400 { error }, creating nothing', async () => {
    const t = await tenant(stack);
    const before = await snapshot(stack, t.project.id);
    for (const body of [
      { name: 'x' },
      { name: 'x', condition: 'plan=pro' },
      { name: 'x', condition: null },
      { name: 'x', condition: [] },
    ]) {
      const res = await t.c.post('/segments').send(body);
      expect([res.status, Object.keys(res.body)]).toEqual([400, ['error']]);
      expect(res.body.error).toMatch(/condition/);
    }
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });

  it('rejects schema failures with 422 naming the field, creating nothing', async () => {
    const t = await tenant(stack);
    const cases: Array<[object, string]> = [
      [{ condition: proPlan }, 'name'],
      [{ name: '', condition: proPlan }, 'name'],
      [{ name: 'x'.repeat(101), condition: proPlan }, 'name'],
      [{ name: 'ok', description: 'x'.repeat(501), condition: proPlan }, 'description'],
      [{ name: 'ok', type: 'SMART', condition: proPlan }, 'type'],
      [{ name: 'ok', condition: proPlan, trackMembership: 'yes' }, 'trackMembership'],
    ];
    for (const [body, field] of cases) {
      const res = await t.c.post('/segments').send(body);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await t.c.get('/segments').expect(200)).body).toEqual([]);
  });

  it('accepts a name of exactly 100 and a description of exactly 500 characters', async () => {
    const t = await tenant(stack);
    await t.c
      .post('/segments')
      .send({ name: 'n'.repeat(100), description: 'd'.repeat(500), type: 'STATIC' })
      .expect(201);
  });

  it('rejects a bad filter tree with 400 naming the field, operator, unit or value, creating nothing', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const before = await snapshot(stack, t.project.id);
    const cases: Array<[object, RegExp, string]> = [
      [allOf(filter('phone', 'equals', 1)), /Unknown field "phone"/, 'condition.groups.0.filters.0.field'],
      [allOf(filter('data.', 'equals', 1)), /Unknown field "data\."/, 'condition.groups.0.filters.0.field'],
      [allOf(filter('email.nope', 'triggered')), /Unknown field "email\.nope"/, 'condition.groups.0.filters.0.field'],
      [allOf(filter('email.forwarded', 'triggered')), /Unknown field "email\.forwarded"/, 'condition.groups.0.filters.0.field'],
      [
        allOf(filter('data.nope', 'greaterThan', 'x')),
        /does not apply to data\.nope \(compared as string/,
        'condition.groups.0.filters.0.operator',
      ],
      [allOf(filter('data.nope', 'within', 3)), /needs a unit/, 'condition.groups.0.filters.0.unit'],
      [allOf(filter('data.plan', 'resembles', 'pro')), /Unknown operator "resembles"/, 'condition.groups.0.filters.0.operator'],
      [allOf(filter('createdAt', 'within', 3)), /needs a unit/, 'condition.groups.0.filters.0.unit'],
      [allOf(filter('createdAt', 'within', 3, 'weeks')), /Unknown unit "weeks"/, 'condition.groups.0.filters.0.unit'],
      [allOf(filter('data.plan', 'equals')), /needs a value/, 'condition.groups.0.filters.0.value'],
      [allOf(filter('event.purchase', 'triggeredWithin', undefined, 'days')), /needs a value/, 'condition.groups.0.filters.0.value'],
      [allOf(filter('createdAt', 'within', -1, 'days')), /positive number/, 'condition.groups.0.filters.0.value'],
      [allOf(filter('data.plan', 'greaterThan', 'pro')), /does not apply to data\.plan/, 'condition.groups.0.filters.0.operator'],
      [allOf(filter('event.purchase', 'equals', 'x')), /does not apply to event\.purchase/, 'condition.groups.0.filters.0.operator'],
      [allOf(filter(`segment.${randomUUID()}`, 'memberOfSegment')), /Unknown segment/, 'condition.groups.0.filters.0.field'],
      [allOf(filter('subscribed', 'equals', 'maybe')), /true or false/, 'condition.groups.0.filters.0.value'],
      [{ logic: 'XOR', groups: [{ filters: [filter('email', 'exists')] }] }, /Unknown logic "XOR"/, 'condition.logic'],
      [{ logic: 'AND', groups: [] }, /at least one group/, 'condition.groups'],
      [{ logic: 'AND', groups: [{ filters: [] }] }, /at least one filter/, 'condition.groups.0'],
    ];
    for (const [condition, message, field] of cases) {
      const res = await t.c.post('/segments').send({ name: 'bad', condition });
      expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.errors).toEqual([{ field, message: expect.stringMatching(message), code: 'invalid_filter' }]);
    }
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });
});

describe('a condition on data no contact has yet (docs/filters.md)', () => {
  const emails = async (t: Tenant, id: string) =>
    (await t.c.get(`/segments/${id}/contacts`).expect(200)).body.data.map((c: { email: string }) => c.email).sort();

  it('is created with no members, and matches once contacts with the data arrive', async () => {
    const t = await tenant(stack);
    await addContact(t, 'early@example.test', { other: 1 });
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    expect(s.memberCount).toBe(0);
    expect(await emails(t, s.id)).toEqual([]);

    await addContact(t, 'ann@example.test', { plan: 'pro' });
    await t.c.track({ event: 'signup', email: 'bob@example.test', data: { plan: 'pro' } }).expect(200);
    await addContact(t, 'cat@example.test', { plan: 'free' });
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 2 });
    expect(await emails(t, s.id)).toEqual(['ann@example.test', 'bob@example.test']);
  });

  it('compares by the type inferred later: a number filter on a path first stored as text', async () => {
    const t = await tenant(stack);
    const s = await createSegment(t, { name: 'Ten seats', condition: allOf(filter('data.seats', 'equals', 10)) });
    await addContact(t, 'ann@example.test', { seats: '10' });
    await addContact(t, 'bob@example.test', { seats: 10 });
    // The first value typed `seats` as a string: "10" equals the filter's 10 as text; the JSON number does not read as text.
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 1 });
    expect(await emails(t, s.id)).toEqual(['ann@example.test']);
  });

  it('is accepted by PATCH, which recounts it, and matches once the data arrives', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    const res = await t.c
      .patch(`/segments/${s.id}`)
      .send({ condition: allOf(filter('data.tier', 'equals', 'gold')) })
      .expect(200);
    expect(res.body).toMatchObject({ memberCount: 0 });
    expect(res.body.condition.groups[0].filters[0]).toEqual({ field: 'data.tier', operator: 'equals', value: 'gold' });
    await addContact(t, 'bob@example.test', { tier: 'gold' });
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 1 });
    expect(await emails(t, s.id)).toEqual(['bob@example.test']);
  });
});

describe('GET /segments and GET /segments/{id}', () => {
  it('lists every segment of the project as a bare array, newest first', async () => {
    const t = await tenant(stack);
    const a = await createSegment(t, { name: 'A', type: 'STATIC' });
    const b = await createSegment(t, { name: 'B', type: 'STATIC' });
    const c = await createSegment(t, { name: 'C', type: 'STATIC' });
    const res = await t.c.get('/segments').expect(200);
    expect(res.body.map((s: { id: string }) => s.id)).toEqual([c.id, b.id, a.id]);
  });

  it('answers an unknown or malformed id with 404', async () => {
    const t = await tenant(stack);
    const unknown = await t.c.get(`/segments/${randomUUID()}`);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'SEGMENT_NOT_FOUND']);
    expect((await t.c.get('/segments/not-a-uuid').expect(404)).body.error.code).toBe('SEGMENT_NOT_FOUND');
  });

  it('serves the cached count: a new matching contact shows after a refresh, not before', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    await addContact(t, 'dan@example.test', { plan: 'pro' });
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(2);
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 3 });
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(3);
  });
});

describe('PATCH /segments/{id}', () => {
  it('updates name, description and condition, recounting members', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    const res = await t.c
      .patch(`/segments/${s.id}`)
      .send({ name: 'Free', description: 'Not paying', condition: allOf(filter('data.plan', 'equals', 'free')) })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'Free', description: 'Not paying', memberCount: 1 });
    expect(res.body.condition.groups[0].filters[0].value).toBe('free');
    const cleared = await t.c.patch(`/segments/${s.id}`).send({ description: null }).expect(200);
    expect(cleared.body).toMatchObject({ name: 'Free', description: null, memberCount: 1 });
  });

  it('ignores a condition sent for a STATIC segment', async () => {
    const t = await tenant(stack);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    const res = await t.c.patch(`/segments/${s.id}`).send({ condition: proPlan, name: 'S2' }).expect(200);
    expect(res.body).toMatchObject({ name: 'S2', condition: null, type: 'STATIC' });
  });

  it('rejects bad input without changing the segment', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    const before = await snapshot(stack, t.project.id);
    const plain = await t.c.patch(`/segments/${s.id}`).send({ condition: 'x' });
    expect([plain.status, plain.body]).toEqual([400, { error: expect.stringMatching(/condition/) }]);
    const badTree = await t.c.patch(`/segments/${s.id}`).send({ name: 'Renamed', condition: allOf(filter('data.plan', 'like', 'p')) });
    expect([badTree.status, badTree.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(badTree.body.error.message).toMatch(/Unknown operator "like"/);
    expect((await t.c.patch(`/segments/${s.id}`).send({ name: 'x'.repeat(101) })).status).toBe(422);
    expect((await t.c.patch(`/segments/${s.id}`).send({ trackMembership: 1 })).status).toBe(422);
    expect((await t.c.patch(`/segments/${randomUUID()}`).send({ name: 'x' })).status).toBe(404);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });

  it('rejects a segment that names itself, or closes a cycle through another segment', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const a = await createSegment(t, { name: 'A', condition: proPlan });
    const b = await createSegment(t, { name: 'B', condition: allOf(filter(`segment.${a.id}`, 'memberOfSegment')) });
    const before = await snapshot(stack, t.project.id);

    const self = await t.c.patch(`/segments/${a.id}`).send({ condition: allOf(filter(`segment.${a.id}`, 'notMemberOfSegment')) });
    expect([self.status, self.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(self.body.error.message).toMatch(/cycle/);

    const closing = await t.c.patch(`/segments/${a.id}`).send({ condition: allOf(filter(`segment.${b.id}`, 'memberOfSegment')) });
    expect([closing.status, closing.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(closing.body.error.message).toContain(`${a.id} → ${b.id} → ${a.id}`);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });
});

describe('DELETE /segments/{id}', () => {
  it('deletes the segment and its memberships with 204', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    const res = await t.c.delete(`/segments/${s.id}`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await t.c.get(`/segments/${s.id}`)).status).toBe(404);
    expect(await sql(stack, 'select * from segment_members where segment_id = ?', [s.id])).toEqual([]);
    expect((await t.c.delete(`/segments/${s.id}`)).status).toBe(404);
  });

  it('leaves segments that named it matching as if it were empty', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const vip = await createSegment(t, { name: 'VIP', type: 'STATIC' });
    await t.c
      .post(`/segments/${vip.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    const outside = await createSegment(t, { name: 'Not VIP', condition: allOf(filter(`segment.${vip.id}`, 'notMemberOfSegment')) });
    expect(outside.memberCount).toBe(2);
    await t.c.delete(`/segments/${vip.id}`).expect(204);
    expect((await t.c.get(`/segments/${outside.id}/contacts`).expect(200)).body.total).toBe(3);
  });
});

describe('GET /segments/{id}/contacts', () => {
  it('pages a DYNAMIC segment live, newest first', async () => {
    const t = await tenant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await addContact(t, `p${i}@example.test`, { plan: 'pro' }));
    await addContact(t, 'free@example.test', { plan: 'free' });
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    const first = await t.c.get(`/segments/${s.id}/contacts?page=1&pageSize=2`).expect(200);
    expect(first.body).toEqual({ data: expect.any(Array), total: 5, page: 1, pageSize: 2 });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data[0]).toEqual({
      id: ids[4],
      email: 'p4@example.test',
      subscribed: true,
      data: { plan: 'pro' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const last = await t.c.get(`/segments/${s.id}/contacts?page=3&pageSize=2`).expect(200);
    expect(last.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);

    const late = await addContact(t, 'late@example.test', { plan: 'pro' });
    const live = await t.c.get(`/segments/${s.id}/contacts`).expect(200);
    expect([live.body.total, live.body.pageSize, live.body.data[0].id]).toEqual([6, 20, late]);
  });

  it('pages a STATIC segment by its members, most recently added first', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['bob@example.test'] })
      .expect(200);
    await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    const res = await t.c.get(`/segments/${s.id}/contacts`).expect(200);
    expect(res.body.total).toBe(2);
    expect(res.body.data.map((c: { email: string }) => c.email)).toEqual(['ann@example.test', 'bob@example.test']);
  });

  it('clamps pageSize to 100 and rejects a bad page with 400', async () => {
    const t = await tenant(stack);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    expect((await t.c.get(`/segments/${s.id}/contacts?pageSize=500`).expect(200)).body.pageSize).toBe(100);
    for (const q of ['page=0', 'page=abc', 'pageSize=0', 'pageSize=-3']) {
      const res = await t.c.get(`/segments/${s.id}/contacts?${q}`);
      expect([q, res.status, res.body.error?.code]).toEqual([q, 400, 'BAD_REQUEST']);
    }
  });
});

describe('POST and DELETE /segments/{id}/members', () => {
  it('adds contacts by email, reports what changed and keeps memberCount, without events', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    const eventsBefore = (await snapshot(stack, t.project.id)).events;
    const res = await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ANN@example.test', 'bob@example.test', 'ghost@example.test'] });
    expect([res.status, res.body]).toEqual([200, { added: 2, created: 0, notFound: ['ghost@example.test'] }]);
    const again = await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    expect(again.body).toEqual({ added: 0, created: 0, notFound: [] });
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(2);
    expect((await snapshot(stack, t.project.id)).events).toEqual(eventsBefore);
    expect(await segmentEvents(stack, t.project.id)).toEqual([]);
  });

  it('creates missing contacts with createMissing, in the given subscription state', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    const res = await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test', 'New@Example.test'], createMissing: true, subscribed: false })
      .expect(200);
    expect(res.body).toEqual({ added: 2, created: 1, notFound: [] });
    const [created] = await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where project_id = ? and email = ?', [
      t.project.id,
      'new@example.test',
    ]);
    const [ann] = await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where project_id = ? and email = ?', [
      t.project.id,
      'ann@example.test',
    ]);
    expect([created?.subscribed, ann?.subscribed]).toEqual([false, true]);
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(2);
  });

  it('removes members by email, without events', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test', 'bob@example.test'] })
      .expect(200);
    const res = await t.c
      .delete(`/segments/${s.id}/members`)
      .send({ emails: ['Ann@example.test', 'cat@example.test', 'ghost@example.test'] });
    expect([res.status, res.body]).toEqual([200, { removed: 1 }]);
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(1);
    expect(await segmentEvents(stack, t.project.id)).toEqual([]);
  });

  it('refuses member changes on a DYNAMIC segment and bad bodies, changing nothing', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const dynamic = await createSegment(t, { name: 'D', condition: proPlan });
    const staticSegment = await createSegment(t, { name: 'S', type: 'STATIC' });
    const before = await snapshot(stack, t.project.id);
    for (const method of ['post', 'delete'] as const) {
      const res = await t.c[method](`/segments/${dynamic.id}/members`).send({ emails: ['ann@example.test'], createMissing: true });
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      for (const body of [{}, { emails: [] }, { emails: ['not-an-email'] }, { emails: 'ann@example.test' }]) {
        expect((await t.c[method](`/segments/${staticSegment.id}/members`).send(body)).status).toBe(422);
      }
      expect((await t.c[method](`/segments/${randomUUID()}/members`).send({ emails: ['ann@example.test'] })).status).toBe(404);
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => `x${i}@example.test`);
    expect((await t.c.post(`/segments/${staticSegment.id}/members`).send({ emails: tooMany, createMissing: true })).status).toBe(422);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });
});

describe('POST /segments/{id}/refresh', () => {
  it('recounts without events or membership writes', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'Pro', condition: proPlan, trackMembership: true });
    await addContact(t, 'dan@example.test', { plan: 'pro' });
    const eventsBefore = (await snapshot(stack, t.project.id)).events;
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 3 });
    expect(await sql(stack, 'select * from segment_members where segment_id = ?', [s.id])).toEqual([]);
    expect((await snapshot(stack, t.project.id)).events).toEqual(eventsBefore);
  });

  it('counts STATIC members', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const s = await createSegment(t, { name: 'S', type: 'STATIC' });
    await t.c
      .post(`/segments/${s.id}/members`)
      .send({ emails: ['ann@example.test', 'bob@example.test'] })
      .expect(200);
    await sql(stack, 'update segments set member_count = 0 where id = ?', [s.id]);
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 2 });
  });
});

describe('POST /segments/{id}/compute (without a worker)', () => {
  it('refuses an untracked DYNAMIC segment with 400 and recounts a STATIC one', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const dynamic = await createSegment(t, { name: 'D', condition: proPlan });
    const before = await snapshot(stack, t.project.id);
    const res = await t.c.post(`/segments/${dynamic.id}/compute`);
    expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(res.body.error.message).toMatch(/trackMembership/);
    expect((await t.c.post(`/segments/${randomUUID()}/compute`)).status).toBe(404);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
    const staticSegment = await createSegment(t, { name: 'S', type: 'STATIC' });
    await t.c
      .post(`/segments/${staticSegment.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    expect((await t.c.post(`/segments/${staticSegment.id}/compute`).expect(200)).body).toEqual({ entered: 0, exited: 0, memberCount: 1 });
  });

  it('answers 202 with the running computation when it outlasts SEGMENT_COMPUTE_WAIT_SECONDS, and a second request joins it', async () => {
    const t = await tenant(stack);
    await withPlans(t);
    const tracked = await createSegment(t, { name: 'T', condition: proPlan, trackMembership: true });
    const workflowId = `segment-compute:${tracked.id}`;
    const started = Date.now();
    // No worker runs this file's task queue: without the wait's bound the request would never be answered.
    const handle = stack.deps.temporal.client.workflow.getHandle(workflowId);
    expect((await t.c.post(`/segments/${tracked.id}/compute`).timeout(15_000).expect(202)).body).toEqual({ running: workflowId });
    const first = await handle.describe();
    expect((await t.c.post(`/segments/${tracked.id}/compute`).timeout(15_000).expect(202)).body).toEqual({ running: workflowId });
    expect(Date.now() - started).toBeLessThan(10_000);
    const second = await handle.describe();
    expect([second.status.name, second.runId]).toEqual(['RUNNING', first.runId]);
  });
});

describe('tenant isolation', () => {
  it("answers every segment endpoint for another project's segment with 404 and changes nothing", async () => {
    const owner = await tenant(stack);
    await withPlans(owner);
    const other = await tenant(stack);
    const dynamic = await createSegment(owner, { name: 'D', condition: proPlan });
    const staticSegment = await createSegment(owner, { name: 'S', type: 'STATIC' });
    await owner.c
      .post(`/segments/${staticSegment.id}/members`)
      .send({ emails: ['ann@example.test'] })
      .expect(200);
    const before = await snapshot(stack, owner.project.id);

    const probes = (id: string) => [
      other.c.get(`/segments/${id}`),
      other.c.patch(`/segments/${id}`).send({ name: 'stolen' }),
      other.c.delete(`/segments/${id}`),
      other.c.get(`/segments/${id}/contacts`),
      other.c.post(`/segments/${id}/members`).send({ emails: ['ann@example.test'], createMissing: true }),
      other.c.delete(`/segments/${id}/members`).send({ emails: ['ann@example.test'] }),
      other.c.post(`/segments/${id}/compute`),
      other.c.post(`/segments/${id}/refresh`),
    ];
    for (const id of [dynamic.id, staticSegment.id]) {
      for (const res of await Promise.all(probes(id))) {
        expect([res.status, res.body.error.code]).toEqual([404, 'SEGMENT_NOT_FOUND']);
      }
    }
    expect((await other.c.get('/segments').expect(200)).body).toEqual([]);
    const leak = await other.c
      .post('/segments')
      .send({ name: 'x', condition: allOf(filter(`segment.${staticSegment.id}`, 'memberOfSegment')) });
    expect([leak.status, leak.body.error.message]).toEqual([400, expect.stringMatching(/Unknown segment/)]);
    expect(await snapshot(stack, owner.project.id)).toEqual(before);
  });

  it('answers a missing, unknown or public key with 401 on every segment endpoint', async () => {
    const owner = await tenant(stack);
    const s = await createSegment(owner, { name: 'S', type: 'STATIC' });
    const routes: Array<[string, string]> = [
      ['get', '/segments'],
      ['post', '/segments'],
      ['get', `/segments/${s.id}`],
      ['patch', `/segments/${s.id}`],
      ['delete', `/segments/${s.id}`],
      ['get', `/segments/${s.id}/contacts`],
      ['post', `/segments/${s.id}/members`],
      ['delete', `/segments/${s.id}/members`],
      ['post', `/segments/${s.id}/compute`],
      ['post', `/segments/${s.id}/refresh`],
    ];
    for (const [method, path] of routes) {
      for (const auth of [undefined, 'Bearer sk_unknown', `Bearer ${owner.project.public}`]) {
        const req = (stack.http() as unknown as Record<string, (p: string) => import('supertest').Test>)[method]!(path);
        const res = await (auth ? req.set('Authorization', auth) : req);
        expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 401, 'INVALID_API_KEY']);
      }
    }
    expect((await owner.c.get(`/segments/${s.id}`).expect(200)).body.name).toBe('S');
  });
});
