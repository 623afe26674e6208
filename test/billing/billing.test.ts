import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { signupUser, type TestUser } from '../helpers/fixtures';
import { joinedUser } from '../helpers/members';
import { seedContact, seedEvents, sql } from '../helpers/seed';
import { enqueueEmails, type EmailDraft } from '../../src/modules/emails/enqueue';
import { recipient, send } from '../emails/helpers';
import { newTenant, campaignTenant } from '../helpers/tenants';
import { draftTo } from '../helpers/drafts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const as = (user: TestUser | null, req: ReturnType<ReturnType<TestStack['http']>['get']>) => (user ? req.set('Cookie', user.cookie) : req);
const limitsPath = (id: string) => `/users/@me/projects/${id}/billing-limits`;
const UNLIMITED = { TRANSACTIONAL: null, CAMPAIGN: null, WORKFLOW: null, INBOUND: null };

const storedLimits = (id: string) =>
  sql<{ billing_limits: Record<string, unknown> }>(stack, 'select billing_limits from projects where id = ?', [id]).then(
    (r) => r[0]!.billing_limits,
  );

describe('billing provider endpoints', () => {
  it.each([
    ['post', 'checkout'],
    ['post', 'billing-portal'],
    ['get', 'billing-invoices'],
  ] as const)('%s .../%s answers 404 BILLING_DISABLED to members, after the usual session checks', async (method, action) => {
    const { user, project } = await newTenant(stack);
    const path = `/users/@me/projects/${project.id}/${action}`;
    const res = await as(user, stack.http()[method](path));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'BILLING_DISABLED', statusCode: 404 });

    expect((await stack.http()[method](path)).status).toBe(401);
    const outsider = await signupUser(stack);
    expect((await as(outsider, stack.http()[method](path))).status).toBe(403);
    const unknown = await as(user, stack.http()[method](`/users/@me/projects/${randomUUID()}/${action}`));
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('answers the incoming billing webhook with 404 BILLING_DISABLED and ignores its body', async () => {
    const res = await stack
      .http()
      .post('/webhooks/incoming/payments')
      .set('Content-Type', 'application/json')
      .send('{"type":"invoice.paid"');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('BILLING_DISABLED');
  });

  it('agrees with /config that billing is off', async () => {
    expect((await stack.http().get('/config').expect(200)).body.billingEnabled).toBe(false);
  });
});

describe('billing limits', () => {
  it('are unlimited at first; an OWNER or ADMIN sets them per category, others keep their cap', async () => {
    const { user: owner, project } = await newTenant(stack);
    const admin = await joinedUser(stack, owner, project, 'ADMIN');
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    expect((await as(member, stack.http().get(limitsPath(project.id))).expect(200)).body).toEqual({ limits: UNLIMITED });

    const set = await as(owner, stack.http().put(limitsPath(project.id)))
      .send({ limits: { CAMPAIGN: 1000, TRANSACTIONAL: 0 } })
      .expect(200);
    expect(set.body).toEqual({ limits: { ...UNLIMITED, CAMPAIGN: 1000, TRANSACTIONAL: 0 } });
    const next = await as(admin, stack.http().put(limitsPath(project.id)))
      .send({ limits: { CAMPAIGN: null, INBOUND: 50 } })
      .expect(200);
    expect(next.body).toEqual({ limits: { TRANSACTIONAL: 0, CAMPAIGN: null, WORKFLOW: null, INBOUND: 50 } });
    expect((await as(member, stack.http().get(limitsPath(project.id))).expect(200)).body).toEqual(next.body);
    expect(await storedLimits(project.id)).toEqual(next.body.limits);
  });

  it('refuses a MEMBER, outsiders and bad caps, changing nothing', async () => {
    const { user: owner, project } = await newTenant(stack);
    await as(owner, stack.http().put(limitsPath(project.id)))
      .send({ limits: { WORKFLOW: 10 } })
      .expect(200);
    const before = await storedLimits(project.id);
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    const outsider = await signupUser(stack);

    const denied = await as(member, stack.http().put(limitsPath(project.id))).send({ limits: { WORKFLOW: 99 } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await as(outsider, stack.http().put(limitsPath(project.id))).send({ limits: { WORKFLOW: 99 } })).status).toBe(403);
    expect(
      (
        await stack
          .http()
          .put(limitsPath(project.id))
          .send({ limits: { WORKFLOW: 99 } })
      ).status,
    ).toBe(401);
    expect((await as(owner, stack.http().put(limitsPath(randomUUID()))).send({ limits: { WORKFLOW: 99 } })).status).toBe(404);

    for (const body of [
      {},
      { limits: { WORKFLOW: -1 } },
      { limits: { WORKFLOW: 1.5 } },
      { limits: { WORKFLOW: '10' } },
      { limits: { SMS: 10 } },
      { limits: [] },
    ]) {
      const res = await as(owner, stack.http().put(limitsPath(project.id))).send(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await storedLimits(project.id)).toEqual(before);
  });
});

describe('GET .../billing-consumption', () => {
  it('counts the email records of this calendar month per category (failed ones excepted), and inbound mail', async () => {
    const t = await campaignTenant(stack);
    const { user, project } = t;
    await as(user, stack.http().put(limitsPath(project.id)))
      .send({ limits: { CAMPAIGN: 2, TRANSACTIONAL: 100 } })
      .expect(200);
    const sent = await send(stack, project, {
      to: [recipient(), recipient(), recipient(), recipient()],
      from: t.from,
      subject: 'Hi',
      body: '<p>Hi</p>',
    }).expect(200);
    const [{ email: lastMonthsId }] = sent.body.data.emails;
    // No request can date an email in the past: this one is moved to the last second of last month.
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1000);
    await sql(stack, 'update emails set created_at = ? where id = ?', [lastMonth, lastMonthsId]);
    const contact = await seedContact(stack, project.id);
    const draft = (sourceType: 'CAMPAIGN' | 'WORKFLOW'): EmailDraft =>
      draftTo(project.id, contact, t.from, {
        sourceType,
        ...(sourceType === 'CAMPAIGN' ? { campaignId: randomUUID() } : { workflow: { executionId: randomUUID(), stepId: randomUUID() } }),
      });
    await enqueueEmails(stack.deps.orm.em.fork(), [...Array.from({ length: 5 }, () => draft('CAMPAIGN')), draft('WORKFLOW')]);
    // Inbound mail has no email record and no producer yet; it counts as its email.received events.
    await seedEvents(stack, project.id, contact.id, [{ name: 'email.received', count: 2 }]);
    const other = await newTenant(stack);
    await seedEvents(stack, other.project.id, (await seedContact(stack, other.project.id)).id, [{ name: 'email.received' }]);

    const res = await as(user, stack.http().get(`/users/@me/projects/${project.id}/billing-consumption`)).expect(200);
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(res.body).toEqual({
      period: { start: start.toISOString(), end: end.toISOString() },
      total: 11,
      categories: {
        TRANSACTIONAL: { used: 3, limit: 100, remaining: 97 },
        CAMPAIGN: { used: 5, limit: 2, remaining: 0 },
        WORKFLOW: { used: 1, limit: null, remaining: null },
        INBOUND: { used: 2, limit: null, remaining: null },
      },
    });
  });

  it('is open to every member and closed to others', async () => {
    const { user: owner, project } = await newTenant(stack);
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    const path = `/users/@me/projects/${project.id}/billing-consumption`;
    expect((await as(member, stack.http().get(path)).expect(200)).body.total).toBe(0);
    expect((await stack.http().get(path)).status).toBe(401);
    expect((await as(await signupUser(stack), stack.http().get(path))).status).toBe(403);
    expect((await as(owner, stack.http().get(`/users/@me/projects/${randomUUID()}/billing-consumption`))).status).toBe(404);
  });
});
