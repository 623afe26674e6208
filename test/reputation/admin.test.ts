import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { seedSentEmails, sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { newTenant, senderTenant } from '../helpers/tenants';
import { ADMIN_TOKEN, admin, projectRow } from './helpers';

/** The operators' surface (docs/operators.md): `/admin` behind ADMIN_TOKEN, and nowhere without one. */
let stack: TestStack;
let bare: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, env: { ADMIN_TOKEN } });
  bare = await startStack();
});
afterAll(async () => {
  await bare?.close();
  await stack?.close();
});

const ROUTES: Array<[method: 'get' | 'post', path: (id: string) => string, body?: object]> = [
  ['get', () => '/admin/projects'],
  ['post', (id) => `/admin/projects/${id}/suspend`, { reason: 'Abuse' }],
  ['post', (id) => `/admin/projects/${id}/reinstate`, {}],
  ['get', () => '/admin/audit'],
];

async function named(name: string) {
  const { user, project } = await newTenant(stack);
  await stack.http().patch(`/users/@me/projects/${project.id}`).set('Cookie', user.cookie).send({ name }).expect(200);
  return { user, project };
}

describe('/admin without ADMIN_TOKEN', () => {
  it('does not exist: every path and method is a 404', async () => {
    const { project } = await newTenant(bare);
    for (const [method, path, body] of ROUTES) {
      const res = await bare.http()[method](path(project.id)).set('Authorization', `Bearer ${ADMIN_TOKEN}`).send(body);
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
    for (const res of await Promise.all([
      bare.http().delete('/admin/projects'),
      bare.http().get('/admin'),
      bare.http().put('/admin/audit'),
    ])) {
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await projectRow(bare, project.id)).disabled).toBe(false);
  });
});

describe('/admin with ADMIN_TOKEN', () => {
  it('refuses a missing or wrong token with 401 UNAUTHORIZED, changing nothing', async () => {
    const { project } = await newTenant(stack);
    for (const [method, path, body] of ROUTES) {
      for (const auth of [undefined, `Bearer ${ADMIN_TOKEN}x`, `Bearer ${ADMIN_TOKEN.slice(0, -1)}`, ADMIN_TOKEN, `Bearer ${project.id}`]) {
        const req = stack.http()[method](path(project.id));
        const res = await (auth ? req.set('Authorization', auth) : req).send(body);
        expect([res.status, res.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
      }
    }
    expect((await projectRow(stack, project.id)).disabled).toBe(false);
    expect(await sql(stack, 'select 1 from project_audit where project_id = ?', [project.id])).toEqual([]);
  });

  it('lists projects newest first with owners, figures and levels; searches names and ids; filters by disabled; pages by cursor', async () => {
    const tag = randomUUID().slice(0, 8);
    const quiet = await named(`Quiet ${tag}`);
    const loud = await named(`LOUD ${tag}`);
    await seedSentEmails(stack, loud.project.id, [{ count: 93 }, { count: 7, outcome: 'bounce' }, { count: 40, simulated: true }]);
    await admin(stack).post(`/admin/projects/${quiet.project.id}/suspend`).send({ reason: 'Spam trap hits' }).expect(200);

    const page = (await admin(stack).get(`/admin/projects?search=${tag.toUpperCase()}`).expect(200)).body;
    expect(page).toMatchObject({ total: 2, hasMore: false, cursor: null });
    expect(page.data).toEqual([
      {
        id: loud.project.id,
        name: `LOUD ${tag}`,
        disabled: false,
        disabledReason: null,
        createdAt: expect.any(String),
        owners: [loud.user.email],
        sent: 100,
        bounceRate: 7,
        complaintRate: 0,
        levels: { bounce: 'warning', complaint: 'healthy' },
      },
      expect.objectContaining({
        id: quiet.project.id,
        disabled: true,
        disabledReason: 'Spam trap hits',
        sent: 0,
        owners: [quiet.user.email],
      }),
    ]);
    const byId = (
      await admin(stack)
        .get(`/admin/projects?search=${loud.project.id.slice(4, 16)}`)
        .expect(200)
    ).body;
    expect(byId.data.map((p: { id: string }) => p.id)).toEqual([loud.project.id]);
    const disabled = (await admin(stack).get(`/admin/projects?search=${tag}&disabled=true`).expect(200)).body;
    expect(disabled.data.map((p: { id: string }) => p.id)).toEqual([quiet.project.id]);
    const active = (await admin(stack).get(`/admin/projects?search=${tag}&disabled=false`).expect(200)).body;
    expect(active.data.map((p: { id: string }) => p.id)).toEqual([loud.project.id]);

    const first = (await admin(stack).get(`/admin/projects?search=${tag}&limit=1`).expect(200)).body;
    expect(first).toMatchObject({ total: 2, hasMore: true, data: [{ id: loud.project.id }] });
    const second = (await admin(stack).get(`/admin/projects?search=${tag}&limit=1&cursor=${first.cursor}`).expect(200)).body;
    expect(second).toMatchObject({ total: 0, hasMore: false, cursor: null, data: [{ id: quiet.project.id }] });
    expect((await admin(stack).get('/admin/projects?cursor=nonsense').expect(400)).body.error.code).toBe('BAD_REQUEST');
  });

  it('suspends with a reason (422 without, 409 twice, 404 unknown) and reinstates (409 when active), all in the audit list', async () => {
    const { project } = await newTenant(stack);
    const suspend = (body: object, id = project.id) => admin(stack).post(`/admin/projects/${id}/suspend`).send(body);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 7 }]) {
      const res = await suspend(body);
      expect([res.status, res.body.error.code, res.body.error.errors[0].field]).toEqual([422, 'VALIDATION_ERROR', 'reason']);
    }
    expect((await suspend({ reason: 'Abuse' }, randomUUID())).status).toBe(404);
    expect((await admin(stack).post(`/admin/projects/${project.id}/reinstate`).send({})).status).toBe(409);
    expect((await projectRow(stack, project.id)).disabled).toBe(false);

    const suspended = await suspend({ reason: 'Phishing report from a mailbox provider' }).expect(200);
    expect(suspended.body).toMatchObject({ id: project.id, disabled: true, disabledReason: 'Phishing report from a mailbox provider' });
    expect((await suspend({ reason: 'Again' })).status).toBe(409);
    const reinstated = await admin(stack)
      .post(`/admin/projects/${project.id}/reinstate`)
      .send({ reason: 'Cleared after review' })
      .expect(200);
    expect(reinstated.body).toMatchObject({ id: project.id, disabled: false, disabledReason: null });
    expect((await admin(stack).post(`/admin/projects/${randomUUID()}/reinstate`).send({})).status).toBe(404);

    const audit = (await admin(stack).get('/admin/audit?limit=100').expect(200)).body;
    const mine = audit.data.filter((a: { projectId: string }) => a.projectId === project.id);
    expect(mine).toEqual([
      {
        id: expect.any(String),
        action: 'reinstate',
        projectId: project.id,
        reason: 'Cleared after review',
        by: 'operator',
        at: expect.any(String),
      },
      {
        id: expect.any(String),
        action: 'suspend',
        projectId: project.id,
        reason: 'Phishing report from a mailbox provider',
        by: 'operator',
        at: expect.any(String),
      },
    ]);
    expect(new Date(mine[0].at).getTime()).toBeGreaterThanOrEqual(new Date(mine[1].at).getTime());
    expect(audit.total).toBeGreaterThanOrEqual(2);
  });

  it('answers bad input with a 4xx in the error envelope, changing nothing', async () => {
    const { project } = await newTenant(stack);
    const before = (await admin(stack).get('/admin/audit?limit=1').expect(200)).body.total;
    const refusals: Array<[what: string, status: number, send: () => Promise<{ status: number; body: { error?: { code?: string } } }>]> = [
      ['a cursor of nothing', 400, () => admin(stack).get('/admin/projects?cursor=nonsense')],
      ["the audit's cursor of nothing", 400, () => admin(stack).get('/admin/audit?cursor=nonsense')],
      [
        'another list’s cursor on the audit',
        400,
        () => admin(stack).get(`/admin/audit?cursor=${Buffer.from('{"id":7}').toString('base64url')}`),
      ],
      ['disabled=yes', 400, () => admin(stack).get('/admin/projects?disabled=yes')],
      ['disabled=1', 400, () => admin(stack).get('/admin/projects?disabled=1')],
      ['limit=0', 400, () => admin(stack).get('/admin/projects?limit=0')],
      ['limit=ten', 400, () => admin(stack).get('/admin/audit?limit=ten')],
      ['a search of 201 characters', 400, () => admin(stack).get(`/admin/projects?search=${'a'.repeat(201)}`)],
      [
        'a reinstatement reason of 501 characters',
        422,
        () =>
          admin(stack)
            .post(`/admin/projects/${project.id}/reinstate`)
            .send({ reason: 'x'.repeat(501) }),
      ],
      [
        'a reinstatement reason that is a number',
        422,
        () => admin(stack).post(`/admin/projects/${project.id}/reinstate`).send({ reason: 5 }),
      ],
      [
        'a suspension of an id that is no UUID',
        404,
        () => admin(stack).post('/admin/projects/not-a-project/suspend').send({ reason: 'Abuse' }),
      ],
      ['a reinstatement of an id that is no UUID', 404, () => admin(stack).post('/admin/projects/42/reinstate').send({})],
      ['a suspension of an unknown id', 404, () => admin(stack).post(`/admin/projects/${randomUUID()}/suspend`).send({ reason: 'Abuse' })],
      ['a body that is no JSON', 400, () => admin(stack).post(`/admin/projects/${project.id}/suspend`).type('json').send('{"reason":')],
    ];
    const answers = [];
    for (const [what, , send] of refusals) {
      const res = await send();
      answers.push([what, res.status, typeof res.body.error?.code]);
    }
    expect(answers).toEqual(refusals.map(([what, status]) => [what, status, 'string']));
    expect(await projectRow(stack, project.id)).toEqual({ disabled: false, disabled_reason: null });
    expect((await admin(stack).get('/admin/audit?limit=1').expect(200)).body.total).toBe(before);
  });

  it('holds the queued emails of a suspended project, changing no status, and sends each once after the reinstatement', async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const to = Array.from({ length: 3 }, (_, i) => `held-${i}-${t.project.id.slice(0, 8)}@example.test`);
    // The SMTP server refuses for now: the emails wait in the queue, retried, when the suspension comes.
    for (const address of to) stack.smtp.refuse(address, 451, '4.3.0 Try again later');
    const sent = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Held', body: '<p>Held</p>' }).expect(200);
    const ids: string[] = sent.body.data.emails.map((e: { email: string }) => e.email);
    await waitFor('the first attempts', async () => {
      const rows = await sql<{ n: number }>(
        stack,
        `select count(*)::int as n from email_queue where email_id = any(?::uuid[]) and attempts >= 1`,
        [`{${ids.join(',')}}`],
      );
      return rows[0]!.n === 3 ? true : undefined;
    });
    await admin(stack).post(`/admin/projects/${t.project.id}/suspend`).send({ reason: 'Review' }).expect(200);
    for (const address of to) stack.smtp.accept(address);

    const security = () => stack.http().get(`/projects/${t.project.id}/security`).set('Cookie', t.user.cookie).expect(200);
    await waitFor('the three emails held', async () => ((await security()).body.heldEmails === 3 ? true : undefined), 20_000);
    // Retries come every second in tests: a few seconds more and none has gone, and none changed.
    const otherSend = await other.c
      .post('/v1/send')
      .send({ to: `free-${randomUUID().slice(0, 8)}@example.test`, from: other.from, subject: 'Free', body: '<p>Free</p>' })
      .expect(200);
    await stack.smtp.waitFor((m) => m.from === other.from);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(to.flatMap((a) => stack.smtp.to(a))).toEqual([]);
    const statuses = await sql<{ status: string }>(stack, 'select status from emails where id = any(?::uuid[])', [`{${ids.join(',')}}`]);
    expect(statuses.map((s) => s.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    expect(otherSend.body.data.emails).toHaveLength(1);

    await admin(stack).post(`/admin/projects/${t.project.id}/reinstate`).send({}).expect(200);
    for (const address of to) await stack.smtp.waitFor((m) => m.to.includes(address), 20_000);
    await waitFor('the three emails SENT', async () => {
      const rows = await sql<{ n: number }>(stack, `select count(*)::int as n from emails where id = any(?::uuid[]) and status = 'SENT'`, [
        `{${ids.join(',')}}`,
      ]);
      return rows[0]!.n === 3 ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(to.map((a) => stack.smtp.to(a).length)).toEqual([1, 1, 1]);
    expect((await security()).body.heldEmails).toBe(0);
  });
});
