import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { msToNumber } from '@temporalio/common/lib/time';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { waitForMail } from '../helpers/mail';
import { createAutomationActivities } from '../../activities/automation';
import { AutomationExecution } from '../../src/modules/automations/entities';
import { splitBranch } from '../../src/modules/automations/run/random-split';
import { sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SplitBranch } from '../../workflows/automation/definition';
import { Contact } from '../../src/modules/contacts/entities';
import { recordHistory } from './histories';
import { reinstateByOperator } from '../../src/modules/reputation/guard';
import { suspendProject } from '../../src/modules/reputation/suspension';
import { timeSkippingEngine } from './engine';
import { HOLD_RECHECK } from '../../workflows/automation/ids';
import {
  addContact,
  addStep,
  allOf,
  chain,
  connect,
  createWorkflow,
  enable,
  executionIn,
  executionsOf,
  filter,
  getExecution,
  linearWorkflow,
  senderDomain,
  startExecution,
  waitingAt,
  type Body,
} from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let stack: TestStack;
let env: TestWorkflowEnvironment;
timeSkippingEngine((started) => ({ stack, env } = started));

const contactData = async (contactId: string) =>
  (
    await sql<{ data: Record<string, unknown>; subscribed: boolean }>(stack, 'select data, subscribed from contacts where id = ?', [
      contactId,
    ])
  )[0]!;

/** How the run ended in Temporal: it ends after the activity that wrote the execution's final status returns. */
async function temporalEnd(e: Body): Promise<string> {
  const run = env.client.workflow.getHandle(e.temporalWorkflowId as string);
  await run.result().catch(() => undefined);
  return (await run.describe()).status.name;
}
const temporalStatus = async (e: Body) => (await env.client.workflow.getHandle(e.temporalWorkflowId as string).describe()).status.name;

/** When the step the execution waits at began, as the database recorded it (GET answers count from it). */
const stepStartedAt = async (executionId: string) =>
  new Date(
    (await sql<{ step_started_at: string }>(stack, 'select step_started_at from automation_executions where id = ?', [executionId]))[0]!
      .step_started_at,
  );

const historyOf = (e: Body) => e.stepHistory as Array<Record<string, unknown> & { startedAt: string; completedAt: string | null }>;

/** Every event the project tracked so far has been handed to the engine. */
const eventsDispatched = (projectId: string) =>
  waitFor('the events to be dispatched', async () => {
    const [row] = await sql<{ n: string }>(stack, 'select count(*) as n from event_outbox where project_id = ?', [projectId]);
    return Number(row!.n) === 0 ? true : undefined;
  });

describe('step types (time-skipping)', () => {
  it('sleeps through a 3-day DELAY on a durable timer, then updates the contact by the custom-field rules', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test', { stage: 'new', old: 'x', keep: 'kept' });
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 3, unit: 'days' }],
      ['UPDATE_CONTACT', { data: { stage: 'nurtured', old: null, keep: '', coupon: { value: 'C-1', persistent: false } } }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId, context: { source: 'api' } });
    expect(started).toMatchObject({ status: 'RUNNING', resumesAt: null });
    const waiting = await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    // Where it waits, every read says when the DELAY ends: three days after the step began, dated by the write that
    // put it WAITING just before the timer started (not by the record's creation, before the workflow ran).
    const began = await stepStartedAt(started.id);
    expect(began.getTime()).toBeGreaterThan(Date.parse(started.startedAt as string));
    const resumesAt = new Date(began.getTime() + 3 * DAY).toISOString();
    expect(waiting).toMatchObject({ status: 'WAITING', currentStep: { type: 'DELAY' }, waitingFor: null, resumesAt });
    expect((await t.c.get(`/executions/${started.id}`).expect(200)).body.resumesAt).toBe(resumesAt);
    expect((await executionsOf(t, workflow.id)).map((e) => e.resumesAt)).toEqual([resumesAt]);
    // Another project cannot read it.
    const other = await tenant(stack);
    await other.c.get(`/executions/${started.id}`).expect(404);
    await other.c.get(`/workflows/${workflow.id}/executions/${started.id}`).expect(404);

    await env.sleep(3 * DAY + MINUTE);
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    expect(done).toMatchObject({ currentStepId: null, exitReason: null, error: null, context: { source: 'api', coupon: 'C-1' } });
    expect(done.resumesAt).toBeNull();
    const [delay, update] = historyOf(done);
    expect(delay).toMatchObject({ stepId: stepIds[0], type: 'DELAY', status: 'COMPLETED', error: null });
    expect(Date.parse(delay!.completedAt!) - Date.parse(delay!.startedAt)).toBeGreaterThanOrEqual(3 * DAY);
    expect(update).toMatchObject({
      stepId: stepIds[1],
      type: 'UPDATE_CONTACT',
      status: 'COMPLETED',
      output: { subscriptionChanged: null },
    });
    expect((await contactData(contactId)).data).toEqual({ stage: 'nurtured', keep: 'kept' });
    expect(await temporalEnd(done)).toBe('COMPLETED');
    await recordHistory(env, done, 'delay-update-contact');
  });

  it('resumes a WAIT_FOR_EVENT on the awaited event, merges its data into the context, and branches on it', async () => {
    const t = await tenant(stack);
    const ann = await addContact(t, 'ann@example.test', { plan: 'pro' });
    const bob = await addContact(t, 'bob@example.test', { plan: 'pro' });
    const workflow = await createWorkflow(t, { eventName: 'signup' });
    const step = async (type: string, config: object) => (await addStep(t, workflow.id, type, config)).id;
    const wait = await step('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 86_400 });
    const check = await step('CONDITION', allOf(filter('event.amount', 'greaterThan', 100), filter('data.plan', 'equals', 'pro')));
    const upgrade = await step('UPDATE_CONTACT', { data: { tier: 'gold' } });
    const small = await step('EXIT', { reason: 'small order' });
    await connect(t, workflow.id, wait, check);
    await connect(t, workflow.id, check, upgrade, { branch: 'yes' });
    await connect(t, workflow.id, check, small, { branch: 'no' });
    await enable(t, workflow.id);

    await t.c.track({ email: 'ann@example.test', event: 'signup', data: { source: 'ad' } }).expect(200);
    await t.c.track({ email: 'bob@example.test', event: 'signup', data: { source: 'blog' } }).expect(200);
    const execution = async (contactId: string) =>
      waitFor('the triggered execution', async () => (await executionsOf(t, workflow.id)).find((e) => e.contactId === contactId));
    const annExecution = await execution(ann);
    const bobExecution = await execution(bob);
    expect(annExecution).toMatchObject({ context: { source: 'ad' }, triggerEventId: expect.any(String) });
    await waitingAt(t, workflow.id, annExecution.id, wait);
    expect((await getExecution(t, workflow.id, annExecution.id)).waitingFor).toBe('paid');
    await waitingAt(t, workflow.id, bobExecution.id, wait);

    // Another contact's event does not count.
    await t.c.track({ email: 'cat@example.test', event: 'paid', data: { amount: 999 } }).expect(200);
    const paid = (await t.c.track({ email: 'ann@example.test', event: 'paid', data: { amount: 250 } }).expect(200)).body.data.event;
    const annDone = await executionIn(t, workflow.id, annExecution.id, ['COMPLETED']);
    expect(annDone.context).toEqual({ source: 'ad', amount: 250 });
    expect(historyOf(annDone).map((h) => [h.type, h.status, h.output])).toEqual([
      ['WAIT_FOR_EVENT', 'COMPLETED', { eventId: paid, eventName: 'paid', data: { amount: 250 } }],
      ['CONDITION', 'COMPLETED', { branch: 'yes' }],
      ['UPDATE_CONTACT', 'COMPLETED', { subscriptionChanged: null }],
    ]);
    // /v1/track stores its data on the contact as well; the step added the tier.
    expect((await contactData(ann)).data).toEqual({ plan: 'pro', source: 'ad', amount: 250, tier: 'gold' });
    expect((await getExecution(t, workflow.id, bobExecution.id)).status).toBe('WAITING');

    await t.c.track({ email: 'bob@example.test', event: 'paid', data: { amount: 50 } }).expect(200);
    const bobDone = await executionIn(t, workflow.id, bobExecution.id, ['EXITED']);
    expect(bobDone).toMatchObject({ exitReason: 'small order', context: { source: 'blog', amount: 50 } });
    expect(historyOf(bobDone).map((h) => [h.type, h.output])).toEqual([
      ['WAIT_FOR_EVENT', expect.objectContaining({ eventName: 'paid' })],
      ['CONDITION', { branch: 'no' }],
      ['EXIT', null],
    ]);
    expect((await contactData(bob)).data).toEqual({ plan: 'pro', source: 'blog', amount: 50 });
    await recordHistory(env, annDone, 'trigger-wait-event-condition-yes');
    await recordHistory(env, bobDone, 'trigger-wait-event-condition-exit');
  });

  it('decides a CONDITION saved before any contact had its data, by the types inferred since (docs/filters.md)', async () => {
    const t = await tenant(stack);
    const workflow = await createWorkflow(t, { eventName: 'signup' });
    const step = async (type: string, config: object) => (await addStep(t, workflow.id, type, config)).id;
    const isPro = await step('CONDITION', allOf(filter('data.plan', 'equals', 'pro')));
    const manySeats = await step('CONDITION', allOf(filter('data.seats', 'greaterThan', 5)));
    const gold = await step('UPDATE_CONTACT', { data: { tier: 'gold' } });
    const notPro = await step('EXIT', { reason: 'not pro' });
    const fewSeats = await step('EXIT', { reason: 'few seats' });
    await connect(t, workflow.id, isPro, manySeats, { branch: 'yes' });
    await connect(t, workflow.id, isPro, notPro, { branch: 'no' });
    await connect(t, workflow.id, manySeats, gold, { branch: 'yes' });
    await connect(t, workflow.id, manySeats, fewSeats, { branch: 'no' });
    await enable(t, workflow.id);

    // ann's values are the project's first: `plan` is typed string, `seats` number; cat's "3" reads as a number.
    const signups: Array<[string, Record<string, unknown>]> = [
      ['ann@example.test', { plan: 'pro', seats: 10 }],
      ['bob@example.test', { plan: 'free', seats: 50 }],
      ['cat@example.test', { plan: 'pro', seats: '3' }],
    ];
    for (const [email, data] of signups) await t.c.track({ email, event: 'signup', data }).expect(200);
    const outcome = async (email: string) => {
      const [contact] = await sql<{ id: string }>(stack, 'select id from contacts where project_id = ? and email = ?', [
        t.project.id,
        email,
      ]);
      const started = await waitFor('the triggered execution', async () =>
        (await executionsOf(t, workflow.id)).find((e) => e.contactId === contact!.id),
      );
      const done = await executionIn(t, workflow.id, started.id, ['COMPLETED', 'EXITED', 'FAILED']);
      return [done.status, done.exitReason, historyOf(done).map((h) => [h.stepId, h.output])];
    };
    expect(await outcome('ann@example.test')).toEqual([
      'COMPLETED',
      null,
      [
        [isPro, { branch: 'yes' }],
        [manySeats, { branch: 'yes' }],
        [gold, { subscriptionChanged: null }],
      ],
    ]);
    expect(await outcome('bob@example.test')).toEqual([
      'EXITED',
      'not pro',
      [
        [isPro, { branch: 'no' }],
        [notPro, null],
      ],
    ]);
    expect(await outcome('cat@example.test')).toEqual([
      'EXITED',
      'few seats',
      [
        [isPro, { branch: 'yes' }],
        [manySeats, { branch: 'no' }],
        [fewSeats, null],
      ],
    ]);
  });

  it('takes the TIMEOUT transition when the wait times out, and completes where there is none', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test');
    const withPath = await createWorkflow(t, { name: 'Nudge' });
    const [wait, nudge] = await chain(t, withPath.id, [['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 2 * 86_400 }]]).then(
      async ([w]) => [
        w!,
        (
          await t.c
            .post(`/workflows/${withPath.id}/steps`)
            .send({ type: 'UPDATE_CONTACT', config: { data: { nudged: true } } })
            .expect(201)
        ).body.id,
      ],
    );
    await connect(t, withPath.id, wait!, nudge, { outcome: 'TIMEOUT' });
    await enable(t, withPath.id);
    const without = await linearWorkflow(
      t,
      [
        ['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 60 }],
        ['UPDATE_CONTACT', { data: { paid: true } }],
      ],
      { name: 'Plain' },
    );

    const a = await startExecution(t, withPath.id, { contactId });
    const b = await startExecution(t, without.workflow.id, { contactId });
    const waitingA = await waitingAt(t, withPath.id, a.id, wait!);
    const waitingB = await waitingAt(t, without.workflow.id, b.id, without.stepIds[0]!);
    // A wait with a timeout says when it gives up.
    expect(waitingA).toMatchObject({
      waitingFor: 'paid',
      resumesAt: new Date((await stepStartedAt(a.id)).getTime() + 2 * DAY).toISOString(),
    });
    expect(waitingB.resumesAt).toBe(new Date((await stepStartedAt(b.id)).getTime() + MINUTE).toISOString());

    await env.sleep(2 * DAY + MINUTE);
    const timedOut = await executionIn(t, withPath.id, a.id, ['COMPLETED']);
    expect(historyOf(timedOut).map((h) => [h.type, h.output])).toEqual([
      ['WAIT_FOR_EVENT', { timedOut: true }],
      ['UPDATE_CONTACT', { subscriptionChanged: null }],
    ]);
    const plain = await executionIn(t, without.workflow.id, b.id, ['COMPLETED']);
    expect(historyOf(plain).map((h) => h.type)).toEqual(['WAIT_FOR_EVENT']);
    expect((await contactData(contactId)).data).toEqual({ nudged: true });
    await recordHistory(env, timedOut, 'wait-timeout');
  });

  it('sends a SEND_EMAIL step through the delivery path, rendered with the contact and the context', async () => {
    const t = await tenant(stack);
    const domain = await senderDomain(stack, t.project);
    const template = await t.c
      .post('/templates')
      .send({
        name: 'Welcome',
        subject: 'Welcome {{ name }}',
        body: '<p>Your code: {{ coupon }}</p>',
        from: `hello@${domain}`,
        type: 'TRANSACTIONAL',
      })
      .expect(201);
    const contactId = await addContact(t, 'reader@example.test', { name: 'Ann' });
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['SEND_EMAIL', { templateId: template.body.id, tags: { flow: 'welcome' } }],
      ['SEND_EMAIL', { templateId: template.body.id, recipient: { type: 'CUSTOM', email: 'ops@example.test' } }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId, context: { coupon: 'WELCOME10' } });
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    const [toContact, toOps] = historyOf(done);
    expect(toContact!.output).toEqual({ emailId: expect.any(String), to: 'reader@example.test' });
    expect(toOps!.output).toEqual({ emailId: expect.any(String), to: 'ops@example.test' });
    const rows = await sql<{
      id: string;
      contact_id: string | null;
      source_type: string;
      workflow_execution_id: string;
      workflow_step_id: string;
      tags: Record<string, string>;
    }>(
      stack,
      'select id, contact_id, source_type, workflow_execution_id, workflow_step_id, tags from emails where project_id = ? order by to_address desc',
      [t.project.id],
    );
    expect(rows).toEqual([
      {
        id: (toContact!.output as { emailId: string }).emailId,
        contact_id: contactId,
        source_type: 'WORKFLOW',
        workflow_execution_id: started.id,
        workflow_step_id: stepIds[0],
        tags: { flow: 'welcome' },
      },
      {
        id: (toOps!.output as { emailId: string }).emailId,
        contact_id: null,
        source_type: 'WORKFLOW',
        workflow_execution_id: started.id,
        workflow_step_id: stepIds[1],
        tags: {},
      },
    ]);
    const mail = await waitForMail(stack.smtp, 'reader@example.test', /Welcome Ann/);
    expect(mail.html).toContain('Your code: WELCOME10');
    await waitForMail(stack.smtp, 'ops@example.test', /Welcome Ann/);

    // The step run again (an activity retried after a lost completion) finds its email instead of making another.
    const em = stack.deps.orm.em.fork();
    const live = {
      execution: await em.findOneOrFail(AutomationExecution, { id: started.id }),
      contact: await em.findOneOrFail(Contact, { id: contactId }),
    };
    const again = await sendStepEmail(
      stack.deps.config,
      em,
      live,
      { id: stepIds[0]!, config: { templateId: template.body.id } },
      { coupon: 'WELCOME10' },
      new Date(),
    );
    expect(again).toEqual(toContact!.output);
    expect(await sql(stack, 'select id from emails where workflow_execution_id = ?', [started.id])).toHaveLength(2);
    // A late attempt of the activity (an earlier state of the run) changes nothing and stands down.
    const [before] = await sql(stack, 'select * from automation_executions where id = ?', [started.id]);
    const state = {
      executionId: started.id,
      seq: 1,
      status: 'RUNNING' as const,
      currentStepId: stepIds[0]!,
      stepBegins: false,
      waitingFor: null,
      context: {},
      history: [],
      exitReason: null,
      error: null,
      ended: false,
      temporalRunId: 'stale',
    };
    const stale = await createAutomationActivities(stack.deps)
      .sendAutomationEmail({ executionId: started.id, stepId: stepIds[0]!, config: { templateId: template.body.id }, context: {}, state })
      .catch((err: unknown) => err);
    expect(await sql(stack, 'select * from automation_executions where id = ?', [started.id])).toEqual([before]);
    expect(stale).toMatchObject({ type: 'ExecutionGone', nonRetryable: true });
    await recordHistory(env, done, 'send-email');
  });

  it('fails the execution with the error when a step cannot succeed', async () => {
    const t = await tenant(stack);
    const domain = await senderDomain(stack, t.project);
    const template = (
      await t.c
        .post('/templates')
        .send({ name: 'T', subject: 'S', body: '<p>B</p>', from: `hello@${domain}` })
        .expect(201)
    ).body;
    const contactId = await addContact(t, 'ann@example.test');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'hours' }],
      ['SEND_EMAIL', { templateId: template.id }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    // The API refuses to delete a template in use; a template that is gone all the same fails the step.
    await sql(stack, 'delete from templates where id = ?', [template.id]);
    await env.sleep(2 * 60 * MINUTE);
    const failed = await executionIn(t, workflow.id, started.id, ['FAILED']);
    expect(failed.error).toBe(`Template ${template.id} no longer exists`);
    expect(failed.currentStepId).toBe(stepIds[1]);
    expect(historyOf(failed)[1]).toMatchObject({ type: 'SEND_EMAIL', status: 'FAILED', error: `Template ${template.id} no longer exists` });
    expect(await temporalEnd(failed)).toBe('FAILED');
    expect(await sql(stack, 'select id from emails where workflow_execution_id = ?', [started.id])).toEqual([]);
    await recordHistory(env, failed, 'failed-step');
  });
});

describe('RANDOM_SPLIT (time-skipping)', () => {
  it('sends each contact down the branch its id and the step decide, the same one on every entry', async () => {
    const t = await tenant(stack);
    const workflow = await createWorkflow(t, { name: 'Subject test', allowReentry: true });
    const branches = {
      branches: [
        { weight: 1, label: 'Subject A' },
        { weight: 1, label: 'Subject B' },
      ],
    };
    const split = (await addStep(t, workflow.id, 'RANDOM_SPLIT', branches)).id;
    const delay = (await addStep(t, workflow.id, 'DELAY', { amount: 1, unit: 'days' })).id;
    const a = (await addStep(t, workflow.id, 'UPDATE_CONTACT', { data: { variant: 'A' } })).id;
    const b = (await addStep(t, workflow.id, 'EXIT', { reason: 'variant B' })).id;
    await connect(t, workflow.id, split, delay, { branch: 'A' });
    await connect(t, workflow.id, delay, a);
    await connect(t, workflow.id, split, b, { branch: 'B' });
    await enable(t, workflow.id);

    // Contacts until each branch has two, by the decision itself: which branch a contact takes is its id's.
    const contacts: Array<{ id: string; branch: SplitBranch }> = [];
    for (let i = 0; contacts.filter((c) => c.branch === 'A').length < 2 || contacts.filter((c) => c.branch === 'B').length < 2; i++) {
      const id = await addContact(t, `c${i}@example.test`);
      contacts.push({ id, branch: splitBranch(branches, split, id) });
    }
    const started = await Promise.all(contacts.map((c) => startExecution(t, workflow.id, { contactId: c.id })));
    const toA = started.filter((_, i) => contacts[i]!.branch === 'A');
    for (const e of toA) await waitingAt(t, workflow.id, e.id, delay);
    await env.sleep(DAY + MINUTE);
    const ended = await Promise.all(started.map((e) => executionIn(t, workflow.id, e.id, ['COMPLETED', 'EXITED'])));
    ended.forEach((e, i) => {
      const { branch } = contacts[i]!;
      expect([e.status, historyOf(e)[0]!.output]).toEqual([branch === 'A' ? 'COMPLETED' : 'EXITED', { branch }]);
    });
    for (const c of contacts) expect((await contactData(c.id)).data).toEqual(c.branch === 'A' ? { variant: 'A' } : {});

    // A second entry of a B contact takes B again.
    const again = contacts.find((c) => c.branch === 'B')!;
    const second = await startExecution(t, workflow.id, { contactId: again.id });
    expect(historyOf(await executionIn(t, workflow.id, second.id, ['EXITED']))[0]!.output).toEqual({ branch: 'B' });
    await recordHistory(env, ended[contacts.findIndex((c) => c.branch === 'A')]!, 'random-split-delay');
  });
});

describe('DELAY until a local time (time-skipping)', () => {
  /** Local wall time in a zone, by the runtime's zone data: `2027-03-15 09:00`. */
  const wall = (ms: number, timeZone: string) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  /** New York's offset from UTC at an instant, in ms. */
  const newYorkOffset = (ms: number) =>
    Date.parse(`${wall(ms, 'America/New_York').replace(' ', 'T')}:00Z`) - Math.floor(ms / MINUTE) * MINUTE;

  it("lands at 09:00 in the contact's America/New_York across a DST change, and at 09:00 of the project's zone without one", async () => {
    const t = await tenant(stack);
    await stack
      .http()
      .patch(`/users/@me/projects/${t.project.id}`)
      .set('Cookie', t.user.cookie)
      .send({ timeZone: 'Asia/Tokyo' })
      .expect(200);
    const ny = await addContact(t, 'ny@example.test', { timezone: 'America/New_York' });
    const bad = await addContact(t, 'nowhere@example.test', { timezone: 'Mars/Olympus' });
    // The days to New York's next clock change on the test server's clock, so that the delay ends past it.
    const now = await env.currentTimeMs();
    let days = 1;
    while (newYorkOffset(now + days * DAY) === newYorkOffset(now)) days++;
    const { workflow, stepIds } = await linearWorkflow(t, [['DELAY', { amount: days, unit: 'days', until: '09:00' }]]);
    const started = [await startExecution(t, workflow.id, { contactId: ny }), await startExecution(t, workflow.id, { contactId: bad })];
    for (const e of started) await waitingAt(t, workflow.id, e.id, stepIds[0]!);
    await env.sleep((days + 2) * DAY);
    const [inNy, inTokyo] = await Promise.all(started.map((e) => executionIn(t, workflow.id, e.id, ['COMPLETED'])));
    for (const [e, zone] of [
      [inNy!, 'America/New_York'],
      [inTokyo!, 'Asia/Tokyo'],
    ] as const) {
      const [step] = historyOf(e);
      const until = Date.parse((step!.output as { until: string }).until);
      expect(wall(until, zone)).toMatch(/ 09:00$/);
      // The first such 09:00 after the days: less than a day after them.
      const after = Date.parse(step!.startedAt) + days * DAY;
      expect(until - after).toBeGreaterThan(0);
      expect(until - after).toBeLessThanOrEqual(DAY);
      // The timer fires at the instant; the test server's clock moves on a little while the task runs.
      const late = Date.parse(step!.completedAt!) - until;
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(MINUTE);
    }
    // New York's offset changed in between: 09:00 was found by the offset of its own day.
    const [nyStep] = historyOf(inNy!);
    const nyUntil = Date.parse((nyStep!.output as { until: string }).until);
    expect(newYorkOffset(nyUntil)).not.toBe(newYorkOffset(Date.parse(nyStep!.startedAt)));
    await recordHistory(env, inNy!, 'delay-until-local-time');
  });

  it('answers the exact instant the timer ends as resumesAt, in every read and in GET /activity/upcoming', async () => {
    const t = await tenant(stack);
    const ny = await addContact(t, 'ny-resumes@example.test', { timezone: 'America/New_York' });
    const { workflow, stepIds } = await linearWorkflow(t, [['DELAY', { amount: 1, unit: 'days', until: '09:00' }]]);
    const started = await startExecution(t, workflow.id, { contactId: ny });
    const waiting = await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    // The first 09:00 of New York's clocks after the step's start plus a day, found here by the zone data alone.
    const after = Date.parse(historyOf(waiting)[0]!.startedAt) + DAY;
    let expected = Math.ceil(after / MINUTE) * MINUTE;
    while (!wall(expected, 'America/New_York').endsWith(' 09:00')) expected += MINUTE;
    const resumesAt = new Date(expected).toISOString();
    expect(waiting).toMatchObject({ status: 'WAITING', currentStep: { type: 'DELAY' }, waitingFor: null, resumesAt });
    expect((await t.c.get(`/executions/${started.id}`).expect(200)).body.resumesAt).toBe(resumesAt);
    expect((await executionsOf(t, workflow.id)).map((e) => e.resumesAt)).toEqual([resumesAt]);
    const upcoming = (await t.c.get('/activity/upcoming').expect(200)).body as { executions: Body[] };
    expect(upcoming.executions).toEqual([
      expect.objectContaining({ id: started.id, status: 'WAITING', step: expect.objectContaining({ type: 'DELAY' }), resumesAt }),
    ]);

    // A skip well past the instant (nothing races the timer): the timer fired at the instant resumesAt named.
    await env.sleep(3 * DAY);
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    expect(done.resumesAt).toBeNull();
    const [step] = historyOf(done);
    expect(step!.output).toEqual({ until: resumesAt });
    expect(Date.parse(step!.completedAt!)).toBeGreaterThanOrEqual(expected);
    expect((await t.c.get('/activity/upcoming').expect(200)).body.executions).toEqual([]);
  });
});

describe('SEND_EMAIL quiet hours (time-skipping)', () => {
  it("waits out the quiet hours of the contact's zone, then sends once; outside them it sends at once", async () => {
    const t = await tenant(stack);
    const domain = await senderDomain(stack, t.project);
    const template = await t.c
      .post('/templates')
      .send({ name: 'Hello', subject: 'Hello', body: '<p>Hi</p>', from: `hello@${domain}`, type: 'TRANSACTIONAL' })
      .expect(201);
    // A window from an hour before the test server's time to two hours after it, in UTC; Tokyo (+9) is outside it.
    const now = await env.currentTimeMs();
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const quietHours = { from: hhmm(now - 60 * MINUTE), to: hhmm(now + 120 * MINUTE) };
    const quiet = await addContact(t, 'night@example.test', { timezone: 'UTC' });
    const awake = await addContact(t, 'day@example.test', { timezone: 'Asia/Tokyo' });
    const { workflow, stepIds } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: template.body.id, quietHours }]]);
    const waiting = await startExecution(t, workflow.id, { contactId: quiet });
    const sent = await executionIn(t, workflow.id, (await startExecution(t, workflow.id, { contactId: awake })).id, ['COMPLETED']);
    expect(historyOf(sent)[0]!.output).toEqual({ emailId: expect.any(String), to: 'day@example.test' });
    const held = await waitingAt(t, workflow.id, waiting.id, stepIds[0]!);
    expect(historyOf(held)[0]).toMatchObject({ status: 'WAITING', output: null });
    // It names when the window ends: the minute `to` names, about two hours on.
    expect(hhmm(Date.parse(String(held.resumesAt)))).toBe(quietHours.to);
    expect(Date.parse(String(held.resumesAt)) - now).toBeGreaterThan(119 * MINUTE);
    const emailsTo = async (to: string) =>
      (await sql(stack, 'select id from emails where project_id = ? and to_address = ?', [t.project.id, to])).length;
    expect(await emailsTo('night@example.test')).toBe(0);

    await env.sleep(121 * MINUTE);
    const done = await executionIn(t, workflow.id, waiting.id, ['COMPLETED']);
    const [step] = historyOf(done);
    expect(step!.output).toEqual({ emailId: expect.any(String), to: 'night@example.test' });
    // Sent at the end of the window (the minute `to` names), in one step of the history.
    expect(hhmm(Date.parse(step!.completedAt!))).toBe(quietHours.to);
    expect(Date.parse(step!.completedAt!) - now).toBeGreaterThan(119 * MINUTE);
    expect(historyOf(done)).toHaveLength(1);
    expect(await emailsTo('night@example.test')).toBe(1);
    await recordHistory(env, done, 'send-email-quiet-hours');
  });
});

describe('SEND_EMAIL while the project is suspended (time-skipping)', () => {
  // Its timeout exceeds its waits' deadlines added up (about 90 s): on a loaded machine, a slow wait says which it was.
  it('queues the email, which is held, waits at the step, and goes on once the project is reinstated: the email sent once', async () => {
    const t = await tenant(stack);
    const domain = await senderDomain(stack, t.project);
    const template = (
      await t.c
        .post('/templates')
        .send({ name: 'T', subject: 'Held welcome', body: '<p>B</p>', from: `hello@${domain}` })
        .expect(201)
    ).body;
    const address = `held-${t.project.id.slice(0, 8)}@example.test`;
    const contactId = await addContact(t, address);
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'hours' }],
      ['SEND_EMAIL', { templateId: template.id }],
      ['DELAY', { amount: 1, unit: 'hours' }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    await suspendProject(stack.deps.orm.em.fork(), t.project.id, 'Abuse report', 'operator');
    // The skip lands halfway between two of the hold's rechecks (after five), so that the reinstatement's signal
    // below cancels a recheck timer due minutes later. Landing on one (1 h + 6 rechecks), the signal's workflow
    // task (two local activities: seconds on a loaded machine) raced it; a task that cancels a timer which fired
    // while the task was with the worker is refused by the time-skipping server ("invalid history builder state
    // for action", temporalio/sdk-java#2606 and #3088) and never timed out nor sent again, so its lock on time
    // skipping stayed: this test's next skip, and every later one in the file, waited in real time.
    await env.sleep(60 * MINUTE + 5.5 * msToNumber(HOLD_RECHECK));
    // Its keys are refused meanwhile: the execution is read from the database.
    const held = await waitFor('the step to hold', async () => {
      const [e] = await sql<{ current_step_id: string }>(stack, 'select current_step_id from automation_executions where id = ?', [
        started.id,
      ]);
      const emails = await sql<{ status: string }>(stack, 'select status from emails where workflow_execution_id = ?', [started.id]);
      return e!.current_step_id === stepIds[1] && emails.length === 1 ? { e, emails } : undefined;
    });
    expect(held.emails).toEqual([{ status: 'PENDING' }]);
    const handle = env.client.workflow.getHandle(started.temporalWorkflowId as string);
    await waitFor('the details to say why', async () =>
      ((await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '').includes(
        'held, the project is suspended (Abuse report)',
      )
        ? true
        : undefined,
    );
    expect(stack.smtp.to(address)).toEqual([]);

    await reinstateByOperator(stack.deps, t.project.id, null);
    await waitingAt(t, workflow.id, started.id, stepIds[2]!);
    await env.sleep(2 * 60 * MINUTE);
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    await waitForMail(stack.smtp, address, /Held welcome/);
    expect(stack.smtp.to(address)).toHaveLength(1);
    await recordHistory(env, done, 'send-email-held');
  }, 150_000);
});

describe('UPDATE_CONTACT at the limits of data (time-skipping)', () => {
  it('fails the execution, once, when the update would give the project a 1,001st custom field', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test', { plan: 'free' });
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'hours' }],
      ['UPDATE_CONTACT', { data: { plan: 'pro', brand_new: 1 } }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    // The project reaches its 1,000 fields while the execution waits.
    await sql(
      stack,
      `insert into contact_fields (project_id, key, type, created_at) select ?, 'f' || k, 'string', now() from generate_series(1, 999) k`,
      [t.project.id],
    );
    await env.sleep(2 * 60 * MINUTE);
    const failed = await executionIn(t, workflow.id, started.id, ['FAILED']);
    expect(failed.error).toBe('A project has at most 1000 distinct custom fields');
    expect(historyOf(failed)[1]).toMatchObject({ type: 'UPDATE_CONTACT', status: 'FAILED' });
    expect(await temporalEnd(failed)).toBe('FAILED');
    expect((await contactData(contactId)).data).toEqual({ plan: 'free' });
  });
});

describe('executions', () => {
  it('run the definition they started with: edits affect new executions only', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test');
    const other = await addContact(t, 'bob@example.test');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'days' }],
      ['UPDATE_CONTACT', { data: { version: 1 } }],
    ]);
    const first = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, first.id, stepIds[0]!);
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${stepIds[1]}`)
      .send({ config: { data: { version: 2 } } })
      .expect(200);
    const second = await startExecution(t, workflow.id, { contactId: other });
    await waitingAt(t, workflow.id, second.id, stepIds[0]!);
    await env.sleep(DAY + MINUTE);
    await executionIn(t, workflow.id, first.id, ['COMPLETED']);
    await executionIn(t, workflow.id, second.id, ['COMPLETED']);
    expect((await contactData(contactId)).data).toEqual({ version: 1 });
    expect((await contactData(other)).data).toEqual({ version: 2 });
  });

  it('are cancelled one by one or all at once: Temporal workflows cancelled, records CANCELLED at their step', async () => {
    const t = await tenant(stack);
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'days' }],
      ['UPDATE_CONTACT', { data: { reached: true } }],
    ]);
    const ids: string[] = [];
    for (const email of ['a@example.test', 'b@example.test', 'c@example.test']) {
      const e = await startExecution(t, workflow.id, { contactId: await addContact(t, email) });
      await waitingAt(t, workflow.id, e.id, stepIds[0]!);
      ids.push(e.id);
    }
    const one = (await t.c.delete(`/workflows/${workflow.id}/executions/${ids[0]}`).expect(200)).body;
    expect(one.status).toBe('CANCELLED');
    expect((await t.c.post(`/workflows/${workflow.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 2 });
    for (const id of ids) {
      const e = await waitFor('the workflow to record its cancellation', async () => {
        const got = await getExecution(t, workflow.id, id);
        return historyOf(got)[0]?.status === 'CANCELLED' ? got : undefined;
      });
      expect(e).toMatchObject({ status: 'CANCELLED', currentStepId: stepIds[0], waitingFor: null, completedAt: expect.any(String) });
      expect(await waitFor('Temporal to cancel', async () => ((await temporalStatus(e)) === 'CANCELLED' ? true : undefined))).toBe(true);
      if (id === ids[0]) await recordHistory(env, e, 'cancelled-delay');
    }
    await env.sleep(DAY + MINUTE);
    expect(await sql(stack, "select id from contacts where project_id = ? and data ->> 'reached' is not null", [t.project.id])).toEqual([]);
    await t.c.delete(`/workflows/${workflow.id}`).expect(204);
  });

  it('end quietly when their record goes with the contact, without acting for it', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'hours' }],
      ['UPDATE_CONTACT', { data: { reached: true } }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    await t.c.delete(`/contacts/${contactId}`).expect(204);
    expect(await sql(stack, 'select id from automation_executions where id = ?', [started.id])).toEqual([]);
    await env.sleep(2 * 60 * MINUTE);
    const handle = env.client.workflow.getHandle(started.temporalWorkflowId as string);
    expect(await waitFor('the run to end', async () => ((await handle.describe()).status.name === 'COMPLETED' ? true : undefined))).toBe(
      true,
    );
    expect(await handle.result()).toEqual({ status: 'GONE', steps: 2 });
  });

  it('starts on service events too: a subscription flip by one workflow triggers another', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test', {}, false);
    const flip = await linearWorkflow(t, [['UPDATE_CONTACT', { subscribed: true }]], { name: 'Resubscribe', eventName: 'never' });
    const welcomeBack = await linearWorkflow(t, [['UPDATE_CONTACT', { data: { welcomedBack: true } }]], {
      name: 'Welcome back',
      eventName: 'contact.subscribed',
    });
    const onLeave = await linearWorkflow(t, [['UPDATE_CONTACT', { data: { left: true } }]], {
      name: 'Goodbye',
      eventName: 'contact.unsubscribed',
    });

    const started = await startExecution(t, flip.workflow.id, { contactId });
    const done = await executionIn(t, flip.workflow.id, started.id, ['COMPLETED']);
    expect(historyOf(done)[0]!.output).toEqual({ subscriptionChanged: 'contact.subscribed' });
    const [triggered] = await waitFor('the triggered execution', async () => {
      const list = await executionsOf(t, welcomeBack.workflow.id);
      return list.length ? list : undefined;
    });
    await executionIn(t, welcomeBack.workflow.id, triggered!.id, ['COMPLETED']);

    await t.c.patch(`/contacts/${contactId}`).send({ subscribed: false }).expect(200);
    const [left] = await waitFor('the unsubscribe execution', async () => {
      const list = await executionsOf(t, onLeave.workflow.id);
      return list.length ? list : undefined;
    });
    await executionIn(t, onLeave.workflow.id, left!.id, ['COMPLETED']);
    expect(await contactData(contactId)).toEqual({ subscribed: false, data: { welcomedBack: true, left: true } });
  });
});

describe('re-entry', () => {
  it('without allowReentry, a contact enters once, ever', async () => {
    const t = await tenant(stack);
    const { workflow } = await linearWorkflow(t, [['UPDATE_CONTACT', { data: { seen: true } }]]);
    const contactId = await addContact(t, 'ann@example.test');
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    await eventsDispatched(t.project.id);
    const [only, ...more] = await executionsOf(t, workflow.id);
    expect(more).toEqual([]);
    await executionIn(t, workflow.id, only!.id, ['COMPLETED']);
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    await eventsDispatched(t.project.id);
    expect(await executionsOf(t, workflow.id)).toHaveLength(1);
    const res = await t.c.post(`/workflows/${workflow.id}/executions`).send({ contactId });
    expect([res.status, res.body.error.code, res.body.error.details.reason]).toEqual([409, 'CONFLICT', 'ALREADY_ENTERED']);
    expect(await executionsOf(t, workflow.id)).toHaveLength(1);
  });

  it('with allowReentry, one active execution at a time, and a new entry after it ends', async () => {
    const t = await tenant(stack);
    const { workflow, stepIds } = await linearWorkflow(t, [['WAIT_FOR_EVENT', { eventName: 'go' }]], { allowReentry: true });
    const contactId = await addContact(t, 'ann@example.test');
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    const [first] = await waitFor('the first entry', async () => {
      const list = await executionsOf(t, workflow.id);
      return list.length ? list : undefined;
    });
    await waitingAt(t, workflow.id, first!.id, stepIds[0]!);
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    await eventsDispatched(t.project.id);
    expect(await executionsOf(t, workflow.id)).toHaveLength(1);
    const busy = await t.c.post(`/workflows/${workflow.id}/executions`).send({ contactId });
    expect([busy.status, busy.body.error.details]).toEqual([409, { reason: 'ALREADY_ACTIVE', activeExecutionId: first!.id }]);

    await t.c.track({ email: 'ann@example.test', event: 'go' }).expect(200);
    await executionIn(t, workflow.id, first!.id, ['COMPLETED']);
    await t.c.track({ email: 'ann@example.test', event: 'signup' }).expect(200);
    const second = await waitFor('the second entry', async () => (await executionsOf(t, workflow.id)).find((e) => e.entry === 2));
    expect(second).toMatchObject({
      status: expect.stringMatching(/RUNNING|WAITING/),
      temporalWorkflowId: `automation:${workflow.id}:${contactId}:2`,
    });
    expect(first!.temporalWorkflowId).toBe(`automation:${workflow.id}:${contactId}`);
  });

  it('is enforced by the database as well', async () => {
    const t = await tenant(stack);
    const { workflow } = await linearWorkflow(t, [['DELAY', { amount: 1, unit: 'days' }]], { allowReentry: true });
    const contactId = await addContact(t, 'ann@example.test');
    const active = await startExecution(t, workflow.id, { contactId });
    const insert = (entry: number, reentry: boolean, status: string) =>
      sql(
        stack,
        `insert into automation_executions (id, created_at, updated_at, project_id, automation_id, contact_id, entry, reentry, status,
           step_started_at, context, definition, temporal_workflow_id)
         values (gen_random_uuid(), now(), now(), ?, ?, ?, ?, ?, ?, now(), '{}', '{}', 'x')`,
        [t.project.id, workflow.id, contactId, entry, reentry, status],
      ).then(
        () => 'inserted',
        (err: Error) => err.message,
      );
    expect(await insert(2, true, 'WAITING')).toMatch(/automation_executions_active_unique/);
    expect(await insert(1, true, 'COMPLETED')).toMatch(/automation_executions_entry_unique/);
    expect(await insert(2, false, 'COMPLETED')).toMatch(/check/);
    expect(await insert(2, true, 'COMPLETED')).toBe('inserted');
    expect(active.entry).toBe(1);
  });
});

describe('WAIT_FOR_EVENT look-back', () => {
  it('counts an event tracked after the step began but before the wait was in place', async () => {
    // A stack whose task queue no worker polls yet: the execution is recorded and its workflow scheduled, but
    // nothing runs until the worker starts, after the event.
    const late = await startStack({ temporal: gatewayFor(env, `automation-late-${randomBytes(4).toString('hex')}`) });
    try {
      const t: Tenant = await tenant(late);
      const { workflow, stepIds } = await linearWorkflow(t, [
        ['WAIT_FOR_EVENT', { eventName: 'paid' }],
        ['UPDATE_CONTACT', { data: { paid: true } }],
      ]);
      const contactId = await addContact(t, 'ann@example.test');
      const started = await startExecution(t, workflow.id, { contactId });
      const event = (await t.c.track({ email: 'ann@example.test', event: 'paid', data: { amount: 5 } }).expect(200)).body.data.event;
      // The engine's dispatcher hands the event over while the execution is not waiting yet: no signal.
      await eventsDispatched(t.project.id);
      expect((await getExecution(t, workflow.id, started.id)).stepHistory).toEqual([]);
      const worker = await startWorker(late.deps, env.nativeConnection);
      try {
        const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
        expect(historyOf(done)[0]).toMatchObject({
          stepId: stepIds[0],
          output: { eventId: event, eventName: 'paid', data: { amount: 5 } },
        });
        expect(done.context).toEqual({ amount: 5 });
      } finally {
        await worker.stop();
      }
    } finally {
      await late.close();
    }
  });
});
