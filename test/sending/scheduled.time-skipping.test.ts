import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { tenant, type SenderTenant } from '../helpers/tenants';
import { quietSenderTenant, sleeping } from '../helpers/time-skipping';
import { recipient, storedCounts } from '../emails/helpers';
import { bucketOf, scheduledEmailsWorkflowId } from '../../workflows/scheduled-emails/ids';
import { recordHistory } from './histories';
import { OVERDUE_MS, releaseOverdue } from '../../src/modules/emails/schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

jest.setTimeout(120_000);

let env: TestWorkflowEnvironment;
let stack: TestStack;
beforeAll(async () => {
  env = await timeSkippingEnv();
  stack = await startStack({
    temporal: gatewayFor(env, `scheduled-${randomBytes(4).toString('hex')}`),
    worker: (deps) => startWorker(deps, env.nativeConnection),
    pump: true,
  });
});
afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

/** The test server's clock, which runs ahead of the real one by the time earlier tests skipped. */
const inHours = async (hours: number) => new Date((await env.currentTimeMs()) + hours * HOUR);
/** Lets real time pass for workers to act on anything already due; nothing new is due without env.sleep. */
const settle = () => new Promise((r) => setTimeout(r, 1_000));

async function schedule(t: SenderTenant, to: string, sendAt: Date, extra: Record<string, unknown> = {}) {
  const res = await t.c
    .post('/v1/send')
    .send({ to, from: t.from, subject: 'Trial ends, {{ name }}', body: '<p>Plan {{ plan }}</p>', sendAt: sendAt.toISOString(), ...extra })
    .expect(200);
  const [sent] = res.body.data.emails;
  expect(sent.scheduledAt).toBe(sendAt.toISOString());
  await sleeping(env, timerOf(t, sendAt));
  return sent.email as string;
}

/** The workflow ID of the timer of the project's emails due within `at`'s second. */
const timerOf = (t: SenderTenant, at: Date) => scheduledEmailsWorkflowId(t.project.id, bucketOf(at));

const view = async (t: SenderTenant, id: string) => (await t.c.get(`/v1/emails/${id}`).expect(200)).body.data;

const reach = (t: SenderTenant, id: string, status: string) =>
  waitFor(`email ${id} to be ${status}`, async () => ((await view(t, id)).status === status ? view(t, id) : undefined), 30_000);

/** Waits for a timer's run to end. Not through result(), which would let the test server skip time unasked. */
const ended = (workflowId: string) =>
  waitFor(`the run of ${workflowId} to end`, async () =>
    (await env.client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED' ? true : undefined,
  );

describe('scheduled sends (time-skipping)', () => {
  it('waits SCHEDULED on a durable timer, listed as coming up, then leaves at sendAt, days ahead, without real waiting', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('trial');
    const at = await inHours(48);
    const id = await schedule(t, to, at, { tags: { flow: 'trial' } });
    expect(await view(t, id)).toMatchObject({ status: 'SCHEDULED', scheduledAt: at.toISOString(), sentAt: null, tags: { flow: 'trial' } });
    const upcoming = (await t.c.get('/activity/upcoming').expect(200)).body;
    expect(upcoming.emails).toEqual([
      {
        id,
        to,
        subject: 'Trial ends, ',
        scheduledAt: at.toISOString(),
        contact: { id: expect.any(String), email: to },
        tags: { flow: 'trial' },
      },
    ]);
    expect(upcoming.totals.emails).toBe(1);

    await env.sleep(48 * HOUR - 10 * MINUTE);
    await settle();
    expect((await view(t, id)).status).toBe('SCHEDULED');
    expect(stack.smtp.to(to)).toEqual([]);

    await env.sleep(20 * MINUTE);
    await ended(timerOf(t, at));
    const sent = await reach(t, id, 'SENT');
    expect(sent.scheduledAt).toBe(at.toISOString());
    expect(stack.smtp.to(to)).toHaveLength(1);
    expect((await t.c.get('/activity/upcoming').expect(200)).body.emails).toEqual([]);
    await recordHistory(env, timerOf(t, at), 'released-at-send-at');
  });

  it('gives the emails a project has due within one second one timer, which sends them all', async () => {
    const t = await quietSenderTenant(stack);
    const at = await inHours(5);
    const recipients = [recipient('one'), recipient('two'), recipient('three')];
    const items = recipients.map((to, i) => ({
      to,
      from: t.from,
      subject: 'Same second',
      body: '<p>Hi</p>',
      sendAt: new Date(at.getTime() + i * 200).toISOString(),
    }));
    await t.c.post('/v1/send/batch').send(items).expect(200);
    await sleeping(env, timerOf(t, at));
    expect((await t.c.get('/activity/upcoming').expect(200)).body.totals.emails).toBe(3);
    await env.sleep(6 * HOUR);
    await ended(timerOf(t, at));
    await waitFor(
      'the three emails to arrive',
      async () => (recipients.every((to) => stack.smtp.to(to).length === 1) ? true : undefined),
      30_000,
    );
  });

  it('renders the content and updates the contact when the request is taken, not when the email leaves', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('rendered');
    const id = await schedule(t, to, await inHours(2), { data: { plan: 'pro', name: 'Ann' } });
    const { contact } = await view(t, id);
    expect((await t.c.get(`/contacts/${contact.id as string}`).expect(200)).body.data).toMatchObject({ plan: 'pro', name: 'Ann' });
    await t.c
      .patch(`/contacts/${contact.id as string}`)
      .send({ data: { plan: 'free' } })
      .expect(200);
    await env.sleep(3 * HOUR);
    await reach(t, id, 'SENT');
    expect(stack.smtp.to(to)[0]!.raw).toContain('Plan pro');
  });

  it('is rescheduled later (the old time sends nothing) and earlier, and leaves once', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('moved');
    const id = await schedule(t, to, await inHours(24));
    const later = await inHours(48);
    expect((await t.c.patch(`/v1/emails/${id}`).send({ sendAt: later.toISOString() }).expect(200)).body.data).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: later.toISOString(),
    });
    await env.sleep(30 * HOUR);
    await settle();
    expect((await view(t, id)).status).toBe('SCHEDULED');
    expect(stack.smtp.to(to)).toEqual([]);

    const earlier = await inHours(2);
    await t.c.patch(`/v1/emails/${id}`).send({ sendAt: earlier.toISOString() }).expect(200);
    await env.sleep(3 * HOUR);
    await ended(timerOf(t, earlier));
    expect((await reach(t, id, 'SENT')).scheduledAt).toBe(earlier.toISOString());
    await env.sleep(24 * HOUR);
    await settle();
    expect(stack.smtp.to(to)).toHaveLength(1);
    // The first and second times' timers fired and found it due later, then sent: they released nothing.
    await ended(timerOf(t, later));
  });

  it('sends at once when rescheduled to a time past', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('now');
    const id = await schedule(t, to, await inHours(24));
    await t.c
      .patch(`/v1/emails/${id}`)
      .send({ sendAt: new Date(Date.now() - MINUTE).toISOString() })
      .expect(200);
    await reach(t, id, 'SENT');
    expect(stack.smtp.to(to)).toHaveLength(1);
  });

  it('is cancelled: CANCELLED, never sent (its timer finds nothing to release); then 409 for cancel and reschedule', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('cancelled');
    const at = await inHours(24);
    const id = await schedule(t, to, at);
    const used = async () =>
      (await stack.http().get(`/users/@me/projects/${t.project.id}/billing-consumption`).set('Cookie', t.user.cookie).expect(200)).body
        .categories.TRANSACTIONAL.used;
    // Counted when accepted, no longer once cancelled: it never leaves.
    expect(await used()).toBe(1);
    const cancelled = await t.c.post(`/v1/emails/${id}/cancel`).expect(200);
    expect(await used()).toBe(0);
    expect(cancelled.body).toEqual({ success: true, data: expect.objectContaining({ id, status: 'CANCELLED', sentAt: null }) });
    await env.sleep(48 * HOUR);
    await ended(timerOf(t, at));
    await recordHistory(env, timerOf(t, at), 'cancelled-nothing-to-release');
    await settle();
    expect((await view(t, id)).status).toBe('CANCELLED');
    expect(stack.smtp.to(to)).toEqual([]);
    expect((await t.c.post(`/v1/emails/${id}/cancel`).expect(409)).body.error).toMatchObject({
      code: 'CONFLICT',
      details: { status: 'CANCELLED' },
    });
    await t.c
      .patch(`/v1/emails/${id}`)
      .send({ sendAt: (await inHours(5)).toISOString() })
      .expect(409);
  });

  it('answers 409 to a reschedule or a cancel once the email left', async () => {
    const t = await quietSenderTenant(stack);
    const id = await schedule(t, recipient('left'), await inHours(1));
    await env.sleep(2 * HOUR);
    await reach(t, id, 'SENT');
    await t.c.post(`/v1/emails/${id}/cancel`).expect(409);
    const res = await t.c
      .patch(`/v1/emails/${id}`)
      .send({ sendAt: (await inHours(5)).toISOString() })
      .expect(409);
    expect(res.body.error.details).toEqual({ status: 'SENT' });
    // An email sent now was never SCHEDULED: 409 as well.
    const now = await t.c.post('/v1/send').send({ to: recipient(), from: t.from, subject: 'Now', body: '<p>Now</p>' }).expect(200);
    await t.c.post(`/v1/emails/${now.body.data.emails[0].email as string}/cancel`).expect(409);
  });

  it("answers 404 to another project's email, changing nothing", async () => {
    const t = await quietSenderTenant(stack);
    const id = await schedule(t, recipient('mine'), await inHours(24));
    const other = await tenant(stack);
    await other.c.get(`/v1/emails/${id}`).expect(404);
    await other.c.post(`/v1/emails/${id}/cancel`).expect(404);
    await other.c.patch(`/v1/emails/${id}`).send({ sendAt: new Date().toISOString() }).expect(404);
    expect((await view(t, id)).status).toBe('SCHEDULED');
    await t.c.post(`/v1/emails/${id}/cancel`).expect(200);
  });

  it('refuses a sendAt beyond 30 days or not a date-time with 422 naming sendAt; a past one sends now', async () => {
    const t = await quietSenderTenant(stack);
    const body = { to: recipient(), from: t.from, subject: 'S', body: '<p>B</p>' };
    for (const sendAt of [new Date(Date.now() + 31 * DAY).toISOString(), 'tomorrow', '2030-01-01', 1_700_000_000_000]) {
      const res = await t.c
        .post('/v1/send')
        .send({ ...body, sendAt })
        .expect(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['sendAt']);
    }
    expect((await storedCounts(stack, t.project.id)).emails).toBe(0);
    for (const sendAt of [new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 2_000).toISOString()]) {
      const res = await t.c
        .post('/v1/send')
        .send({ ...body, sendAt })
        .expect(200);
      expect(res.body.data.emails[0].scheduledAt).toBeNull();
    }
    const [{ id }] = await sql<{ id: string }>(stack, `select id from emails where project_id = ? limit 1`, [t.project.id]);
    await t.c.patch(`/v1/emails/${id}`).send({ sendAt: 'soon' }).expect(422);
  });

  it('holds back an email whose address was suppressed while it waited: SUPPRESSED when it is due', async () => {
    const t = await quietSenderTenant(stack);
    const to = recipient('suppressed');
    const id = await schedule(t, to, await inHours(6));
    await t.c
      .post('/suppressions')
      .send({ emails: [to] })
      .expect(200);
    await env.sleep(7 * HOUR);
    await reach(t, id, 'SUPPRESSED');
    expect(stack.smtp.to(to)).toEqual([]);
  });

  it('is released by the sweep when its timer missed it: a minute overdue by the database clock, not before', async () => {
    const t = await quietSenderTenant(stack);
    const [missed, late] = [recipient('missed'), recipient('late')];
    const at = await inHours(3);
    const ids = [await schedule(t, missed, at), await schedule(t, late, at)];
    // As if the requests had committed after their second's timer fired: no timer will release them.
    await sleeping(env, timerOf(t, at));
    await env.client.workflow.getHandle(timerOf(t, at)).terminate('a timer that missed its emails');
    // A SCHEDULED email's time is in two columns: scheduled_at for the record, release_at for the release (migration 0162).
    const overdueBy = (seconds: number, id: string) =>
      sql(
        stack,
        `update emails set scheduled_at = now() - make_interval(secs => ?), release_at = now() - make_interval(secs => ?) where id = ?`,
        [seconds, seconds, id],
      );
    await overdueBy(OVERDUE_MS / 1000 + 5, ids[0]!);
    await overdueBy(5, ids[1]!);
    // Not counted: a worker's housekeeping elsewhere on the database may have released it first.
    await releaseOverdue(stack.deps.orm.em);
    await reach(t, ids[0]!, 'SENT');
    expect(stack.smtp.to(missed)).toHaveLength(1);
    expect((await view(t, ids[1]!)).status).toBe('SCHEDULED');
    await t.c.post(`/v1/emails/${ids[1]!}/cancel`).expect(200);
  });
});
