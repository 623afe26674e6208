import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { startStack, type TestStack } from '../helpers/stack';
import { seedSentEmails, sql } from '../helpers/seed';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { createCampaign } from '../campaigns/helpers';
import { createWorkflow } from '../automation/helpers';
import { checkProject, sweepReputation } from '../../src/modules/reputation/guard';
import { waitFor } from '../helpers/wait';
import { suspensionOf } from '../../src/modules/reputation/suspension';
import { ADMIN_TOKEN, admin, projectRow, sendTo, settledAll, simulator, subjectsTo } from './helpers';
import { waitForMail } from '../helpers/mail';
import { hrefsOf, mailTo, pathOf, pixelOf } from '../tracking/helpers';

/**
 * The guardrails through HTTP against the real stack (docs/security.md): the simulator's addresses bounce and
 * complain on purpose, counted here (REPUTATION_COUNT_SIMULATED) over a small REPUTATION_MIN_SENT. Each check
 * runs when the simulator reports a bounce or complaint, through the code SNS feedback runs.
 */
const MIN_SENT = 20;
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    pump: true,
    env: { SANDBOX_ENABLED: 'true', REPUTATION_COUNT_SIMULATED: 'true', REPUTATION_MIN_SENT: String(MIN_SENT), ADMIN_TOKEN },
  });
});
afterAll(() => stack?.close());

/** A sender tenant whose project has a name of its own, which the owners' emails name. */
async function namedTenant(): Promise<SenderTenant & { name: string }> {
  const t = await senderTenant(stack);
  const name = `Shop ${randomUUID().slice(0, 6)}`;
  await stack.http().patch(`/users/@me/projects/${t.project.id}`).set('Cookie', t.user.cookie).send({ name }).expect(200);
  return { ...t, name };
}

const OUTCOME = { delivered: 'DELIVERED', bounce: 'BOUNCED', complaint: 'COMPLAINED' } as const;

/** Sends to simulator addresses, in this order, each group settled (its feedback recorded) before the next. */
async function sendInTurn(t: SenderTenant, groups: Array<[mailbox: keyof typeof OUTCOME, count: number]>) {
  for (const [mailbox, count] of groups) {
    const ids = await sendTo(
      t,
      Array.from({ length: count }, () => simulator(mailbox)),
    );
    await settledAll(stack, ids, OUTCOME[mailbox]);
  }
}

/**
 * The check that ran after the last feedback decided nothing visible: the same check run again says what it
 * found (it is idempotent), so that a test asserting that nothing happened does not depend on when it ran.
 */
const decided = (t: SenderTenant) => checkProject(stack.deps, t.project.id);

const suspended = (t: SenderTenant) =>
  waitFor('the project to be suspended', async () => ((await projectRow(stack, t.project.id)).disabled ? true : undefined));

const security = async (t: SenderTenant) =>
  (await stack.http().get(`/projects/${t.project.id}/security`).set('Cookie', t.user.cookie).expect(200)).body;

/** The owners' emails about the project whose subject says `word`. */
const noticesOf = async (t: SenderTenant & { name: string }, word: string) =>
  (await subjectsTo(stack, t.user.email)).filter((s) => s.includes(`"${t.name}"`) && s.includes(word));

describe(`automatic suspension (REPUTATION_MIN_SENT ${MIN_SENT}, simulated mail counted)`, () => {
  it('judges nothing before REPUTATION_MIN_SENT emails were sent in the window', async () => {
    const t = await namedTenant();
    await sendInTurn(t, [
      ['delivered', 2],
      ['bounce', 3],
    ]);
    expect((await security(t)).levels).toEqual({ bounce: 'critical', complaint: 'healthy' });
    expect(await decided(t)).toBe('none');
    expect(await projectRow(stack, t.project.id)).toEqual({ disabled: false, disabled_reason: null });
    expect(await noticesOf(t, 'warning')).toEqual([]);
  });

  it('warns the owners at the warning level, at most once in 24 hours, without suspending', async () => {
    const t = await namedTenant();
    await sendInTurn(t, [
      ['delivered', 19],
      ['bounce', 1],
    ]);
    const warning = await waitForMail(stack.smtp, t.user.email, /reputation warning/);
    expect(warning.subject).toBe(`Postwire project "${t.name}": reputation warning`);
    expect(warning.text).toContain('Bounce rate 5% over 7 days is above the warning level of 5%.');
    expect((await security(t)).bounceRate).toBe(5);
    // A second bounce, still at the warning level (2 of 21): no second email within the day.
    await sendInTurn(t, [['bounce', 1]]);
    expect((await security(t)).levels.bounce).toBe('warning');
    expect(await decided(t)).toBe('none');
    expect(await noticesOf(t, 'warning')).toEqual([`Postwire project "${t.name}": reputation warning`]);
    expect((await projectRow(stack, t.project.id)).disabled).toBe(false);

    // A day later (the mark moved back), the next bounce at the warning level warns again.
    await sql(stack, `update projects set reputation_warned_at = now() - interval '25 hours' where id = ?`, [t.project.id]);
    await sendInTurn(t, [
      ['delivered', 18],
      ['bounce', 1],
    ]);
    await waitFor('a second warning', async () => ((await noticesOf(t, 'warning')).length === 2 ? true : undefined));
    expect((await projectRow(stack, t.project.id)).disabled).toBe(false);
  });

  it('suspends at the critical bounce rate: the reason, the owners told, the history and the audit; another project keeps sending', async () => {
    const t = await namedTenant();
    const other = await senderTenant(stack);
    await sendInTurn(t, [['delivered', 18]]);
    const [first] = await sendTo(t, [simulator('bounce')]);
    await settledAll(stack, [first!], 'BOUNCED');
    expect(await decided(t)).toBe('none');
    // The 20th email and second bounce: 10%.
    const [critical] = await sendTo(t, [simulator('bounce')]);
    await settledAll(stack, [critical!], 'BOUNCED');
    await suspended(t);

    const reason = 'Bounce rate 10% over 7 days is above the critical level of 10%';
    expect(await projectRow(stack, t.project.id)).toEqual({ disabled: true, disabled_reason: reason });
    // From the bounce's record (its email.bounce event, written in the same transaction) to the suspension's.
    const [{ recorded_at, started_at }] = await sql<{ recorded_at: Date; started_at: Date }>(
      stack,
      `select ev.created_at as recorded_at, s.started_at from events ev, project_suspensions s
       where ev.name = 'email.bounce' and ev.data->>'emailId' = ? and s.project_id = ?`,
      [critical, t.project.id],
    );
    console.log(`critical bounce recorded → project suspended: ${new Date(started_at).getTime() - new Date(recorded_at).getTime()} ms`);

    const state = await security(t);
    expect(state).toMatchObject({ disabled: true, disabledReason: reason, sent: 20, bounced: 2, bounceRate: 10 });
    expect(state.suspensions).toEqual([{ reason, by: 'automatic', startedAt: expect.any(String), endedAt: null }]);
    const projects = await stack.http().get('/users/@me/projects').set('Cookie', t.user.cookie).expect(200);
    expect(projects.body.find((p: { id: string }) => p.id === t.project.id)).toMatchObject({ disabled: true, disabledReason: reason });
    const audit = (await admin(stack).get('/admin/audit?limit=100').expect(200)).body.data;
    expect(audit.find((a: { projectId: string }) => a.projectId === t.project.id)).toEqual({
      id: expect.any(String),
      action: 'suspend',
      projectId: t.project.id,
      reason,
      by: 'automatic',
      at: expect.any(String),
    });
    const notice = await waitForMail(stack.smtp, t.user.email, /was suspended/);
    expect(notice.subject).toBe(`Postwire project "${t.name}" was suspended`);
    expect(notice.text).toContain(`Reason: ${reason}`);
    expect(await suspensionOf(stack.deps.orm.em.fork(), t.project.id)).toEqual({ reason });

    // Another project is not touched.
    const ids = await sendTo(other, [simulator('delivered'), `reader-${randomUUID().slice(0, 8)}@example.test`]);
    await settledAll(stack, ids.slice(0, 1), 'DELIVERED');
    await stack.smtp.waitFor((m) => m.from === other.from);
    expect((await projectRow(stack, other.project.id)).disabled).toBe(false);
  });

  it('suspends at the critical complaint rate, naming it', async () => {
    const t = await namedTenant();
    await sendInTurn(t, [
      ['delivered', 19],
      ['complaint', 1],
    ]);
    await suspended(t);
    expect(await projectRow(stack, t.project.id)).toEqual({
      disabled: true,
      disabled_reason: 'Complaint rate 5% over 7 days is above the critical level of 0.5%',
    });
  });

  it('refuses every sending path of a suspended project with 403 PROJECT_DISABLED; the dashboard still reads it', async () => {
    const t = await namedTenant();
    const campaign = await createCampaign(t);
    const template = await t.c.post('/templates').send({ name: 'T', subject: 'S', body: '<p>B</p>', from: t.from }).expect(201);
    const workflow = await createWorkflow(t);
    await admin(stack).post(`/admin/projects/${t.project.id}/suspend`).send({ reason: 'Abuse report #12' }).expect(200);

    const refusals = [
      t.c.post('/v1/send').send({ to: 'a@example.test', from: t.from, subject: 'S', body: '<p>B</p>' }),
      t.c.post(`/campaigns/${campaign.id}/send`).send({}),
      t.c.post(`/campaigns/${campaign.id}/test`).send({ email: t.user.email }),
      t.c.post(`/workflows/${workflow.id}/executions`).send({ email: 'a@example.test' }),
      t.c.get('/contacts'),
      t.c.post('/templates').send({ name: 'T2', subject: 'S', body: '<p>B</p>', from: t.from }),
      t.c.track({ event: 'signed-up', email: 'a@example.test' }),
    ];
    for (const res of await Promise.all(refusals)) {
      expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([
        403,
        'PROJECT_DISABLED',
        'This project is suspended: Abuse report #12',
      ]);
    }
    const cookie = (req: Test) => req.set('Cookie', t.user.cookie).set('X-Project-Id', t.project.id);
    for (const res of await Promise.all([
      cookie(stack.http().post(`/campaigns/${campaign.id}/send`)).send({}),
      cookie(stack.http().post(`/campaigns/${campaign.id}/test`)).send({ email: t.user.email }),
      cookie(stack.http().post('/v1/send')).send({ to: 'a@example.test', from: t.from, subject: 'S', body: '<p>B</p>' }),
    ])) {
      expect([res.status, res.body.error?.code]).toEqual([403, 'PROJECT_DISABLED']);
    }
    await cookie(stack.http().get('/campaigns')).expect(200);
    await cookie(stack.http().get(`/templates/${template.body.id}`)).expect(200);
    expect((await sql(stack, 'select 1 from emails where project_id = ?', [t.project.id])).length).toBe(0);
    expect((await sql(stack, `select status from campaigns where id = ?`, [campaign.id]))[0]).toEqual({ status: 'DRAFT' });
  });

  it("keeps a suspended project's recipients' links working: the open pixel, a tracked link, the subscription pages", async () => {
    const t = await namedTenant();
    const to = `reader-${randomUUID().slice(0, 8)}@example.test`;
    const body = `<p>Read <a href="https://example.test/offer">the offer</a> <a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>`;
    const sent = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Links', body, subscribed: true }).expect(200);
    const emailId = sent.body.data.emails[0].email as string;
    const mail = await mailTo(stack, to);
    await admin(stack).post(`/admin/projects/${t.project.id}/suspend`).send({ reason: 'Review' }).expect(200);

    await stack
      .http()
      .get(pathOf(pixelOf(mail.html!)!))
      .expect(200);
    const links = hrefsOf(mail.html!).map(pathOf);
    const click = await stack.http().get(links.find((l) => l.startsWith('/t/c/'))!);
    expect([click.status, click.headers.location]).toEqual([302, 'https://example.test/offer']);
    const unsubscribe = links.find((l) => l.startsWith('/unsubscribe/'))!;
    expect((await stack.http().get(unsubscribe)).status).toBe(200);
    await stack.http().post(unsubscribe).type('form').send({}).expect(200);
    const [email] = await sql<{ opened: boolean; clicked: boolean }>(
      stack,
      'select opened_at is not null as opened, clicked_at is not null as clicked from emails where id = ?',
      [emailId],
    );
    expect(email).toEqual({ opened: true, clicked: true });
    const [contact] = await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where email = ? and project_id = ?', [
      to,
      t.project.id,
    ]);
    expect(contact!.subscribed).toBe(false);
  });

  it('after a reinstatement, waits until REPUTATION_MIN_SENT more were sent before suspending again', async () => {
    const t = await namedTenant();
    await sendInTurn(t, [
      ['delivered', 18],
      ['bounce', 2],
    ]);
    await suspended(t);
    await admin(stack).post(`/admin/projects/${t.project.id}/reinstate`).send({ reason: 'List cleaned' }).expect(200);
    const reinstated = await waitForMail(stack.smtp, t.user.email, /was reinstated/);
    expect(reinstated.subject).toBe(`Postwire project "${t.name}" was reinstated`);
    expect(reinstated.text).toContain('List cleaned');

    // 3 bounces in 21: still critical, but one email since the reinstatement.
    await sendInTurn(t, [['bounce', 1]]);
    expect((await security(t)).levels.bounce).toBe('critical');
    expect(await decided(t)).not.toBe('suspended');
    expect((await projectRow(stack, t.project.id)).disabled).toBe(false);
    // 19 since then: still held back; the 20th, the fifth bounce in 40: 12.5%.
    await sendInTurn(t, [
      ['delivered', 17],
      ['bounce', 1],
    ]);
    expect(await decided(t)).not.toBe('suspended');
    await sendInTurn(t, [['bounce', 1]]);
    await suspended(t);
    expect(await projectRow(stack, t.project.id)).toEqual({
      disabled: true,
      disabled_reason: 'Bounce rate 12.5% over 7 days is above the critical level of 10%',
    });
    const history = (await security(t)).suspensions.map((s: { by: string; endedAt: string | null }) => [s.by, s.endedAt === null]);
    expect(history).toEqual([
      ['automatic', true],
      ['automatic', false],
    ]);
  });

  it('runs the check every 5 minutes too (the sweep): a project whose figures crossed without a bounce being recorded', async () => {
    const t = await namedTenant();
    const quiet = await namedTenant();
    await seedSentEmails(stack, t.project.id, [{ count: 80 }, { count: 20, outcome: 'bounce' }]);
    await seedSentEmails(stack, quiet.project.id, [{ count: 100 }]);
    expect((await projectRow(stack, t.project.id)).disabled).toBe(false);
    const swept = await sweepReputation(stack.deps);
    expect(swept.suspended).toBeGreaterThanOrEqual(1);
    expect(await projectRow(stack, t.project.id)).toEqual({
      disabled: true,
      disabled_reason: 'Bounce rate 20% over 7 days is above the critical level of 10%',
    });
    expect((await projectRow(stack, quiet.project.id)).disabled).toBe(false);
    await waitForMail(stack.smtp, t.user.email, /was suspended/);
  });
});
