import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait';
import { countOf, query } from './helpers';
import { newTenant, client } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const track = (project: TestProject, key: string | undefined, body: object = { email: 'idem@example.test', event: 'order' }) => {
  const req = stack.http().post('/v1/track').set('Authorization', `Bearer ${project.public}`);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
};

const expectReused = (
  res: { status: number; body: { error: { code: string; details: unknown } } },
  key: string,
  statusCode: number | null,
  request = 'POST /v1/track',
) => {
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  expect(res.body.error.details).toEqual({
    key,
    originalRequest: request,
    originalRequestAt: expect.any(String),
    originalStatusCode: statusCode,
  });
};

describe('Idempotency-Key', () => {
  it('rule 1: refuses an empty, overlong or non-printable key with 400 BAD_REQUEST, performing nothing', async () => {
    const { project } = await newTenant(stack);
    for (const key of ['', 'k'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await track(project, key);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect(await countOf(stack, 'events', project.id)).toBe(0);
    expect(await countOf(stack, 'idempotency_keys', project.id)).toBe(0);
    expect((await track(project, `${'k'.repeat(254)}~`)).status).toBe(200);
    expect((await track(project, ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')).status).toBe(200);
  });

  it('rules 2-4: performs a new key once; a reused key is 409 with the original request and is not performed', async () => {
    const { project } = await newTenant(stack);
    const key = randomUUID();
    const first = await track(project, key);
    expect(first.status).toBe(200);
    const again = await track(project, key, { email: 'different@example.test', event: 'other' });
    expectReused(again, key, 200);
    const at = new Date(again.body.error.details.originalRequestAt).getTime();
    expect(Math.abs(at - new Date(first.body.data.timestamp).getTime())).toBeLessThan(5_000);
    expect(await countOf(stack, 'events', project.id)).toBe(1);
    expect(await countOf(stack, 'contacts', project.id)).toBe(1);
    // Requests without a key are never deduplicated.
    await track(project, undefined).expect(200);
    await track(project, undefined).expect(200);
    expect(await countOf(stack, 'events', project.id)).toBe(3);
  });

  it('rule 4: concurrent requests with one key perform exactly once; the others get 409', async () => {
    const { project } = await newTenant(stack);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? track(project, key)
          : client(stack, project).post('/events/track').set('Idempotency-Key', key).send({ email: 'idem@example.test', event: 'order' }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(losers).toHaveLength(9);
    for (const r of losers) {
      expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect([null, 200]).toContain(r.body.error.details.originalStatusCode);
    }
    expect(await countOf(stack, 'events', project.id)).toBe(1);
  });

  it('rule 4: while the first request is still in flight, a reuse gets originalStatusCode null', async () => {
    const { project } = await newTenant(stack);
    const { body } = await track(project, undefined, { email: 'slow@example.test', event: 'warmup' }).expect(200);
    // Hold the contact's row so that the first request stops inside its handler, after claiming the key.
    const blocker = new PgClient({ connectionString: stack.deps.config.DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from contacts where id = $1 for update', [body.data.contact]);
      const key = randomUUID();
      const inFlight = track(project, key, { email: 'slow@example.test', event: 'purchase' }).then((r) => r);
      await waitFor('the first request to claim the key', async () =>
        (await countOf(stack, 'idempotency_keys', project.id)) === 1 ? true : undefined,
      );
      expectReused(await track(project, key), key, null);
      await blocker.query('commit');
      expect((await inFlight).status).toBe(200);
      expectReused(await track(project, key), key, 200);
    } finally {
      await blocker.end();
    }
    expect(await countOf(stack, 'events', project.id)).toBe(2);
  });

  it('rule 5: a 4xx outcome releases the key for a retry', async () => {
    const { project } = await newTenant(stack);
    const key = randomUUID();
    expect((await track(project, key, { email: 'idem@example.test', event: 'email.sent' })).status).toBe(422);
    expect((await track(project, key, { email: 'nope', event: 'x' })).status).toBe(422);
    const malformed = await stack
      .http()
      .post('/v1/track')
      .set('Authorization', `Bearer ${project.public}`)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send('{"email": ');
    expect(malformed.status).toBe(400);
    expect(await countOf(stack, 'idempotency_keys', project.id)).toBe(0);
    expect((await track(project, key)).status).toBe(200);
    expectReused(await track(project, key), key, 200);
  });

  it('rule 5: a 5xx outcome keeps the key claimed, with its status', async () => {
    const { project } = await newTenant(stack);
    // A real failure inside the handler: the database refuses this project's next event.
    const trigger = `fail_${project.id.replace(/-/g, '')}`;
    await query(stack, `create function ${trigger}() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$`);
    await query(
      stack,
      `create trigger ${trigger} before insert on events for each row when (new.project_id = '${project.id}') execute function ${trigger}()`,
    );
    const key = randomUUID();
    try {
      const failed = await track(project, key);
      expect(failed.status).toBe(500);
      expect(failed.body.error.code).toBe('INTERNAL_SERVER_ERROR');
    } finally {
      await query(stack, `drop trigger ${trigger} on events`);
      await query(stack, `drop function ${trigger}()`);
    }
    expect(await countOf(stack, 'contacts', project.id)).toBe(0);
    expectReused(await track(project, key), key, 500);
    expect(await countOf(stack, 'events', project.id)).toBe(0);
    expect((await track(project, randomUUID())).status).toBe(200);
  });

  it('rule 6: keys are scoped to the project, not the endpoint', async () => {
    const { project } = await newTenant(stack);
    const { project: other } = await newTenant(stack);
    const key = randomUUID();
    await track(project, key).expect(200);
    const viaAlias = await client(stack, project)
      .post('/events/track')
      .set('Idempotency-Key', key)
      .send({ email: 'idem@example.test', event: 'order' });
    expectReused(viaAlias, key, 200);
    expect((await track(other, key)).status).toBe(200);
    expect(await countOf(stack, 'events', project.id)).toBe(1);
    expect(await countOf(stack, 'events', other.id)).toBe(1);
  });

  it('rule 7: an expired claim can be reused', async () => {
    const { project } = await newTenant(stack);
    const key = randomUUID();
    await track(project, key).expect(200);
    await query(stack, `update idempotency_keys set expires_at = now() - interval '1 second' where project_id = ? and key = ?`, [
      project.id,
      key,
    ]);
    expect((await track(project, key)).status).toBe(200);
    expectReused(await track(project, key), key, 200);
    expect(await countOf(stack, 'events', project.id)).toBe(2);
  });

  it('is documented on the routes that honour it', async () => {
    const doc = (await stack.http().get('/openapi.json').expect(200)).body;
    const headerOf = (path: string) =>
      doc.paths[path].post.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(headerOf('/v1/track')).toMatchObject({ required: false, schema: { minLength: 1, maxLength: 255 } });
    expect(headerOf('/events/track')).toBeDefined();
    expect(headerOf('/contacts/lookup')).toBeUndefined();
  });

  it('rule 7: a claim lasts IDEMPOTENCY_KEY_TTL_HOURS', async () => {
    const short = await startStack({ env: { IDEMPOTENCY_KEY_TTL_HOURS: '3' } });
    try {
      const { project } = await newTenant(short);
      const key = randomUUID();
      await short
        .http()
        .post('/v1/track')
        .set('Authorization', `Bearer ${project.public}`)
        .set('Idempotency-Key', key)
        .send({ email: 'a@example.test', event: 'x' })
        .expect(200);
      const [row] = await query<{ hours: string }>(
        short,
        'select extract(epoch from expires_at - created_at) / 3600 as hours from idempotency_keys where project_id = ?',
        [project.id],
      );
      expect(Number(row!.hours)).toBe(3);
    } finally {
      await short.close();
    }
  });
});
