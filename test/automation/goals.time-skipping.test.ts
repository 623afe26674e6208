import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { tenant, type Tenant } from '../helpers/tenants';
import { splitBranch } from '../../src/modules/automations/run/random-split';
import { recordHistory } from './histories';
import { timeSkippingEngine } from './engine';
import {
  addContact,
  addStep,
  connect,
  createWorkflow,
  enable,
  executionIn,
  executionsOf,
  getExecution,
  linearWorkflow,
  senderDomain,
  startExecution,
  waitingAt,
  type Body,
} from './helpers';

/** Goals (docs/automations.md "Goals"), through HTTP on the real stack with the time-skipping server. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let stack: TestStack;
let env: TestWorkflowEnvironment;
timeSkippingEngine((started) => ({ stack, env } = started));

const historyOf = (e: Body) =>
  e.stepHistory as Array<{ stepId: string; type: string; status: string; output: unknown; completedAt: string | null }>;

const emailsTo = async (t: Tenant, to: string) =>
  (await sql(stack, 'select id from emails where project_id = ? and to_address = ?', [t.project.id, to])).length;

/** Tracks an event and waits until the outbox has handed it to the automations (signalled whoever it concerns). */
async function tracked(t: Tenant, email: string, event: string, data: object = {}): Promise<void> {
  await t.c.track({ email, event, data }).expect(200);
  await waitFor(
    `${event} of ${email} to be dispatched`,
    async () => {
      const rows = await sql<{ queued: boolean }>(
        stack,
        `select exists (select 1 from event_outbox o where o.event_id = e.id) as queued
         from events e join contacts c on c.id = e.contact_id where c.project_id = ? and c.email = ? and e.name = ?`,
        [t.project.id, email, event],
      );
      return rows.length > 0 && rows.every((r) => !r.queued) ? true : undefined;
    },
    30_000,
  );
}

async function template(t: Tenant): Promise<string> {
  const domain = await senderDomain(stack, t.project);
  const res = await t.c
    .post('/templates')
    .send({
      name: 'Nudge',
      subject: 'Still thinking?',
      body: '<p>Your cart misses you</p>',
      from: `hello@${domain}`,
      type: 'TRANSACTIONAL',
    })
    .expect(201);
  return res.body.id;
}

const amountOver = (value: number) => ({
  logic: 'AND',
  groups: [{ filters: [{ field: 'event.amount', operator: 'greaterThan', value }] }],
});

describe('a goal (time-skipping)', () => {
  it('ends a run CONVERTED in its DELAY, so the email after it is never sent; an event the filter refuses or past the window does nothing', async () => {
    const t = await tenant(stack);
    const templateId = await template(t);
    const goal = { event: 'purchase', filter: amountOver(10), window: { amount: 1, unit: 'days' } };
    const { workflow, stepIds } = await linearWorkflow(
      t,
      [
        ['DELAY', { amount: 2, unit: 'days' }],
        ['SEND_EMAIL', { templateId }],
      ],
      { goal },
    );
    const [delay] = stepIds;
    const emails = ['buyer@example.test', 'small@example.test', 'late@example.test'];
    const started: Body[] = [];
    for (const email of emails) started.push(await startExecution(t, workflow.id, { contactId: await addContact(t, email) }));
    for (const e of started) await waitingAt(t, workflow.id, e.id, delay!);
    const [buyer, small, late] = started;

    // Within the window: a purchase of 5 is not the goal, one of 25 is.
    await tracked(t, 'small@example.test', 'purchase', { amount: 5 });
    await tracked(t, 'buyer@example.test', 'purchase', { amount: 25 });
    const converted = await executionIn(t, workflow.id, buyer!.id, ['CONVERTED'], 30_000);
    expect(converted).toMatchObject({ currentStepId: delay, completedAt: expect.any(String), exitReason: null, error: null });
    expect(historyOf(converted)).toEqual([
      expect.objectContaining({
        stepId: delay,
        type: 'DELAY',
        status: 'CONVERTED',
        completedAt: expect.any(String),
        output: { goal: { eventId: expect.any(String), eventName: 'purchase', data: { amount: 25 } } },
      }),
    ]);
    // Its Temporal run ended with it (asked without waiting for a result, which would let the server skip time).
    const run = env.client.workflow.getHandle(String(converted.temporalWorkflowId));
    await waitFor('the run to complete', async () => ((await run.describe()).status.name === 'COMPLETED' ? true : undefined), 30_000);
    const events = (await run.fetchHistory()).events ?? [];
    expect(events.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
    expect(events.filter((e) => e.timerCanceledEventAttributes)).toHaveLength(1);
    expect((await executionIn(t, workflow.id, small!.id, ['WAITING'])).currentStepId).toBe(delay);

    // Past the window (a day), still in the DELAY: the purchase does not count.
    await env.sleep(DAY + 12 * HOUR);
    await tracked(t, 'late@example.test', 'purchase', { amount: 99 });
    expect((await executionIn(t, workflow.id, late!.id, ['WAITING'])).currentStepId).toBe(delay);

    await env.sleep(12 * HOUR + MINUTE);
    for (const e of [small!, late!]) {
      const done = await executionIn(t, workflow.id, e.id, ['COMPLETED'], 30_000);
      expect(historyOf(done).map((h) => [h.type, h.status])).toEqual([
        ['DELAY', 'COMPLETED'],
        ['SEND_EMAIL', 'COMPLETED'],
      ]);
    }
    expect(await emailsTo(t, 'small@example.test')).toBe(1);
    expect(await emailsTo(t, 'late@example.test')).toBe(1);
    expect(await emailsTo(t, 'buyer@example.test')).toBe(0);
    expect((await executionIn(t, workflow.id, buyer!.id, ['CONVERTED'])).stepHistory).toEqual(converted.stepHistory);

    const list = await t.c.get(`/workflows/${workflow.id}/executions?status=CONVERTED`).expect(200);
    expect(list.body.data.map((e: Body) => e.id)).toEqual([buyer!.id]);
    await recordHistory(env, converted, 'goal-in-delay');
  }, 180_000);

  it('counts conversions per path and per RANDOM_SPLIT branch, reached from a WAIT_FOR_EVENT of a triggered run', async () => {
    const t = await tenant(stack);
    const workflow = await createWorkflow(t, { name: 'Checkout nudge', eventName: 'checkout', goal: { event: 'purchase' } });
    const split = {
      branches: [
        { weight: 1, label: 'Soon' },
        { weight: 1, label: 'Later' },
      ],
    };
    const test = (await addStep(t, workflow.id, 'RANDOM_SPLIT', split)).id;
    const waitA = (await addStep(t, workflow.id, 'WAIT_FOR_EVENT', { eventName: 'opened', timeout: DAY / 1000 })).id;
    const delayB = (await addStep(t, workflow.id, 'DELAY', { amount: 2, unit: 'days' })).id;
    await connect(t, workflow.id, test, waitA, { branch: 'A' });
    await connect(t, workflow.id, test, delayB, { branch: 'B' });
    await enable(t, workflow.id);

    // Contacts until A has two and B two, by the split's own decision.
    const a: string[] = [];
    const b: string[] = [];
    for (let i = 0; a.length < 2 || b.length < 2; i++) {
      const email = `shopper${i}@example.test`;
      const id = await addContact(t, email);
      const branch = splitBranch(split, test, id);
      if (branch === 'A' && a.length < 2) a.push(email);
      if (branch === 'B' && b.length < 2) b.push(email);
    }
    // A purchase before the checkout that starts the run does not reach its goal.
    await tracked(t, b[1]!, 'purchase');
    for (const email of [...a, ...b]) await t.c.track({ email, event: 'checkout' }).expect(200);
    const runs = await waitFor(
      'the four executions to wait',
      async () => {
        const all = await executionsOf(t, workflow.id);
        return all.length === 4 && all.every((e) => e.status === 'WAITING') ? all : undefined;
      },
      30_000,
    );
    const runOf = (email: string) => runs.find((e) => (e.contact as { email: string }).email === email)!;
    // One buys while its WAIT_FOR_EVENT waits (for another event), one of B in its DELAY.
    await tracked(t, a[0]!, 'purchase', { amount: 30 });
    await tracked(t, b[0]!, 'purchase');
    await executionIn(t, workflow.id, runOf(a[0]!).id, ['CONVERTED'], 30_000);
    await executionIn(t, workflow.id, runOf(b[0]!).id, ['CONVERTED'], 30_000);
    await env.sleep(2 * DAY + MINUTE);
    await executionIn(t, workflow.id, runOf(a[1]!).id, ['COMPLETED'], 30_000);
    await executionIn(t, workflow.id, runOf(b[1]!).id, ['COMPLETED'], 30_000);

    const stats = (await t.c.get(`/workflows/${workflow.id}/stats`).expect(200)).body;
    expect(stats.executions).toEqual({ total: 4, RUNNING: 0, WAITING: 0, COMPLETED: 2, EXITED: 0, CONVERTED: 2, FAILED: 0, CANCELLED: 0 });
    const figures = (stepId: string) => stats.steps.find((s: { stepId: string }) => s.stepId === stepId);
    expect(figures(test)).toMatchObject({
      entered: 4,
      left: 4,
      converted: 0,
      goalReached: 2,
      branches: [
        { branch: 'A', taken: 2, goalReached: 1 },
        { branch: 'B', taken: 2, goalReached: 1 },
      ],
    });
    expect(figures(waitA)).toMatchObject({
      entered: 2,
      waiting: 0,
      left: 1,
      converted: 1,
      goalReached: 1,
      outcomes: [
        { outcome: 'EVENT', taken: 0, goalReached: 0 },
        { outcome: 'TIMEOUT', taken: 1, goalReached: 0 },
      ],
    });
    expect(figures(delayB)).toMatchObject({ entered: 2, left: 1, converted: 1, goalReached: 1 });
  }, 180_000);

  it('keeps the goal of an execution migrated to a new version, which then converts there', async () => {
    const t = await tenant(stack);
    const { workflow, stepIds } = await linearWorkflow(
      t,
      [
        ['DELAY', { amount: 1, unit: 'days' }],
        ['DELAY', { amount: 2, unit: 'days' }],
      ],
      { goal: { event: 'purchase' } },
    );
    const [first, second] = stepIds as [string, string];
    const email = 'migrated@example.test';
    const execution = await startExecution(t, workflow.id, { contactId: await addContact(t, email) });
    await waitingAt(t, workflow.id, execution.id, first);
    // Version 2 (a longer second wait); the waiting execution moves to its second step.
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${second}`)
      .send({ config: { amount: 3, unit: 'days' } })
      .expect(200);
    const moved = await t.c
      .post(`/workflows/${workflow.id}/versions/1/migrate`)
      .send({ map: { [first]: second } })
      .expect(202);
    expect(moved.body.migrated).toBe(1);
    await waitingAt(t, workflow.id, execution.id, second);
    expect((await getExecution(t, workflow.id, execution.id)).version).toBe(2);
    await tracked(t, email, 'purchase');
    const converted = await executionIn(t, workflow.id, execution.id, ['CONVERTED'], 30_000);
    expect(converted).toMatchObject({ currentStepId: second, version: 2 });
  }, 120_000);

  it('keeps the goal an execution started with; a workflow without one has no conversions', async () => {
    const t = await tenant(stack);
    const { workflow, stepIds } = await linearWorkflow(t, [['DELAY', { amount: 1, unit: 'hours' }]], { goal: { event: 'purchase' } });
    const email = 'kept@example.test';
    const first = await startExecution(t, workflow.id, { contactId: await addContact(t, email) });
    await waitingAt(t, workflow.id, first.id, stepIds[0]!);
    // Removing the goal leaves the running execution's; a new one has none.
    const patched = await t.c.patch(`/workflows/${workflow.id}`).send({ goal: null }).expect(200);
    expect(patched.body.goal).toBeNull();
    const other = 'without@example.test';
    const second = await startExecution(t, workflow.id, { contactId: await addContact(t, other) });
    await waitingAt(t, workflow.id, second.id, stepIds[0]!);
    await tracked(t, email, 'purchase');
    await tracked(t, other, 'purchase');
    await executionIn(t, workflow.id, first.id, ['CONVERTED'], 30_000);
    expect((await executionIn(t, workflow.id, second.id, ['WAITING'])).currentStepId).toBe(stepIds[0]);
    await env.sleep(HOUR + MINUTE);
    await executionIn(t, workflow.id, second.id, ['COMPLETED'], 30_000);
  }, 120_000);
});
