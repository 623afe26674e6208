import { startStack, type TestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { recipient } from '../emails/helpers';
import { bundleWorkflows, startWorkerProcess, workerEnv, type WorkerProcess } from '../helpers/worker-processes';
import { bucketOf, scheduledEmailsWorkflowId } from '../../workflows/scheduled-emails/ids';
import { ProjectIdKey, SendAtKey } from '../../workflows/search-attributes';

/**
 * Scheduled sends on the dev server with real time: a worker process (Temporal worker and delivery pump, as
 * src/main/worker.ts runs them) sends an email seconds after it was asked for, and a timer outlives the
 * worker that was running when the email was scheduled.
 */
jest.setTimeout(120_000);

let stack: TestStack;
let bundle: string;
let worker: WorkerProcess | undefined;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
  bundle = await bundleWorkflows();
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

const startWorker = () =>
  startWorkerProcess({ ...workerEnv(stack.deps.config, stack.deps.temporal.taskQueue), WORKER_WORKFLOW_BUNDLE: bundle });

async function schedule(t: SenderTenant, to: string, inMs: number) {
  const sendAt = new Date(Date.now() + inMs);
  const res = await t.c
    .post('/v1/send')
    .send({ to, from: t.from, subject: 'Later', body: '<p>Later</p>', sendAt: sendAt.toISOString() })
    .expect(200);
  return { id: res.body.data.emails[0].email as string, sendAt };
}

const sentAt = (t: SenderTenant, id: string) =>
  waitFor(
    `email ${id} to be sent`,
    async () => {
      const { data } = (await t.c.get(`/v1/emails/${id}`).expect(200)).body;
      return data.sentAt ? new Date(data.sentAt as string) : undefined;
    },
    60_000,
  );

describe('scheduled sends (dev server, worker processes, real time)', () => {
  it('leaves within 5 s after sendAt, its timer readable in the Temporal UI: summary and search attributes', async () => {
    worker = await startWorker();
    const t = await senderTenant(stack);
    const to = recipient('soon');
    const { id, sendAt } = await schedule(t, to, 8_000);

    const dueAt = bucketOf(sendAt);
    const description = await stack.deps.temporal.client.workflow.getHandle(scheduledEmailsWorkflowId(t.project.id, dueAt)).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(await description.staticSummary()).toBe(`Scheduled emails of project ${t.project.id} due by ${dueAt.toISOString()}`);
    expect(description.typedSearchAttributes.get(ProjectIdKey)).toBe(t.project.id);
    expect(description.typedSearchAttributes.get(SendAtKey)?.toISOString()).toBe(dueAt.toISOString());
    expect(stack.smtp.to(to)).toEqual([]);

    const sent = await sentAt(t, id);
    expect(sent.getTime()).toBeGreaterThanOrEqual(sendAt.getTime());
    expect(sent.getTime() - sendAt.getTime()).toBeLessThan(5_000);
    expect(stack.smtp.to(to)).toHaveLength(1);
  });

  it('survives the worker being killed while it waits: a new worker sends it once', async () => {
    worker ??= await startWorker();
    const t = await senderTenant(stack);
    const to = recipient('survivor');
    const { id, sendAt } = await schedule(t, to, 6_000);
    await worker.kill();
    worker = undefined;
    await new Promise((r) => setTimeout(r, sendAt.getTime() - Date.now() + 2_000));
    expect((await t.c.get(`/v1/emails/${id}`).expect(200)).body.data.status).toBe('SCHEDULED');

    worker = await startWorker();
    await sentAt(t, id);
    expect(stack.smtp.to(to)).toHaveLength(1);
  });
});
