import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { quietDomain } from '../helpers/time-skipping';
import { verifiedDomain, type Tenant } from '../helpers/tenants';

export { addContact, allOf, filter } from '../segments/helpers';

export type Body = Record<string, unknown> & { id: string };

async function created(res: { status: number; body: unknown }, what: string): Promise<Body> {
  if (res.status !== 201) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Body;
}

export const createWorkflow = async (t: Tenant, body: object = {}) =>
  created(await t.c.post('/workflows').send({ name: 'Welcome series', eventName: 'signup', ...body }), 'POST /workflows');

export const addStep = async (t: Tenant, workflowId: string, type: string, config: object = {}, name?: string) =>
  created(await t.c.post(`/workflows/${workflowId}/steps`).send({ type, config, ...(name ? { name } : {}) }), `POST step ${type}`);

export const connect = async (t: Tenant, workflowId: string, fromStepId: string, toStepId: string, extra: object = {}) =>
  created(await t.c.post(`/workflows/${workflowId}/transitions`).send({ fromStepId, toStepId, ...extra }), 'POST transition');

export async function enable(t: Tenant, workflowId: string): Promise<void> {
  const res = await t.c.patch(`/workflows/${workflowId}`).send({ enabled: true });
  if (res.status !== 200) throw new Error(`enabling answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** Steps in a line, each connected to the next; returns their ids. */
export async function chain(t: Tenant, workflowId: string, steps: Array<[type: string, config?: object]>): Promise<string[]> {
  const ids: string[] = [];
  for (const [type, config] of steps) {
    ids.push((await addStep(t, workflowId, type, config)).id);
    if (ids.length > 1) await connect(t, workflowId, ids[ids.length - 2]!, ids[ids.length - 1]!);
  }
  return ids;
}

/** An enabled workflow whose steps run in a line. */
export async function linearWorkflow(t: Tenant, steps: Array<[type: string, config?: object]>, body: object = {}) {
  const workflow = await createWorkflow(t, body);
  const stepIds = await chain(t, workflow.id, steps);
  await enable(t, workflow.id);
  return { workflow, stepIds };
}

export const startExecution = async (t: Tenant, workflowId: string, body: object) =>
  created(await t.c.post(`/workflows/${workflowId}/executions`).send(body), 'POST execution');

export async function getExecution(t: Tenant, workflowId: string, executionId: string): Promise<Body> {
  const res = await t.c.get(`/workflows/${workflowId}/executions/${executionId}`);
  if (res.status !== 200) throw new Error(`GET execution answered ${res.status}`);
  return res.body as Body;
}

/** Waits until the execution is in one of `statuses` (real time), and returns it. */
export const executionIn = (t: Tenant, workflowId: string, executionId: string, statuses: string[], timeoutMs = 20_000) =>
  waitFor(
    `execution ${executionId} to be ${statuses.join(' or ')}`,
    async () => {
      const e = await getExecution(t, workflowId, executionId);
      return statuses.includes(e.status as string) ? e : undefined;
    },
    timeoutMs,
  );

/** Waits until the execution is WAITING at `stepId`. */
export const waitingAt = (t: Tenant, workflowId: string, executionId: string, stepId: string) =>
  waitFor(
    `execution ${executionId} to wait at ${stepId}`,
    async () => {
      const e = await getExecution(t, workflowId, executionId);
      return e.status === 'WAITING' && e.currentStepId === stepId ? e : undefined;
    },
    20_000,
  );

export async function executionsOf(t: Tenant, workflowId: string): Promise<Body[]> {
  const res = await t.c.get(`/workflows/${workflowId}/executions?pageSize=100`);
  if (res.status !== 200) throw new Error(`GET executions answered ${res.status}`);
  return res.body.data as Body[];
}

/** Everything the automations module stores for a project, to prove what a request did or did not change. */
export async function automationState(stack: TestStack, projectId: string) {
  const automations = await sql(stack, 'select * from automations where project_id = ? order by id', [projectId]);
  const steps = await sql(
    stack,
    'select s.* from automation_steps s join automations a on a.id = s.automation_id where a.project_id = ? order by s.id',
    [projectId],
  );
  const transitions = await sql(
    stack,
    'select t.* from automation_transitions t join automations a on a.id = t.automation_id where a.project_id = ? order by t.id',
    [projectId],
  );
  const executions = await sql(stack, 'select * from automation_executions where project_id = ? order by id', [projectId]);
  return { automations, steps, transitions, executions };
}

/**
 * A verified sender domain whose 5-minute check loop is stopped (quietDomain).
 */
export async function senderDomain(stack: TestStack, project: TestProject): Promise<string> {
  const { id, domain } = await verifiedDomain(stack, project);
  await quietDomain(stack, id);
  return domain;
}
