import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { bundleWorkflows, startWorkerProcess, workerEnv, type WorkerProcess } from '../helpers/worker-processes';
import { campaignTenant, senderTenant, type SenderTenant } from '../helpers/tenants';
import { createCampaign, seedContacts } from '../campaigns/helpers';
import { addContact, addStep, connect, createWorkflow, enable, startExecution } from '../automation/helpers';
import { campaignWorkflowId } from '../../workflows/campaigns/ids';
import { startDispatcher } from '../automation/engine';
import type { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { ADMIN_TOKEN, admin, sendTo, settledAll, simulator } from './helpers';

/**
 * A suspension holds and loses nothing (docs/security.md, docs/delivery.md "Holding"): two worker processes
 * send a campaign to a slow SMTP server; halfway, the project's bounces (the simulator's, counted here) cross
 * the critical level and it is suspended automatically. From then on no SMTP transaction of it begins, its
 * campaign and automation executions wait and say why in the Temporal UI, another project keeps sending; once an
 * operator reinstates it, everything held goes, each recipient mailed once.
 */
const MIN_SENT = 50;
let stack: TestStack;
let bundle: string;
let dispatcher: EventDispatcher;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  const env = {
    CAMPAIGN_BATCH_SIZE: '25',
    SANDBOX_ENABLED: 'true',
    REPUTATION_COUNT_SIMULATED: 'true',
    REPUTATION_MIN_SENT: String(MIN_SENT),
    ADMIN_TOKEN,
  };
  stack = await startStack({ env, terminateWorkflows: true });
  // The events outbox, which hands tracked events to the waiting executions (the worker processes here run no dispatcher).
  dispatcher = await startDispatcher(stack);
  bundle = await bundleWorkflows();
  for (let i = 0; i < 2; i++) {
    workers.push(
      await startWorkerProcess({
        ...workerEnv(stack.deps.config, stack.deps.temporal.taskQueue),
        ...env,
        WORKER_WORKFLOW_BUNDLE: bundle,
        SMTP_MAX_CONNECTIONS: '4',
      }),
    );
  }
  // RCPT and the end of DATA take 150 ms each: 8 connections send about 25 messages a second.
  stack.smtp.slowAll(150);
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await dispatcher?.stop();
  await rm(bundle, { force: true });
  await stack?.close();
});

const count = async (query: string, params: unknown[]) => (await sql<{ n: number }>(stack, query, params))[0]!.n;
const metadata = async (workflowId: string) =>
  (await stack.deps.temporal.client.workflow.getHandle(workflowId).query<{ currentDetails?: string }>('__temporal_workflow_metadata'))
    .currentDetails ?? '';

/** An automation: wait for `go`, then two emails. Each contact's execution starts now and waits for its `go`. */
async function followUp(
  t: SenderTenant,
  contacts: number,
): Promise<{ workflowId: string; executions: Array<{ email: string; id: string; temporalWorkflowId: string }> }> {
  const template = async (subject: string) =>
    (
      await t.c
        .post('/templates')
        // Transactional: they go to the follow-up's unsubscribed contacts (docs/consent.md "Who gets marketing").
        .send({ name: subject, subject, body: `<p>${subject}</p>`, from: t.from, type: 'TRANSACTIONAL' })
        .expect(201)
    ).body.id as string;
  const [first, second] = [await template('Follow-up A'), await template('Follow-up B')];
  const workflow = await createWorkflow(t, { name: 'Follow-up' });
  const wait = await addStep(t, workflow.id, 'WAIT_FOR_EVENT', { eventName: 'go', timeout: 3600 });
  const a = await addStep(t, workflow.id, 'SEND_EMAIL', { templateId: first });
  const b = await addStep(t, workflow.id, 'SEND_EMAIL', { templateId: second });
  await connect(t, workflow.id, wait.id, a.id, { outcome: 'EVENT' });
  await connect(t, workflow.id, a.id, b.id);
  await enable(t, workflow.id);
  const addresses = Array.from({ length: contacts }, (_, i) => `follow-${i}-${t.project.id.slice(0, 8)}@example.test`);
  const executions = [];
  for (const email of addresses) {
    // Unsubscribed: out of the campaign's audience; the automation's transactional emails still go.
    const contactId = await addContact(t, email, {}, false);
    const execution = await startExecution(t, workflow.id, { contactId });
    executions.push({ email, id: execution.id, temporalWorkflowId: String(execution.temporalWorkflowId) });
  }
  return { workflowId: workflow.id, executions };
}

it('holds a half-sent campaign and automation emails from the suspension on, loses nothing, and sends each once after the reinstatement', async () => {
  const total = 150;
  const t = await campaignTenant(stack);
  const other = await senderTenant(stack);
  const prefix = `held-${t.project.id.slice(0, 8)}`;
  await seedContacts(stack, t.project.id, total, { prefix });
  await sql(stack, 'update projects set email_rate_per_second = 0 where id = ?', [t.project.id]);
  const automation = await followUp(t, 5);
  const campaign = await createCampaign(t);
  const ours = (to: string[]) => to.some((a) => a.startsWith(prefix) || a.startsWith('follow-'));
  const received = () => stack.smtp.messages.filter((m) => ours(m.to));

  await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
  await waitFor('the campaign half-sent', async () => (received().length >= 60 ? true : undefined), 120_000);
  // Transactional mail to the simulator, claimed first: its bounces take the rate past 10% of 50.
  const bounces = await sendTo(
    t,
    Array.from({ length: 25 }, () => simulator('bounce')),
  );
  const [suspension] = await waitFor(
    'the automatic suspension',
    async () => {
      const rows = await sql<{ started_at: Date; reason: string; by: string }>(
        stack,
        'select started_at, reason, by from project_suspensions where project_id = ?',
        [t.project.id],
      );
      return rows.length ? rows : undefined;
    },
    60_000,
  );
  expect(suspension).toMatchObject({
    by: 'automatic',
    reason: expect.stringMatching(/^Bounce rate \d+(\.\d+)?% over 7 days is above the critical level of 10%$/),
  });
  const suspendedAt = new Date(suspension!.started_at).getTime();
  // The last bounce recorded (its email.bounce event, written in the same transaction) before the suspension.
  const [critical] = await sql<{ recorded_at: Date }>(
    stack,
    `select max(created_at) as recorded_at from events where project_id = ? and name = 'email.bounce' and created_at <= ?`,
    [t.project.id, suspension!.started_at],
  );

  // Another project keeps sending throughout.
  const otherTo = Array.from({ length: 10 }, () => `free-${randomUUID().slice(0, 8)}@example.test`);
  await sendTo(other, otherTo);
  for (const address of otherTo) await stack.smtp.waitFor((m) => m.to.includes(address), 60_000);

  // The automation's executions reach their first email while suspended: it is queued and held, and they wait.
  for (const e of automation.executions) {
    await stack
      .http()
      .post('/events/track')
      .set('Cookie', t.user.cookie)
      .set('X-Project-Id', t.project.id)
      .send({ event: 'go', email: e.email })
      .expect(200);
  }
  for (const e of automation.executions) {
    await waitFor(
      'the execution to say it is held',
      async () => ((await metadata(e.temporalWorkflowId)).includes('held, the project is suspended') ? true : undefined),
      60_000,
    );
  }
  await waitFor(
    'the campaign to say it is held',
    async () => ((await metadata(campaignWorkflowId(campaign.id))).includes('held: the project is suspended') ? true : undefined),
    90_000,
  );
  await stack.smtp.untilQuiet();
  const leftBefore = received();
  const lastLeft = Math.max(...leftBefore.map((m) => m.at));
  const lastBegun = Math.max(...stack.smtp.begun.filter((b) => b.from === t.from).map((b) => b.at));
  console.log(
    `critical bounce recorded → suspension: ${suspendedAt - new Date(critical!.recorded_at).getTime()} ms; ` +
      `suspension → last transaction begun: ${lastBegun - suspendedAt} ms, last message accepted: ${lastLeft - suspendedAt} ms; ` +
      `${leftBefore.filter((m) => m.to[0]!.startsWith(prefix)).length} of ${total} campaign emails had left`,
  );

  // Held: nothing more begins, statuses unchanged, the campaign still SENDING.
  const begunWhileHeld = stack.smtp.begun.filter((b) => b.from === t.from).length;
  await new Promise((r) => setTimeout(r, 3_000));
  expect(stack.smtp.begun.filter((b) => b.from === t.from).length).toBe(begunWhileHeld);
  expect(received()).toHaveLength(leftBefore.length);
  // Every email of the project either left (what the server has, or the simulator took) or waits PENDING.
  const [state] = await sql<{ emails: number; pending: number; left: number }>(
    stack,
    `select count(*)::int as emails, (count(*) filter (where status = 'PENDING'))::int as pending,
       (count(*) filter (where sent_at is not null))::int as left from emails where project_id = ?`,
    [t.project.id],
  );
  expect(state!.pending + state!.left).toBe(state!.emails);
  expect(state!.emails).toBe(total + bounces.length + automation.executions.length);
  expect(state!.pending).toBeGreaterThanOrEqual(
    total - leftBefore.filter((m) => m.to[0]!.startsWith(prefix)).length + automation.executions.length,
  );
  const view = (
    await stack.http().get(`/campaigns/${campaign.id}`).set('Cookie', t.user.cookie).set('X-Project-Id', t.project.id).expect(200)
  ).body;
  expect(view.status).toBe('SENDING');
  // What reached the server is what is marked sent.
  const sentRows = await count(
    `select count(*)::int as n from emails where project_id = ? and sent_at is not null and to_address not like '%@simulator.postwire.test'`,
    [t.project.id],
  );
  expect(sentRows).toBe(leftBefore.length);

  await admin(stack).post(`/admin/projects/${t.project.id}/reinstate`).send({ reason: 'Bounces explained' }).expect(200);
  const reinstatedAt = Date.now();
  await waitFor(
    'the campaign SENT',
    async () =>
      (await stack.http().get(`/campaigns/${campaign.id}`).set('Authorization', `Bearer ${t.project.secret}`)).body.status === 'SENT'
        ? true
        : undefined,
    180_000,
  );
  for (const e of automation.executions) {
    await waitFor(
      'the execution to complete',
      async () => {
        const res = await t.c.get(`/workflows/${automation.workflowId}/executions/${e.id}`);
        return res.body.status === 'COMPLETED' ? true : undefined;
      },
      120_000,
    );
  }
  await settledAll(stack, bounces, 'BOUNCED');
  await stack.smtp.untilQuiet();

  // Every recipient mailed once: each campaign recipient one message, each follow-up contact A then B.
  const byRecipient = new Map<string, number>();
  for (const m of received()) for (const to of m.to) byRecipient.set(to, (byRecipient.get(to) ?? 0) + 1);
  const campaignCounts = [...byRecipient].filter(([to]) => to.startsWith(prefix));
  expect(campaignCounts).toHaveLength(total);
  expect(campaignCounts.every(([, n]) => n === 1)).toBe(true);
  for (const e of automation.executions) expect(byRecipient.get(e.email)).toBe(2);
  expect(stack.smtp.begun.filter((b) => b.from === t.from)).toHaveLength(total + 2 * automation.executions.length);
  expect(await count(`select count(*)::int as n from emails where project_id = ? and status = 'PENDING'`, [t.project.id])).toBe(0);
  console.log(`reinstatement → campaign SENT and executions completed: ${Date.now() - reinstatedAt} ms`);
}, 400_000);
