import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { senderTenant } from '../helpers/tenants';
import { checkProject } from '../../src/modules/reputation/guard';
import { projectRow, sendTo, settledAll, simulator } from './helpers';

/**
 * Mail to the simulator domain is not reputation (docs/security.md "Simulated mail"): under the default
 * settings it is left out of the rates, analytics and billing, however much of it bounces. (The other files
 * of test/reputation count it, REPUTATION_COUNT_SIMULATED, to rehearse the guardrails.)
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, env: { SANDBOX_ENABLED: 'true', REPUTATION_MIN_SENT: '20' } });
});
afterAll(() => stack?.close());

describe('simulated mail, REPUTATION_COUNT_SIMULATED unset', () => {
  it('is marked at enqueue and left out of the rates, analytics and billing: 25 bounces suspend nothing', async () => {
    const t = await senderTenant(stack);
    const real = `reader-${randomUUID().slice(0, 8)}@example.test`;
    const bounces = await sendTo(
      t,
      Array.from({ length: 25 }, () => simulator('bounce')),
    );
    const delivered = await sendTo(t, [...Array.from({ length: 5 }, () => simulator('delivered')), real]);
    await settledAll(stack, bounces, 'BOUNCED');
    await settledAll(stack, delivered.slice(0, 5), 'DELIVERED');
    await stack.smtp.waitFor((m) => m.to.includes(real));

    const marks = await sql<{ simulated: boolean; n: number }>(
      stack,
      'select simulated, count(*)::int as n from emails where project_id = ? group by 1 order by 1',
      [t.project.id],
    );
    expect(marks).toEqual([
      { simulated: false, n: 1 },
      { simulated: true, n: 30 },
    ]);
    expect(await checkProject(stack.deps, t.project.id)).toBe('none');
    expect((await projectRow(stack, t.project.id)).disabled).toBe(false);

    const security = (await stack.http().get(`/projects/${t.project.id}/security`).set('Cookie', t.user.cookie).expect(200)).body;
    expect(security).toMatchObject({
      sent: 1,
      bounced: 0,
      bounceRate: 0,
      levels: { bounce: 'healthy', complaint: 'healthy' },
      simulated: { counted: false, leftOut: 30 },
    });
    const analytics = (await t.c.get('/analytics/timeseries').expect(200)).body.totals;
    expect(analytics).toMatchObject({ sent: 1, bounced: 0, delivered: 0 });
    const consumption = (
      await stack.http().get(`/users/@me/projects/${t.project.id}/billing-consumption`).set('Cookie', t.user.cookie).expect(200)
    ).body;
    expect(consumption.categories.TRANSACTIONAL.used).toBe(1);
    // The activity feed, a log rather than a figure, still lists what happened.
    const activity = (await t.c.get('/activity?limit=100').expect(200)).body;
    expect(activity.data.filter((a: { type: string }) => a.type === 'BOUNCED')).toHaveLength(25);
  });

  it('is not billed: a cap of 1 still lets simulated mail through, and stops the second real email', async () => {
    const t = await senderTenant(stack);
    await stack
      .http()
      .put(`/users/@me/projects/${t.project.id}/billing-limits`)
      .set('Cookie', t.user.cookie)
      .send({ limits: { TRANSACTIONAL: 1 } })
      .expect(200);
    await sendTo(
      t,
      Array.from({ length: 3 }, () => simulator('delivered')),
    );
    await sendTo(t, [`one-${randomUUID().slice(0, 8)}@example.test`, simulator('delivered')]);
    const refused = await t.c
      .post('/v1/send')
      .send({ to: `two-${randomUUID().slice(0, 8)}@example.test`, from: t.from, subject: 'Hello', body: '<p>Hello</p>' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'BILLING_LIMIT_EXCEEDED']);
  });
});
