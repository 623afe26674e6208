import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { tenant, type Tenant } from '../helpers/tenants';
import { timeSkippingEngine } from './engine';
import { recordHistory } from './histories';
import {
  addContact,
  automationState,
  executionIn,
  getExecution,
  linearWorkflow,
  senderDomain,
  startExecution,
  waitingAt,
  type Body,
} from './helpers';

const HOUR = 60 * 60_000;

let stack: TestStack;
let env: TestWorkflowEnvironment;
timeSkippingEngine((started) => ({ stack, env } = started));

type History = Array<{ stepId: string; type: string; status: string; output: Record<string, unknown> | null }>;
const historyOf = (e: Body) => e.stepHistory as History;

const versions = async (t: Tenant, workflowId: string) => (await t.c.get(`/workflows/${workflowId}/versions`).expect(200)).body;

const subjectOf = async (executionId: string) =>
  (await sql<{ subject: string }>(stack, 'select subject from emails where workflow_execution_id = ?', [executionId])).map(
    (r) => r.subject,
  );

/** A sender domain, and a template per subject. */
async function templates(t: Tenant, ...subjects: string[]): Promise<string[]> {
  const domain = await senderDomain(stack, t.project);
  const ids: string[] = [];
  for (const subject of subjects) {
    const res = await t.c
      .post('/templates')
      .send({ name: subject, subject, body: '<p>Hi</p>', from: `hello@${domain}`, type: 'TRANSACTIONAL' })
      .expect(201);
    ids.push(res.body.id as string);
  }
  return ids;
}

describe('versions of a live automation (time-skipping)', () => {
  it('keeps running executions on their version, starts new ones on the latest, and migrates waiting ones by a step map', async () => {
    const t = await tenant(stack);
    const [first, second] = await templates(t, 'Welcome, version 1', 'Welcome, version 2');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'days' }],
      ['SEND_EMAIL', { templateId: first }],
    ]);
    const [delay, send] = stepIds as [string, string];
    const early = await startExecution(t, workflow.id, { contactId: await addContact(t, 'early@example.test') });
    expect(early.version).toBe(1);
    await waitingAt(t, workflow.id, early.id, delay);
    await env.sleep(12 * HOUR);
    const late = await startExecution(t, workflow.id, { contactId: await addContact(t, 'late@example.test') });
    await waitingAt(t, workflow.id, late.id, delay);

    // Editing the enabled workflow publishes version 2; the two waiting executions stay on version 1.
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${send}`)
      .send({ config: { templateId: second } })
      .expect(200);
    const listed = await versions(t, workflow.id);
    expect(listed).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(listed.data).toEqual([
      expect.objectContaining({ number: 2, latest: true, running: 0, waiting: 0 }),
      expect.objectContaining({ number: 1, latest: false, running: 0, waiting: 2 }),
    ]);
    expect(listed.data[0].steps).toEqual([
      { id: delay, type: 'DELAY', name: null, config: { amount: 1, unit: 'days' } },
      { id: send, type: 'SEND_EMAIL', name: null, config: { templateId: second } },
    ]);
    expect(listed.data[1].steps[1].config).toEqual({ templateId: first });
    expect(listed.data[0].transitions).toEqual([{ fromStepId: delay, toStepId: send, branch: null, outcome: null }]);
    const fresh = await startExecution(t, workflow.id, { contactId: await addContact(t, 'fresh@example.test') });
    expect(fresh.version).toBe(2);
    await waitingAt(t, workflow.id, fresh.id, delay);

    // The first execution's day ends: it sends version 1's email.
    await env.sleep(13 * HOUR);
    const earlyDone = await executionIn(t, workflow.id, early.id, ['COMPLETED'], 60_000);
    expect(earlyDone.version).toBe(1);
    expect(await subjectOf(early.id)).toEqual(['Welcome, version 1']);

    // A map that does not name the step the late one waits at moves nothing.
    const unmapped = await t.c
      .post(`/workflows/${workflow.id}/versions/1/migrate`)
      .send({ map: { [send]: send } })
      .expect(202);
    expect(unmapped.body).toEqual({ fromVersion: 1, toVersion: 2, migrated: 0, skipped: { running: 0, unmapped: 1, ended: 0 } });
    expect((await getExecution(t, workflow.id, late.id)).version).toBe(1);

    // Moved from version 1's DELAY straight to version 2's SEND_EMAIL: it sends version 2's email at once.
    const moved = await t.c
      .post(`/workflows/${workflow.id}/versions/1/migrate`)
      .send({ map: { [delay]: send } })
      .expect(202);
    expect(moved.body).toEqual({ fromVersion: 1, toVersion: 2, migrated: 1, skipped: { running: 0, unmapped: 0, ended: 0 } });
    const lateDone = await executionIn(t, workflow.id, late.id, ['COMPLETED'], 60_000);
    expect(lateDone.version).toBe(2);
    expect(await subjectOf(late.id)).toEqual(['Welcome, version 2']);
    expect(historyOf(lateDone)).toEqual([
      expect.objectContaining({ stepId: delay, type: 'DELAY', status: 'COMPLETED', output: { migrated: { version: 2, toStepId: send } } }),
      expect.objectContaining({ stepId: send, type: 'SEND_EMAIL', status: 'COMPLETED' }),
    ]);
    // The Temporal history names the signal.
    const events = (await env.client.workflow.getHandle(late.temporalWorkflowId as string).fetchHistory()).events ?? [];
    expect(events.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'migrateVersion')).toBe(true);
    await recordHistory(env, lateDone, 'migrated-version');

    // The execution started on version 2 sends version 2's email after its own day.
    await env.sleep(12 * HOUR);
    await executionIn(t, workflow.id, fresh.id, ['COMPLETED'], 60_000);
    expect(await subjectOf(fresh.id)).toEqual(['Welcome, version 2']);
    expect((await versions(t, workflow.id)).data.map((v: { waiting: number }) => v.waiting)).toEqual([0, 0]);
  });
});

describe('versions: refusals', () => {
  it('answers 404, 409 and 422 in the error envelope and changes nothing', async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const [template] = await templates(t, 'Hello');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['DELAY', { amount: 1, unit: 'days' }],
      ['SEND_EMAIL', { templateId: template }],
    ]);
    const [delay, send] = stepIds as [string, string];
    const waiting = await startExecution(t, workflow.id, { contactId: await addContact(t, 'wait@example.test') });
    await waitingAt(t, workflow.id, waiting.id, delay);
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${delay}`)
      .send({ config: { amount: 2, unit: 'days' } })
      .expect(200);
    const before = await automationState(stack, t.project.id);
    const migrate = (tenantOf: Tenant, version: number | string, body: object) =>
      tenantOf.c.post(`/workflows/${workflow.id}/versions/${version}/migrate`).send(body);

    expect((await migrate(t, 3, { map: { [delay]: delay } }).expect(404)).body.error.code).toBe('NOT_FOUND');
    expect((await migrate(other, 1, { map: { [delay]: delay } }).expect(404)).body.error.code).toBe('WORKFLOW_NOT_FOUND');
    await other.c.get(`/workflows/${workflow.id}/versions`).expect(404);
    const latest = await migrate(t, 2, { map: { [delay]: delay } }).expect(409);
    expect(latest.body.error).toMatchObject({ code: 'CONFLICT', details: { latest: 2 } });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const badMap = await migrate(t, 1, { map: { [delay]: unknown, [unknown]: send } }).expect(422);
    expect(badMap.body.error.code).toBe('VALIDATION_ERROR');
    expect(badMap.body.error.errors).toEqual([
      { field: `map.${delay}`, message: `${unknown} is not a step of version 2, the latest`, code: 'unknown_step' },
      { field: `map.${unknown}`, message: 'Not a step of version 1', code: 'unknown_step' },
    ]);
    expect((await migrate(t, 1, { map: {} }).expect(422)).body.error.code).toBe('VALIDATION_ERROR');
    // A version that is not a number names none.
    expect((await migrate(t, 'first', { map: { [delay]: delay } }).expect(404)).body.error.code).toBe('NOT_FOUND');
    expect(await automationState(stack, t.project.id)).toEqual(before);
    expect((await getExecution(t, workflow.id, waiting.id)).version).toBe(1);
    // Enabling it again without a change publishes nothing; a workflow never enabled has no versions.
    await t.c.patch(`/workflows/${workflow.id}`).send({ enabled: false }).expect(200);
    await t.c.patch(`/workflows/${workflow.id}`).send({ enabled: true }).expect(200);
    expect((await versions(t, workflow.id)).total).toBe(2);
    const draft = (await t.c.post('/workflows').send({ name: 'Draft', eventName: 'signup' }).expect(201)).body;
    expect(await versions(t, draft.id)).toEqual({ data: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
  });
});
