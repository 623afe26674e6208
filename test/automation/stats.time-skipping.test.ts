import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { splitBranch } from '../../src/modules/automations/run/random-split';
import { tenant, type Tenant } from '../helpers/tenants';
import { timeSkippingEngine } from './engine';
import {
  addContact,
  addStep,
  allOf,
  connect,
  createWorkflow,
  enable,
  executionIn,
  filter,
  getExecution,
  startExecution,
  waitingAt,
} from './helpers';

const DAY = 24 * 60 * 60_000;

let stack: TestStack;
let env: TestWorkflowEnvironment;
timeSkippingEngine((started) => ({ stack, env } = started));

const stats = async (t: Tenant, workflowId: string) => (await t.c.get(`/workflows/${workflowId}/stats`).expect(200)).body;

/** A step's figures with zeros where the test expects nothing. */
const figures = (stepId: string, type: string, counts: object, ways: object = {}) => ({
  stepId,
  type,
  name: null,
  entered: 0,
  waiting: 0,
  left: 0,
  converted: 0,
  goalReached: 0,
  failed: 0,
  cancelled: 0,
  branches: null,
  outcomes: null,
  ...counts,
  ...ways,
});

const totals = (counts: Record<string, number>) => ({
  total: Object.values(counts).reduce((a, b) => a + b, 0),
  RUNNING: 0,
  WAITING: 0,
  COMPLETED: 0,
  EXITED: 0,
  CONVERTED: 0,
  FAILED: 0,
  CANCELLED: 0,
  ...counts,
});

describe('GET /workflows/{id}/stats', () => {
  it('counts per step who entered, waits, left, was cancelled, by branch and outcome, as executions really run', async () => {
    const t = await tenant(stack);
    const workflow = await createWorkflow(t, { name: 'Upgrade nudge' });
    const split = { branches: [{ weight: 1 }, { weight: 1 }] };
    const step = async (type: string, config: object) => (await addStep(t, workflow.id, type, config)).id;
    const cond = await step('CONDITION', allOf(filter('data.plan', 'equals', 'pro')));
    const test = await step('RANDOM_SPLIT', split);
    const exit = await step('EXIT', { reason: 'free plan' });
    const wait = await step('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 86_400 });
    const update = await step('UPDATE_CONTACT', { data: { paid: true } });
    await connect(t, workflow.id, cond, test, { branch: 'yes' });
    await connect(t, workflow.id, cond, exit, { branch: 'no' });
    await connect(t, workflow.id, test, wait, { branch: 'A' });
    await connect(t, workflow.id, wait, update);
    await enable(t, workflow.id);
    expect(await stats(t, workflow.id)).toEqual({
      workflowId: workflow.id,
      executions: totals({}),
      steps: [
        figures(
          cond,
          'CONDITION',
          {},
          {
            branches: [
              { branch: 'yes', taken: 0, goalReached: 0 },
              { branch: 'no', taken: 0, goalReached: 0 },
            ],
          },
        ),
        figures(
          test,
          'RANDOM_SPLIT',
          {},
          {
            branches: [
              { branch: 'A', taken: 0, goalReached: 0 },
              { branch: 'B', taken: 0, goalReached: 0 },
            ],
          },
        ),
        figures(exit, 'EXIT', {}),
        figures(
          wait,
          'WAIT_FOR_EVENT',
          {},
          {
            outcomes: [
              { outcome: 'EVENT', taken: 0, goalReached: 0 },
              { outcome: 'TIMEOUT', taken: 0, goalReached: 0 },
            ],
          },
        ),
        figures(update, 'UPDATE_CONTACT', {}),
      ],
    });

    // Two contacts on the free plan; pro contacts until branch A has three and B one, by the split's own decision.
    const free = [await addContact(t, 'free1@example.test', { plan: 'free' }), await addContact(t, 'free2@example.test', { plan: 'free' })];
    const a: Array<{ id: string; email: string }> = [];
    const b: string[] = [];
    for (let i = 0; a.length < 3 || b.length < 1; i++) {
      const email = `pro${i}@example.test`;
      const id = await addContact(t, email, { plan: 'pro' });
      // A contact the split would send to a branch already full starts nothing: exactly three wait at A.
      if (splitBranch(split, test, id) === 'A') {
        if (a.length < 3) a.push({ id, email });
      } else if (b.length < 1) b.push(id);
    }
    const start = (contactId: string) => startExecution(t, workflow.id, { contactId });
    const [onA, onB, onFree] = await Promise.all([
      Promise.all(a.map((c) => start(c.id))),
      Promise.all(b.map(start)),
      Promise.all(free.map(start)),
    ]);
    for (const e of onA) await waitingAt(t, workflow.id, e.id, wait);
    for (const e of onB) await executionIn(t, workflow.id, e.id, ['COMPLETED']);
    for (const e of onFree) await executionIn(t, workflow.id, e.id, ['EXITED']);

    const pro = a.length + b.length;
    const all = pro + free.length;
    const splitBranches = (aTaken: number) => ({
      branches: [
        { branch: 'A', taken: aTaken, goalReached: 0 },
        { branch: 'B', taken: b.length, goalReached: 0 },
      ],
    });
    const waitOutcomes = (event: number, timeout: number) => ({
      outcomes: [
        { outcome: 'EVENT', taken: event, goalReached: 0 },
        { outcome: 'TIMEOUT', taken: timeout, goalReached: 0 },
      ],
    });
    const upstream = [
      figures(
        cond,
        'CONDITION',
        { entered: all, left: all },
        {
          branches: [
            { branch: 'yes', taken: pro, goalReached: 0 },
            { branch: 'no', taken: 2, goalReached: 0 },
          ],
        },
      ),
      figures(test, 'RANDOM_SPLIT', { entered: pro, left: pro }, splitBranches(a.length)),
      figures(exit, 'EXIT', { entered: 2, left: 2 }),
    ];
    expect(await stats(t, workflow.id)).toEqual({
      workflowId: workflow.id,
      executions: totals({ WAITING: 3, COMPLETED: b.length, EXITED: 2 }),
      steps: [
        ...upstream,
        figures(wait, 'WAIT_FOR_EVENT', { entered: 3, waiting: 3 }, waitOutcomes(0, 0)),
        figures(update, 'UPDATE_CONTACT', {}),
      ],
    });

    // The first gets the event and goes on; the second is cancelled where it waits; the third times out a day later.
    await t.c.track({ email: a[0]!.email, event: 'paid', data: { amount: 10 } }).expect(200);
    await executionIn(t, workflow.id, onA[0]!.id, ['COMPLETED']);
    await t.c.delete(`/workflows/${workflow.id}/executions/${onA[1]!.id}`).expect(200);
    expect(await stats(t, workflow.id)).toEqual({
      workflowId: workflow.id,
      executions: totals({ WAITING: 1, COMPLETED: b.length + 1, EXITED: 2, CANCELLED: 1 }),
      steps: [
        ...upstream,
        figures(wait, 'WAIT_FOR_EVENT', { entered: 3, waiting: 1, left: 1, cancelled: 1 }, waitOutcomes(1, 0)),
        figures(update, 'UPDATE_CONTACT', { entered: 1, left: 1 }),
      ],
    });
    // The same figures once the cancelled run has written its step's end itself.
    await waitFor(
      'the run to record its cancellation',
      async () => {
        const e = await getExecution(t, workflow.id, onA[1]!.id);
        return (e.stepHistory as Array<{ status: string }>).at(-1)?.status === 'CANCELLED' ? true : undefined;
      },
      30_000,
    );
    expect((await stats(t, workflow.id)).steps[3]).toMatchObject({ waiting: 1, cancelled: 1 });

    await env.sleep(DAY + 60_000);
    await executionIn(t, workflow.id, onA[2]!.id, ['COMPLETED']);
    const last = await stats(t, workflow.id);
    expect(last.executions).toEqual(totals({ COMPLETED: b.length + 2, EXITED: 2, CANCELLED: 1 }));
    expect(last.steps.slice(3)).toEqual([
      figures(wait, 'WAIT_FOR_EVENT', { entered: 3, left: 2, cancelled: 1 }, waitOutcomes(1, 1)),
      figures(update, 'UPDATE_CONTACT', { entered: 1, left: 1 }),
    ]);
  }, 180_000);

  it("answers 404 WORKFLOW_NOT_FOUND for another project's workflow, an unknown id and a malformed one", async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const theirs = await createWorkflow(other);
    await addStep(other, theirs.id, 'EXIT');
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await t.c.get(`/workflows/${id}/stats`);
      expect([id, res.status, res.body]).toEqual([
        id,
        404,
        {
          success: false,
          error: { code: 'WORKFLOW_NOT_FOUND', statusCode: 404, message: expect.any(String), requestId: expect.any(String) },
          timestamp: expect.any(String),
        },
      ]);
    }
    expect((await other.c.get(`/workflows/${theirs.id}/stats`).expect(200)).body.steps).toHaveLength(1);
  });
});
