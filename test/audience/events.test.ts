import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { countOf, query } from './helpers';
import { tenant, type Client } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** Events with distinct, increasing timestamps, oldest first; returns their ids in that order. */
async function seedEvents(c: Client, projectId: string, names: string[], email = 'ev@example.test'): Promise<string[]> {
  const { body } = await c.track({ email, event: 'seed' }).expect(200);
  await query(stack, 'delete from events where id = ?', [body.data.event]);
  const rows = await query<{ id: string }>(
    stack,
    `insert into events (id, created_at, project_id, contact_id, name, data)
     select gen_random_uuid(), now() - interval '1 hour' + e.n * interval '1 second', ?, ?, e.name, jsonb_build_object('n', e.n)
     from jsonb_to_recordset(?::jsonb) as e(name text, n int) order by e.n returning id`,
    [projectId, body.data.contact, JSON.stringify(names.map((name, n) => ({ name, n })))],
  );
  return rows.map((r) => r.id);
}

describe('GET /events', () => {
  it('lists events newest first with their contact, as cursor pages with total on the first page', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const ids = await seedEvents(
      c,
      projectId,
      Array.from({ length: 25 }, (_, i) => `e${i}`),
    );
    const first = await c.get('/events').expect(200);
    expect(first.body).toMatchObject({ total: 25, hasMore: true });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0]).toEqual({
      id: ids[24],
      name: 'e24',
      contact: { id: expect.any(String), email: 'ev@example.test' },
      data: { n: 24 },
      createdAt: expect.any(String),
    });
    const second = await c.get(`/events?cursor=${first.body.cursor}`).expect(200);
    expect(second.body).toMatchObject({ total: 0, hasMore: false, cursor: null });
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
  });

  it('filters by name and clamps the limit; refuses bad limits and cursors with 400', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seedEvents(c, projectId, ['a', 'b', 'a', 'c', 'a']);
    const named = await c.get('/events?name=a').expect(200);
    expect(named.body.total).toBe(3);
    expect(named.body.data.every((e: { name: string }) => e.name === 'a')).toBe(true);
    expect((await c.get('/events?limit=1000').expect(200)).body.data).toHaveLength(5);
    for (const qs of ['limit=0', 'limit=x', 'cursor=nope']) expect((await c.get(`/events?${qs}`)).status).toBe(400);
  });
});

describe('GET /events/contact/{contactId}', () => {
  it("pages one contact's events, and 404s an unknown or malformed contact", async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seedEvents(c, projectId, ['x', 'y'], 'one@example.test');
    await c.track({ email: 'two@example.test', event: 'z' }).expect(200);
    const one = (await c.post('/contacts/lookup').send({ emails: ['one@example.test'] })).body.found[0].id;
    const res = await c.get(`/events/contact/${one}?limit=1`).expect(200);
    expect(res.body).toMatchObject({ total: 2, hasMore: true, data: [{ name: 'y' }] });
    expect(
      (await c.get(`/events/contact/${one}?cursor=${res.body.cursor}`).expect(200)).body.data.map((e: { name: string }) => e.name),
    ).toEqual(['x']);
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const missing = await c.get(`/events/contact/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /events/names and /events/stats', () => {
  it('names every distinct event with its count, service events included', async () => {
    const { c } = await tenant(stack);
    await c.track({ email: 'n@example.test', event: 'b-click' }).expect(200);
    await c.track({ email: 'n@example.test', event: 'a-view' }).expect(200);
    await c.track({ email: 'n@example.test', event: 'b-click', subscribed: false }).expect(200);
    const res = await c.get('/events/names').expect(200);
    expect(res.body.names.map(({ name, count }: { name: string; count: number }) => ({ name, count }))).toEqual([
      { name: 'a-view', count: 1 },
      { name: 'b-click', count: 2 },
      { name: 'contact.unsubscribed', count: 1 },
    ]);
    expect(new Date(res.body.names[0].lastTrackedAt).toISOString()).toBe(res.body.names[0].lastTrackedAt);
  });

  it('counts events over time windows, distinct names and contacts, and the top names', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seedEvents(c, projectId, ['old', 'hot', 'hot', 'hot', 'warm', 'warm']);
    await query(stack, `update events set created_at = now() - interval '3 days' where project_id = ? and name = 'old'`, [projectId]);
    await c.track({ email: 'other@example.test', event: 'warm' }).expect(200);
    const res = await c.get('/events/stats').expect(200);
    expect(res.body).toEqual({
      total: 7,
      last24Hours: 6,
      last7Days: 7,
      last30Days: 7,
      uniqueNames: 3,
      uniqueContacts: 2,
      topEvents: [
        { name: 'hot', count: 3, lastTrackedAt: expect.any(String) },
        { name: 'warm', count: 3, lastTrackedAt: expect.any(String) },
        { name: 'old', count: 1, lastTrackedAt: expect.any(String) },
      ],
    });
    const empty = await (await tenant(stack)).c.get('/events/stats').expect(200);
    expect(empty.body).toMatchObject({ total: 0, uniqueNames: 0, topEvents: [] });
  });
});

describe('GET /events/{eventName}/usage', () => {
  it('lists the segments whose conditions reference event.<name>', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const condition = {
      logic: 'AND',
      groups: [{ filters: [{ field: 'event.purchase', operator: 'triggeredWithin', value: 7, unit: 'days' }] }],
    };
    const [row] = await query<{ id: string }>(
      stack,
      `insert into segments (id, created_at, updated_at, project_id, name, type, condition) values (?, now(), now(), ?, 'Buyers', 'DYNAMIC', ?::jsonb) returning id`,
      [randomUUID(), projectId, JSON.stringify(condition)],
    );
    expect((await c.get('/events/purchase/usage').expect(200)).body).toEqual({
      segments: [{ id: row!.id, name: 'Buyers' }],
      campaigns: [],
      workflows: [],
    });
    expect((await c.get('/events/refund/usage').expect(200)).body).toEqual({ segments: [], campaigns: [], workflows: [] });
    expect((await c.get(`/events/${'e'.repeat(256)}/usage`)).status).toBe(404);
    // `contact` as an event name is not mistaken for the per-contact listing.
    expect((await c.get('/events/contact/usage').expect(200)).body.segments).toEqual([]);
  });
});

describe('DELETE /events/{eventName}', () => {
  it('deletes every event with the name and nothing else', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seedEvents(c, projectId, ['gone', 'kept', 'gone']);
    expect((await c.delete('/events/gone').expect(200)).body).toEqual({ name: 'gone', deleted: 2 });
    expect((await c.get('/events').expect(200)).body.data.map((e: { name: string }) => e.name)).toEqual(['kept']);
    expect((await c.delete('/events/gone')).status).toBe(404);
  });

  it('refuses service event names with 400, leaving them in place', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const { body } = await c.post('/contacts').send({ email: 's@example.test' }).expect(201);
    await c.patch(`/contacts/${body.id}`).send({ subscribed: false }).expect(200);
    for (const name of ['contact.unsubscribed', 'email.sent', 'segment.vip.entry']) {
      const res = await c.delete(`/events/${name}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect(await countOf(stack, 'events', projectId)).toBe(1);
  });
});
