import { createHash, randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { signupUser, type TestProject, type TestUser } from '../helpers/fixtures';
import { joinedUser } from '../helpers/members';
import { hear, seedContact, seedEvents, sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A secret-key route: answers 200 while the key is valid. */
const withKey = (project: TestProject, secret = project.secret) =>
  stack.http().get(`/domains/project/${project.id}`).set('Authorization', `Bearer ${secret}`);

const projectRow = (id: string) =>
  sql<{ name: string; public_key: string; public_key_digest: string; secret_key_digest: string; disabled: boolean }>(
    stack,
    'select name, public_key, public_key_digest, secret_key_digest, disabled from projects where id = ?',
    [id],
  ).then((rows) => rows[0]);

const disable = (id: string) => sql(stack, `update projects set disabled = true, disabled_reason = 'abuse review' where id = ?`, [id]);

async function team() {
  const { user: owner, project } = await newTenant(stack);
  const admin = await joinedUser(stack, owner, project, 'ADMIN');
  const member = await joinedUser(stack, owner, project, 'MEMBER');
  const outsider = await signupUser(stack);
  return { owner, admin, member, outsider, project };
}

/** The session checks every project endpoint shares: 401 without a cookie, 403 for outsiders, 404 for unknown ids. */
async function expectAccessChecks(
  call: (user: TestUser | null, projectId: string) => Promise<{ status: number; body: { error?: { code?: string } } }>,
  project: TestProject,
  outsider: TestUser,
) {
  expect((await call(null, project.id)).status).toBe(401);
  const foreign = await call(outsider, project.id);
  expect(foreign.status).toBe(403);
  expect(foreign.body.error?.code).toBe('FORBIDDEN');
  expect((await call(outsider, randomUUID())).status).toBe(404);
  expect((await call(outsider, 'not-a-uuid')).status).toBe(404);
}

describe('PATCH /users/@me/projects/{id}', () => {
  const patch = (user: TestUser | null, id: string, body: unknown) => {
    const req = stack.http().patch(`/users/@me/projects/${id}`);
    return (user ? req.set('Cookie', user.cookie) : req).send(body as object);
  };

  it('renames for an OWNER or ADMIN and returns the project with the secret masked', async () => {
    const { owner, admin, project } = await team();
    const res = await patch(owner, project.id, { name: '  Renamed  ' }).expect(200);
    expect(res.body).toMatchObject({ id: project.id, name: 'Renamed', public: project.public, role: 'OWNER', disabled: false });
    expect(res.body.secret).toBe(`sk_${'*'.repeat(24)}${project.secret.slice(-4)}`);
    expect((await patch(admin, project.id, { name: 'By admin' }).expect(200)).body.role).toBe('ADMIN');
    const list = await stack.http().get('/users/@me/projects').set('Cookie', owner.cookie).expect(200);
    expect(list.body.find((p: { id: string }) => p.id === project.id).name).toBe('By admin');
  });

  it('refuses a MEMBER, outsiders, unknown projects and bad names, changing nothing', async () => {
    const { owner, member, outsider, project } = await team();
    const denied = await patch(member, project.id, { name: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    await expectAccessChecks((u, id) => patch(u, id, { name: 'Nope' }), project, outsider);
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
      const res = await patch(owner, project.id, body);
      expect(res.status).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'name' });
    }
    expect((await projectRow(project.id))!.name).toBe('Test project');
  });

  it("sets the project's time zone, an IANA one only; UTC by default", async () => {
    const { owner, project } = await team();
    const list = await stack.http().get('/users/@me/projects').set('Cookie', owner.cookie).expect(200);
    expect(list.body.find((p: { id: string }) => p.id === project.id).timeZone).toBe('UTC');
    expect((await patch(owner, project.id, { timeZone: 'America/New_York' }).expect(200)).body.timeZone).toBe('America/New_York');
    for (const timeZone of ['Mars/Olympus', '', 'GMT+25', 7]) {
      const res = await patch(owner, project.id, { timeZone });
      expect([res.status, res.body.error.errors[0].field]).toEqual([422, 'timeZone']);
    }
    const [row] = await sql<{ time_zone: string }>(stack, 'select time_zone from projects where id = ?', [project.id]);
    expect(row!.time_zone).toBe('America/New_York');
  });

  it('sets and removes the frequency cap; a bad one is 422 naming the field and changes nothing', async () => {
    const { owner, admin, member, project } = await team();
    const list = await stack.http().get('/users/@me/projects').set('Cookie', owner.cookie).expect(200);
    expect(list.body.find((p: { id: string }) => p.id === project.id).frequencyCap).toBeNull();
    const cap = { maxEmails: 3, windowDays: 7 };
    expect((await patch(admin, project.id, { frequencyCap: cap }).expect(200)).body.frequencyCap).toEqual(cap);
    expect((await patch(member, project.id, { frequencyCap: null })).status).toBe(403);
    const bad: Array<[unknown, string]> = [
      [{ maxEmails: 0, windowDays: 7 }, 'frequencyCap.maxEmails'],
      [{ maxEmails: 1001, windowDays: 7 }, 'frequencyCap.maxEmails'],
      [{ maxEmails: 2.5, windowDays: 7 }, 'frequencyCap.maxEmails'],
      [{ maxEmails: 3, windowDays: 0 }, 'frequencyCap.windowDays'],
      [{ maxEmails: 3, windowDays: 366 }, 'frequencyCap.windowDays'],
      [{ maxEmails: 3 }, 'frequencyCap.windowDays'],
      [{ maxEmails: 3, windowDays: 7, per: 'week' }, 'frequencyCap'],
      ['3 per week', 'frequencyCap'],
    ];
    for (const [frequencyCap, field] of bad) {
      const res = await patch(owner, project.id, { frequencyCap });
      expect([res.status, res.body.error.code, res.body.error.errors[0].field]).toEqual([422, 'VALIDATION_ERROR', field]);
    }
    const row = async () =>
      (
        await sql<{ max: number | null; days: number | null }>(
          stack,
          'select frequency_cap_max as max, frequency_cap_days as days from projects where id = ?',
          [project.id],
        )
      )[0];
    expect(await row()).toEqual({ max: 3, days: 7 });
    expect((await patch(owner, project.id, { frequencyCap: null }).expect(200)).body.frequencyCap).toBeNull();
    expect(await row()).toEqual({ max: null, days: null });
  });
});

describe('POST /users/@me/projects/{id}/regenerate-keys', () => {
  const rotate = (user: TestUser | null, id: string) => {
    const req = stack.http().post(`/users/@me/projects/${id}/regenerate-keys`);
    return user ? req.set('Cookie', user.cookie) : req;
  };

  it('rotates both keys for the OWNER: the new secret in full once, the old keys dead at once', async () => {
    const { owner, project } = await team();
    const res = await rotate(owner, project.id).expect(200);
    expect(res.body.secret).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(res.body.public).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(res.body.secret).not.toBe(project.secret);
    expect(res.body.public).not.toBe(project.public);

    const old = await withKey(project);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('INVALID_API_KEY');
    await withKey(project, res.body.secret).expect(200);

    const row = (await projectRow(project.id))!;
    expect(row.secret_key_digest).toBe(sha256(res.body.secret));
    expect(row.public_key_digest).toBe(sha256(res.body.public));
    const list = await stack.http().get('/users/@me/projects').set('Cookie', owner.cookie).expect(200);
    const listed = list.body.find((p: { id: string }) => p.id === project.id);
    expect(listed.secret).toBe(`sk_${'*'.repeat(24)}${res.body.secret.slice(-4)}`);
    expect(listed.public).toBe(res.body.public);
  });

  it('refuses an ADMIN, a MEMBER, outsiders and unknown projects; the keys keep working', async () => {
    const { admin, member, outsider, project } = await team();
    for (const user of [admin, member]) {
      const res = await rotate(user, project.id);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    await expectAccessChecks((u, id) => rotate(u, id), project, outsider);
    await withKey(project).expect(200);
    expect((await projectRow(project.id))!.secret_key_digest).toBe(sha256(project.secret));
  });
});

describe('POST /users/@me/projects/{id}/reset', () => {
  const reset = (user: TestUser | null, id: string) => {
    const req = stack.http().post(`/users/@me/projects/${id}/reset`);
    return user ? req.set('Cookie', user.cookie) : req;
  };

  async function seedData(projectId: string) {
    const contact = await seedContact(stack, projectId);
    // Heard, as if an automation named them: the events enter the outbox.
    await hear(stack, projectId, 'signed-up', 'email.sent');
    await seedEvents(stack, projectId, contact.id, [{ name: 'signed-up', count: 2 }, { name: 'email.sent' }]);
    await sql(stack, `insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now())`, [projectId]);
    await sql(stack, `update contacts set data = '{"plan": "pro"}' where id = ?`, [contact.id]);
    await sql(
      stack,
      `insert into segments (id, created_at, updated_at, project_id, name, type) values (?, now(), now(), ?, 'Static', 'STATIC')`,
      [randomUUID(), projectId],
    );
    await sql(
      stack,
      `insert into segment_members (segment_id, contact_id, created_at) select id, ?, now() from segments where project_id = ?`,
      [contact.id, projectId],
    );
    await sql(
      stack,
      `insert into templates (id, created_at, updated_at, project_id, name, subject, body, from_address, type)
       values (?, now(), now(), ?, 'Welcome', 'Hi', '<p>Hi</p>', 'hi@example.test', 'MARKETING')`,
      [randomUUID(), projectId],
    );
    await sql(
      stack,
      `insert into emails (id, created_at, updated_at, project_id, contact_id, to_address, from_address, subject, html, size_bytes, source_type)
       values (?, now(), now(), ?, ?, 'c@example.test', 'hi@example.test', 'Hi', '<p>Hi</p>', 100, 'TRANSACTIONAL')`,
      [randomUUID(), projectId, contact.id],
    );
    await sql(
      stack,
      `insert into idempotency_keys (project_id, key, method, path, created_at, expires_at) values (?, 'k1', 'POST', '/v1/send', now(), now() + interval '1 day')`,
      [projectId],
    );
  }

  const counts = (projectId: string) =>
    sql<Record<string, number>>(
      stack,
      `select (select count(*)::int from contacts where project_id = ?) as contacts,
              (select count(*)::int from events where project_id = ?) as events,
              (select count(*)::int from segments where project_id = ?) as segments,
              (select count(*)::int from segment_members m join segments s on s.id = m.segment_id where s.project_id = ?) as segment_members,
              (select count(*)::int from contact_fields where project_id = ?) as contact_fields,
              (select count(*)::int from idempotency_keys where project_id = ?) as idempotency_keys,
              (select count(*)::int from templates where project_id = ?) as templates,
              (select count(*)::int from emails where project_id = ?) as emails,
              (select count(*)::int from project_members where project_id = ?) as members,
              (select count(*)::int from domains where project_id = ?) as domains`,
      Array(10).fill(projectId),
    ).then((rows) => rows[0]!);

  it('wipes the data of the project only; keys, members and domains stay', async () => {
    const { owner, project } = await team();
    const other = await newTenant(stack);
    await seedData(project.id);
    await seedData(other.project.id);
    await stack
      .http()
      .post('/domains')
      .set('Authorization', `Bearer ${project.secret}`)
      .send({ domain: `r-${randomUUID().slice(0, 8)}.example.test` })
      .expect(201);
    const before = await counts(project.id);
    const otherBefore = await counts(other.project.id);
    // The three events' rollup rows: one per name and hour, or more where they fell in different slots.
    const [eventRollups] = await sql<{ n: number }>(stack, 'select count(*)::int as n from event_stats where project_id = ?', [project.id]);
    expect(eventRollups!.n).toBeGreaterThanOrEqual(2);

    const res = await reset(owner, project.id).expect(200);
    expect(res.body).toEqual({
      success: true,
      message: expect.any(String),
      deleted: {
        // No dispatcher runs here: the three events wait in the outbox.
        event_outbox: 3,
        events: 3,
        segments: 1,
        contacts: 1,
        contact_fields: 1,
        idempotency_keys: 1,
        suppressions: 0,
        templates: 1,
        jobs: 0,
        email_queue: 0,
        emails: 1,
        email_send_slots: 0,
        campaigns: 0,
        automations: 0,
        heard_event_names: 2,
        automation_executions: 0,
        topics: 0,
        signup_forms: 0,
        confirmations: 0,
        inbound_emails: 0,
        relayed_messages: 0,
        // Rollup rows (per project, hour, category or name, and slot), emptied of their counts by the deletions before them.
        email_stats: 1,
        event_stats: eventRollups!.n,
        contact_counts: 1,
        contact_field_counts: 1,
      },
    });
    expect(await counts(project.id)).toEqual({
      contacts: 0,
      events: 0,
      segments: 0,
      segment_members: 0,
      contact_fields: 0,
      idempotency_keys: 0,
      templates: 0,
      emails: 0,
      members: before.members,
      domains: 1,
    });
    expect(before.members).toBe(3);
    expect(await counts(other.project.id)).toEqual(otherBefore);
    const listed = await withKey(project).expect(200);
    expect(listed.body).toHaveLength(1);
  });

  it('refuses anyone but the OWNER, and a disabled project, keeping the data', async () => {
    const { owner, admin, member, outsider, project } = await team();
    await seedData(project.id);
    const before = await counts(project.id);
    for (const user of [admin, member]) expect((await reset(user, project.id)).status).toBe(403);
    await expectAccessChecks((u, id) => reset(u, id), project, outsider);
    await disable(project.id);
    const disabled = await reset(owner, project.id);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('PROJECT_DISABLED');
    expect(await counts(project.id)).toEqual(before);
  });
});

describe('DELETE /users/@me/projects/{id}', () => {
  const remove = (user: TestUser | null, id: string) => {
    const req = stack.http().delete(`/users/@me/projects/${id}`);
    return user ? req.set('Cookie', user.cookie) : req;
  };

  it('deletes the project with its keys, members and data for the OWNER, and stops its domain checks', async () => {
    const { owner, admin, project } = await team();
    const contact = await seedContact(stack, project.id);
    await seedEvents(stack, project.id, contact.id, [{ name: 'signed-up' }]);
    const domain = await stack
      .http()
      .post('/domains')
      .set('Authorization', `Bearer ${project.secret}`)
      .send({ domain: `d-${randomUUID().slice(0, 8)}.example.test` })
      .expect(201);
    const check = stack.deps.temporal.client.workflow.getHandle(`domain-verify:${domain.body.id}`);
    expect((await check.describe()).status.name).toBe('RUNNING');

    const res = await remove(owner, project.id).expect(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await check.describe()).status.name).toBe('TERMINATED');

    expect(await projectRow(project.id)).toBeUndefined();
    for (const table of ['project_members', 'contacts', 'events', 'domains']) {
      expect(await sql(stack, `select 1 from ${table} where project_id = ?`, [project.id])).toHaveLength(0);
    }
    expect((await withKey(project)).status).toBe(401);
    for (const user of [owner, admin]) {
      const list = await stack.http().get('/users/@me/projects').set('Cookie', user.cookie).expect(200);
      expect(list.body.map((p: { id: string }) => p.id)).not.toContain(project.id);
    }
    expect((await remove(owner, project.id)).status).toBe(404);
  });

  it('refuses anyone but the OWNER, and a disabled project, keeping it', async () => {
    const { owner, admin, member, outsider, project } = await team();
    for (const user of [admin, member]) {
      const res = await remove(user, project.id);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    await expectAccessChecks((u, id) => remove(u, id), project, outsider);
    await disable(project.id);
    const disabled = await remove(owner, project.id);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('PROJECT_DISABLED');
    expect(await projectRow(project.id)).toBeDefined();
  });
});
