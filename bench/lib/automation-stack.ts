import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../src/deps';
import { workerNodeOptions } from '../../src/main/worker-heap';
import { startApiProcess, type ApiProcess } from './api-process';
import type { CodeTree } from './code-tree';
import { apiClient, benchWorkerNodeFlags, startNode } from './node-process';
import { listenerOf, ProcessUsage } from './process-usage';
import { senderProject, type SendingBench } from './sending';

const API_PORT = Number(process.env.BENCH_PORT ?? process.env.POSTWIRE_PORT_RANGE_START ?? 3160);

/**
 * What the automation benches run, from the code of `tree`: src/main/worker.ts as deployed (Temporal worker,
 * events outbox, delivery pump; a workflow bundle built beforehand and WORKER_NODE_OPTIONS, as npm start and
 * the image run it) on a task queue of its own, and src/main/api.ts in a process of its own without its
 * per-project rate limit; a project of its own whose sender domain is verified; and the CPU and memory of
 * every process (worker, Temporal server, PostgreSQL, API).
 */
export interface AutomationStack {
  taskQueue: string;
  project: { projectId: string; secret: string; from: string };
  api: ReturnType<typeof apiClient>;
  apiUrl: string;
  /** The worker processes running now. */
  workerPids: () => number[];
  usage: ProcessUsage;
  close(): Promise<void>;
}

export async function startAutomationStack(tree: CodeTree, bench: SendingBench, deps: Deps, name: string): Promise<AutomationStack> {
  const taskQueue = `bench-automation-${randomBytes(4).toString('hex')}`;
  const project = await senderProject(bench.orm, bench.config, `${name} ${new Date().toISOString()}`);
  const env = { ...bench.env, TEMPORAL_TASK_QUEUE: taskQueue, PGAPPNAME: 'postwire bench' };
  const bundle = path.join(os.tmpdir(), `postwire-bench-workflows-${process.pid}-${taskQueue}.js`);
  await tree.bundle(bundle);
  const worker = await startNode(
    path.join(tree.dir, 'src', 'main', 'worker.ts'),
    tree.dir,
    { ...env, WORKER_WORKFLOW_BUNDLE: bundle, NODE_OPTIONS: workerNodeOptions(process.env.NODE_OPTIONS), LOG_LEVEL: 'info' },
    (line) => line.includes('"msg":"worker running"'),
    benchWorkerNodeFlags(),
  );
  let apiProcess: ApiProcess | undefined;
  const usage = new ProcessUsage([
    { name: 'worker', pids: () => [worker.pid] },
    { name: 'Temporal', pids: listenerOf(bench.config.TEMPORAL_ADDRESS) },
    { name: 'PostgreSQL', pids: listenerOf(bench.config.DATABASE_URL), reaped: true },
    { name: 'API', pids: () => (apiProcess ? [apiProcess.pid] : []) },
  ]);
  const close = async () => {
    usage.stop();
    await apiProcess?.stop();
    await worker.stop();
    rmSync(bundle, { force: true });
    await terminateQueue(deps, taskQueue);
  };
  try {
    apiProcess = await startApiProcess(
      API_PORT,
      bench.config.DATABASE_URL,
      { ...env, API_RATE_LIMIT_PER_MINUTE: '0' },
      path.join(tree.dir, 'src', 'main', 'api.ts'),
    );
  } catch (err) {
    await close();
    throw err;
  }
  return {
    taskQueue,
    project,
    api: apiClient(apiProcess.url, project.secret),
    apiUrl: apiProcess.url,
    workerPids: () => [worker.pid],
    usage,
    close,
  };
}

/**
 * The benches' automation: on `signup`, SEND_EMAIL, WAIT_FOR_EVENT `activated` (timeout 1 day), CONDITION on the
 * awaited event's `plan`, SEND_EMAIL. `waitFirst`: the same without the first SEND_EMAIL, so that an execution
 * parks in its first workflow task (the scale bench's cheapest way to hold many at once). Enabled; answers its id.
 */
export async function fourStepAutomation(api: AutomationStack['api'], from: string, { waitFirst = false } = {}): Promise<string> {
  const template = await api('POST', '/templates', {
    name: 'Welcome',
    subject: 'Welcome {{ email }}',
    body: '<p>Hello {{ email }}</p>',
    from,
    // BENCH_TEMPLATE_TYPE=MARKETING: emails the consent rule and the frequency cap look at.
    type: process.env.BENCH_TEMPLATE_TYPE ?? 'TRANSACTIONAL',
  });
  // BENCH_GOAL=<event>: the workflow has that goal (never tracked here), so every run watches for it (docs/automations.md "Goals").
  const goal = process.env.BENCH_GOAL ? { goal: { event: process.env.BENCH_GOAL } } : {};
  const workflow = await api('POST', '/workflows', { name: 'Onboarding', eventName: 'signup', ...goal });
  const step = async (type: string, config: object) => (await api('POST', `/workflows/${workflow.id}/steps`, { type, config })).id;
  const welcome = waitFirst ? null : await step('SEND_EMAIL', { templateId: template.id });
  const wait = await step('WAIT_FOR_EVENT', { eventName: 'activated', timeout: 86_400 });
  const check = await step('CONDITION', {
    logic: 'AND',
    groups: [{ filters: [{ field: 'event.plan', operator: 'equals', value: 'pro' }] }],
  });
  const thanks = await step('SEND_EMAIL', { templateId: template.id });
  if (welcome) await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: welcome, toStepId: wait });
  await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: wait, toStepId: check });
  await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: check, toStepId: thanks, branch: 'yes' });
  await api('PATCH', `/workflows/${workflow.id}`, { enabled: true });
  return workflow.id;
}

/**
 * Ends what a bench left running on its task queue, in one batch operation of the server (a bench may leave
 * thousands of runs parked), and waits for it.
 */
export async function terminateQueue(deps: Deps, taskQueue: string): Promise<void> {
  const { client } = deps.temporal;
  const jobId = `bench-cleanup-${randomBytes(6).toString('hex')}`;
  const namespace = deps.config.TEMPORAL_NAMESPACE;
  await client.workflowService.startBatchOperation({
    namespace,
    jobId,
    reason: 'benchmark finished',
    visibilityQuery: `TaskQueue="${taskQueue}" AND ExecutionStatus="Running"`,
    terminationOperation: { identity: 'bench' },
  });
  for (;;) {
    const job = await client.workflowService.describeBatchOperation({ namespace, jobId });
    // 1: running (temporal.api.enums.v1.BatchOperationState).
    if (job.state !== 1) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
