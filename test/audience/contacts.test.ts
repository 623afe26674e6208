import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { countOf, eventNamesOf, query } from './helpers';
import { tenant, type Client } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const contactOf = async (stack: TestStack, id: string) =>
  (
    await query<{ email: string; subscribed: boolean; data: Record<string, unknown>; updated_at: string }>(
      stack,
      'select * from contacts where id = ?',
      [id],
    )
  )[0];

describe('POST /contacts', () => {
  it('creates a subscribed contact with 201 and _meta.isNew, storing the email lowercased', async () => {
    const { c } = await tenant(stack);
    const res = await c.post('/contacts').send({ email: 'Ada@Example.TEST', data: { plan: 'pro' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'ada@example.test',
      subscribed: true,
      data: { plan: 'pro' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      _meta: { isNew: true, isUpdate: false },
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('upserts by email: 200 with _meta.isUpdate, data patched, state kept when omitted', async () => {
    const { c } = await tenant(stack);
    const first = await c
      .post('/contacts')
      .send({ email: 'bo@example.test', subscribed: false, data: { a: 1, b: 2 } })
      .expect(201);
    const second = await c.post('/contacts').send({ email: 'BO@example.test', data: { b: 3 } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      id: first.body.id,
      subscribed: false,
      data: { a: 1, b: 3 },
      _meta: { isNew: false, isUpdate: true },
    });
  });

  it('answers a missing email with a plain 400 { error } and stores nothing', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    for (const body of [
      {},
      { data: { plan: 'pro' } },
      { email: 'not-an-email' },
      { email: 'a@b.test', data: [1] },
      { email: 'a@b.test', subscribed: 'yes' },
    ]) {
      const res = await c.post('/contacts').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect((await c.post('/contacts').send({ data: {} })).body.error).toMatch(/email/);
    expect(await countOf(stack, 'contacts', projectId)).toBe(0);
    expect(await countOf(stack, 'contact_fields', projectId)).toBe(0);
  });

  it('keeps one contact when the same new email is posted concurrently', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => c.post('/contacts').send({ email: 'race@example.test', data: { [`k${i}`]: i } })),
    );
    expect(results.map((r) => r.status).sort((a, b) => a - b)).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await countOf(stack, 'contacts', projectId)).toBe(1);
    const stored = await contactOf(stack, results[0]!.body.id);
    expect(Object.keys(stored!.data).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
  });
});

describe('GET, PATCH, DELETE /contacts/{id}', () => {
  it('returns the contact, and 404 for an unknown or malformed id', async () => {
    const { c } = await tenant(stack);
    const created = await c.post('/contacts').send({ email: 'cy@example.test' }).expect(201);
    const res = await c.get(`/contacts/${created.body.id}`).expect(200);
    const { _meta, ...contact } = created.body;
    // The contact's page also says whether its address is suppressed.
    expect(res.body).toEqual({ ...contact, suppression: null });
    expect((await c.get(`/contacts/${randomUUID()}`)).status).toBe(404);
    const malformed = await c.get('/contacts/not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('NOT_FOUND');
  });

  it('patches email, subscription and data, and bumps updatedAt', async () => {
    const { c } = await tenant(stack);
    const created = await c
      .post('/contacts')
      .send({ email: 'di@example.test', data: { a: 1, b: 2 } })
      .expect(201);
    const res = await c
      .patch(`/contacts/${created.body.id}`)
      .send({ email: 'Di2@Example.test', subscribed: false, data: { b: null, c: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, email: 'di2@example.test', subscribed: false, data: { a: 1, c: 'x' } });
    expect(res.body.data).not.toHaveProperty('b');
    expect(res.body.updatedAt > created.body.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(created.body.createdAt);
    // An empty patch changes nothing but the timestamp.
    const empty = await c.patch(`/contacts/${created.body.id}`).send({}).expect(200);
    expect(empty.body).toMatchObject({ email: 'di2@example.test', subscribed: false, data: { a: 1, c: 'x' } });
  });

  it('answers 409 when the new email belongs to another contact, changing nothing', async () => {
    const { c } = await tenant(stack);
    await c.post('/contacts').send({ email: 'taken@example.test' }).expect(201);
    const mine = await c
      .post('/contacts')
      .send({ email: 'mine@example.test', data: { a: 1 } })
      .expect(201);
    const res = await c.patch(`/contacts/${mine.body.id}`).send({ email: 'TAKEN@example.test', data: { a: 2 }, subscribed: false });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(await contactOf(stack, mine.body.id)).toMatchObject({ email: 'mine@example.test', subscribed: true, data: { a: 1 } });
    expect(await eventNamesOf(stack, mine.body.id)).toEqual([]);
  });

  it('rejects a bad patch with 422 and 404s an unknown contact, changing nothing', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const mine = await c
      .post('/contacts')
      .send({ email: 'pat@example.test', data: { a: 1 } })
      .expect(201);
    for (const body of [{ email: 'nope' }, { subscribed: 'no' }, { data: 'x' }, { data: { k: 'a\u0000b' } }]) {
      const res = await c.patch(`/contacts/${mine.body.id}`).send(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const unknown = await c.patch(`/contacts/${randomUUID()}`).send({ data: { fresh: 1 } });
    expect(unknown.status).toBe(404);
    expect(await contactOf(stack, mine.body.id)).toMatchObject({ email: 'pat@example.test', subscribed: true, data: { a: 1 } });
    expect(await countOf(stack, 'contact_fields', projectId)).toBe(1);
  });

  it('deletes with 204 and no body, with its events; then 404', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const tracked = await c.post('/events/track').send({ email: 'gone@example.test', event: 'signup' }).expect(200);
    const id = tracked.body.data.contact;
    const res = await c.delete(`/contacts/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await countOf(stack, 'events', projectId)).toBe(0);
    expect((await c.get(`/contacts/${id}`)).status).toBe(404);
    expect((await c.delete(`/contacts/${id}`)).status).toBe(404);
  });
});

describe('POST /contacts/lookup', () => {
  it('splits emails into found contacts and missing addresses', async () => {
    const { c } = await tenant(stack);
    const a = await c.post('/contacts').send({ email: 'a@example.test', subscribed: false }).expect(201);
    const res = await c
      .post('/contacts/lookup')
      .send({ emails: ['A@Example.test', 'nobody@example.test', 'a@example.test', 'junk'] })
      .expect(200);
    expect(res.body).toEqual({
      found: [{ id: a.body.id, email: 'a@example.test', subscribed: false }],
      missing: ['nobody@example.test', 'junk'],
    });
  });

  it('refuses an empty list or more than 500 emails with 422', async () => {
    const { c } = await tenant(stack);
    for (const emails of [[], Array.from({ length: 501 }, (_, i) => `u${i}@example.test`), 'a@example.test']) {
      const res = await c.post('/contacts/lookup').send({ emails });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const max = await c.post('/contacts/lookup').send({ emails: Array.from({ length: 500 }, (_, i) => `u${i}@example.test`) });
    expect(max.status).toBe(200);
    expect(max.body.missing).toHaveLength(500);
  });
});

describe('GET /contacts', () => {
  /** Contacts with distinct, increasing creation times, oldest first. */
  async function seed(projectId: string, emails: string[], subscribed = (_i: number) => true): Promise<void> {
    await query(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), t, t, ?, e.email, e.subscribed, '{}'
       from jsonb_to_recordset(?::jsonb) as e(email text, subscribed boolean, n int),
       lateral (select now() - interval '1 hour' + e.n * interval '1 second' as t) x`,
      [projectId, JSON.stringify(emails.map((email, n) => ({ email, subscribed: subscribed(n), n })))],
    );
  }

  async function all(c: Client, params: string): Promise<{ emails: string[]; pages: Array<{ total: number; hasMore: boolean }> }> {
    const emails: string[] = [];
    const pages: Array<{ total: number; hasMore: boolean }> = [];
    let cursor: string | null = null;
    do {
      const url: string = `/contacts?${params}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await c.get(url).expect(200);
      emails.push(...res.body.data.map((x: { email: string }) => x.email));
      pages.push({ total: res.body.total, hasMore: res.body.hasMore });
      cursor = res.body.cursor;
      expect(cursor === null).toBe(!res.body.hasMore);
    } while (cursor);
    return { emails, pages };
  }

  const names = (n: number) => Array.from({ length: n }, (_, i) => `c${String(i).padStart(3, '0')}@example.test`);

  it('pages newest first by 20, with total on the first page only', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seed(projectId, names(45));
    const { emails, pages } = await all(c, '');
    expect(emails).toEqual(names(45).reverse());
    expect(pages).toEqual([
      { total: 45, hasMore: true },
      { total: 0, hasMore: true },
      { total: 0, hasMore: false },
    ]);
  });

  it('clamps limits above 100 and refuses limits below 1 or non-numeric with 400', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seed(projectId, names(120));
    const big = await c.get('/contacts?limit=500').expect(200);
    expect(big.body.data).toHaveLength(100);
    expect((await c.get('/contacts?limit=7').expect(200)).body.data).toHaveLength(7);
    for (const bad of ['0', '-1', 'abc', '2.5']) {
      const res = await c.get(`/contacts?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
  });

  it('sorts by email or createdAt in either direction; unknown values fall back to createdAt desc', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const list = ['m@example.test', 'a@example.test', 'z@example.test', 'b@example.test'];
    await seed(projectId, list);
    const emails = async (qs: string) => (await c.get(`/contacts?${qs}`).expect(200)).body.data.map((x: { email: string }) => x.email);
    expect(await emails('sort=email&dir=asc')).toEqual([...list].sort());
    expect(await emails('sort=email&dir=desc')).toEqual([...list].sort().reverse());
    expect(await emails('sort=createdAt&dir=asc')).toEqual(list);
    expect(await emails('sort=bogus&dir=sideways')).toEqual([...list].reverse());
    expect((await all(c, 'sort=email&dir=asc&limit=3')).emails).toEqual([...list].sort());
  });

  it('searches a case-insensitive substring of the email, wildcards taken literally, and filters by subscription', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seed(
      projectId,
      ['Alice.Smith@example.test', 'bob@smith.test', 'carol@example.test', '100%_real@example.test'].map((e) => e.toLowerCase()),
      (i) => i % 2 === 0,
    );
    const emails = async (qs: string) => (await c.get(`/contacts?${qs}`).expect(200)).body;
    expect((await emails('search=SMITH')).data.map((x: { email: string }) => x.email).sort()).toEqual([
      'alice.smith@example.test',
      'bob@smith.test',
    ]);
    expect((await emails('search=SMITH')).total).toBe(2);
    expect((await emails(`search=${encodeURIComponent('%_')}`)).data.map((x: { email: string }) => x.email)).toEqual([
      '100%_real@example.test',
    ]);
    expect((await emails('search=_')).total).toBe(1);
    const unsubscribed = await emails('subscribed=false');
    expect(unsubscribed.data.map((x: { email: string }) => x.email).sort()).toEqual(['100%_real@example.test', 'bob@smith.test']);
    expect((await emails('subscribed=true&search=example')).total).toBe(2);
    expect((await c.get('/contacts?subscribed=maybe')).status).toBe(400);
  });

  it('keeps the cursor stable while contacts are inserted between pages, also among equal timestamps', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    // Thirty contacts created in the same instant: only the id orders them.
    await query(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now() - interval '1 day', now(), ?, 'same' || g || '@example.test', true, '{}' from generate_series(1, 30) g`,
      [projectId],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const url: string = `/contacts?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await c.get(url).expect(200);
      seen.push(...res.body.data.map((x: { email: string }) => x.email));
      cursor = res.body.cursor;
      // Newer contacts arrive meanwhile; they sort before the cursor and must not shift later pages.
      await c
        .post('/contacts')
        .send({ email: `new${page++}@example.test` })
        .expect(201);
    } while (cursor);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(seen.every((e) => e.startsWith('same'))).toBe(true);
  });

  it('keeps total exact through creates, concurrent upserts, subscription flips and deletes', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const totals = async () => ({
      all: (await c.get('/contacts').expect(200)).body.total,
      subscribed: (await c.get('/contacts?subscribed=true').expect(200)).body.total,
      unsubscribed: (await c.get('/contacts?subscribed=false').expect(200)).body.total,
    });
    const counted = async () => {
      const rows = await query<{ subscribed: boolean; n: string }>(
        stack,
        'select subscribed, count(*) as n from contacts where project_id = ? group by 1',
        [projectId],
      );
      const of = (s: boolean) => Number(rows.find((r) => r.subscribed === s)?.n ?? 0);
      return { all: of(true) + of(false), subscribed: of(true), unsubscribed: of(false) };
    };
    await seed(projectId, names(30), (i) => i % 3 !== 0);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.track({ email: `t${i % 10}@example.test`, event: 'e', subscribed: i % 4 === 0 ? false : undefined }),
      ),
    );
    const some = (await c.get('/contacts?limit=5').expect(200)).body.data as Array<{ id: string; subscribed: boolean }>;
    await c.patch(`/contacts/${some[0]!.id}`).send({ subscribed: !some[0]!.subscribed }).expect(200);
    await c.post('/contacts').send({ email: 'c001@example.test', subscribed: false }).expect(200);
    await c.delete(`/contacts/${some[1]!.id}`).expect(204);
    await c.delete(`/contacts/${some[2]!.id}`).expect(204);
    const expected = await counted();
    expect(expected.all).toBe(38);
    expect(await totals()).toEqual(expected);
    // A search counts its matches directly. The deletes above took two of the newest, tracked contacts, so the
    // one searched for is a tracked contact still there.
    const [kept] = await query<{ email: string }>(
      stack,
      `select email from contacts where project_id = ? and email like 't%' order by email limit 1`,
      [projectId],
    );
    expect((await c.get(`/contacts?search=${encodeURIComponent(kept!.email)}`).expect(200)).body.total).toBe(1);
    expect((await c.get('/contacts?search=@example.test').expect(200)).body.total).toBe(expected.all);
  });

  it('refuses a malformed cursor, or one issued for another ordering, with 400', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    await seed(projectId, names(3));
    const first = await c.get('/contacts?limit=1&sort=email').expect(200);
    for (const qs of ['cursor=garbage', `cursor=${Buffer.from('{"o":1}').toString('base64url')}`, `cursor=${first.body.cursor}`]) {
      const res = await c.get(`/contacts?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect((await c.get(`/contacts?sort=email&cursor=${first.body.cursor}`)).status).toBe(200);
  });
});
