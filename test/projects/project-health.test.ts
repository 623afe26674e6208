import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { signupUser, type TestUser } from '../helpers/fixtures';
import { joinedUser } from '../helpers/members';
import { seedContact, seedEvents, seedSentEmails, sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const get = (user: TestUser | null, path: string) => {
  const req = stack.http().get(path);
  return user ? req.set('Cookie', user.cookie) : req;
};

const DAY = 24 * 3600_000;

describe('GET /projects/{id}/setup-state', () => {
  it('starts empty and follows domains, contacts, tracked events and sent email', async () => {
    const { user, project } = await newTenant(stack);
    const path = `/projects/${project.id}/setup-state`;
    expect((await get(user, path).expect(200)).body).toEqual({
      hasDomain: false,
      hasVerifiedDomain: false,
      hasContacts: false,
      contactCount: 0,
      hasTrackedEvent: false,
      hasSentEmail: false,
      emailsSent: 0,
      lastEmailSentAt: null,
    });

    const domain = await stack
      .http()
      .post('/domains')
      .set('Authorization', `Bearer ${project.secret}`)
      .send({ domain: `s-${randomUUID().slice(0, 8)}.example.test` })
      .expect(201);
    const contact = await seedContact(stack, project.id);
    await seedContact(stack, project.id);
    await seedEvents(stack, project.id, contact.id, [{ name: 'contact.subscribed' }, { name: 'segment.vips.entry' }]);
    let state = (await get(user, path).expect(200)).body;
    expect(state).toMatchObject({ hasDomain: true, hasVerifiedDomain: false, hasContacts: true, contactCount: 2, hasTrackedEvent: false });

    const sentAt = new Date(Date.now() - 60_000);
    await seedEvents(stack, project.id, contact.id, [
      { name: 'signed-up' },
      { name: 'email.sent', at: sentAt, data: { sourceType: 'TRANSACTIONAL' } },
    ]);
    await sql(stack, 'update domains set verified = true where id = ?', [domain.body.id]);
    state = (await get(user, path).expect(200)).body;
    expect(state).toMatchObject({
      hasVerifiedDomain: true,
      hasTrackedEvent: true,
      hasSentEmail: true,
      emailsSent: 1,
      lastEmailSentAt: sentAt.toISOString(),
    });
  });

  it('is open to every member and closed to others', async () => {
    const { user: owner, project } = await newTenant(stack);
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    await get(member, `/projects/${project.id}/setup-state`).expect(200);
    expect((await get(null, `/projects/${project.id}/setup-state`)).status).toBe(401);
    const outsider = await signupUser(stack);
    const denied = await get(outsider, `/projects/${project.id}/setup-state`);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await get(outsider, `/projects/${randomUUID()}/setup-state`)).status).toBe(404);
  });
});

describe('GET /projects/{id}/security and /users/@me/projects/{id}/security', () => {
  const paths = (id: string) => [`/projects/${id}/security`, `/users/@me/projects/${id}/security`];

  it('computes the rates over REPUTATION_WINDOW_DAYS from the emails that left: permanent bounces, complaints, simulated mail left out', async () => {
    const { user, project } = await newTenant(stack);
    const old = new Date(Date.now() - 8 * DAY);
    await seedSentEmails(stack, project.id, [
      { count: 157 },
      { count: 12, outcome: 'bounce' },
      // Transient: they left and count as sent, not as bounces.
      { count: 30, outcome: 'softbounce' },
      { count: 1, outcome: 'complaint' },
      // Outside the 7 days: never counted.
      { count: 50, at: old },
      { count: 50, at: old, outcome: 'bounce' },
      // To the simulator: left out (REPUTATION_COUNT_SIMULATED is false).
      { count: 40, outcome: 'bounce', simulated: true },
    ]);
    for (const path of paths(project.id)) {
      const res = await get(user, path).expect(200);
      expect(res.body).toMatchObject({
        projectId: project.id,
        disabled: false,
        disabledReason: null,
        sent: 200,
        bounced: 12,
        complained: 1,
        bounceRate: 6,
        complaintRate: 0.5,
        levels: { bounce: 'warning', complaint: 'critical' },
        thresholds: { bounceRate: { warning: 5, critical: 10 }, complaintRate: { warning: 0.1, critical: 0.5 } },
        minSent: 500,
        simulated: { counted: false, leftOut: 40 },
        heldEmails: 0,
        suspensions: [],
      });
      expect(res.body.window.days).toBe(7);
      const from = new Date(res.body.window.from).getTime();
      const to = new Date(res.body.window.to).getTime();
      // From the start of the hour seven days back: the rollup counts whole hours.
      expect(from % 3600_000).toBe(0);
      expect(to - from).toBeGreaterThanOrEqual(7 * DAY);
      expect(to - from).toBeLessThan(7 * DAY + 3600_000);
    }
  });

  it('answers zero rates and healthy levels for a project that sent nothing', async () => {
    const { user, project } = await newTenant(stack);
    const res = await get(user, paths(project.id)[0]!).expect(200);
    expect(res.body).toMatchObject({
      sent: 0,
      bounced: 0,
      complained: 0,
      bounceRate: 0,
      complaintRate: 0,
      levels: { bounce: 'healthy', complaint: 'healthy' },
    });
  });

  it('lists suspensions, newest first, whoever disabled the project', async () => {
    const { user, project } = await newTenant(stack);
    await sql(stack, `update projects set disabled = true, disabled_reason = 'bounce rate' where id = ?`, [project.id]);
    await sql(stack, `update projects set disabled = false, disabled_reason = null where id = ?`, [project.id]);
    await sql(stack, `update projects set disabled = true, disabled_reason = 'complaints' where id = ?`, [project.id]);
    const res = await get(user, paths(project.id)[1]!).expect(200);
    expect(res.body).toMatchObject({ disabled: true, disabledReason: 'complaints' });
    expect(res.body.suspensions).toEqual([
      { reason: 'complaints', by: 'operator', startedAt: expect.any(String), endedAt: null },
      { reason: 'bounce rate', by: 'operator', startedAt: expect.any(String), endedAt: expect.any(String) },
    ]);
    const [latest, earlier] = res.body.suspensions;
    expect(new Date(latest.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(earlier.endedAt).getTime());
  });

  it('is open to every member, on both paths, and closed to others', async () => {
    const { user: owner, project } = await newTenant(stack);
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    const outsider = await signupUser(stack);
    for (const path of paths(project.id)) {
      await get(member, path).expect(200);
      expect((await get(null, path)).status).toBe(401);
      expect((await get(outsider, path)).status).toBe(403);
    }
    for (const path of paths(randomUUID())) expect((await get(owner, path)).status).toBe(404);
  });
});
