import { rm } from 'node:fs/promises';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { bundleWorkflows, startWorkerProcess, workerEnv, type WorkerProcess } from '../helpers/worker-processes';
import { createCampaign, seedContacts } from '../campaigns/helpers';
import { addContact, executionIn, linearWorkflow, startExecution } from '../automation/helpers';
import { campaignTenant, verifiedDomain, tenant } from '../helpers/tenants';

/**
 * Cancelling stops sending at once (docs/delivery.md, "Withdrawal"): two worker processes send to a slow SMTP
 * server, each over a few connections, so that most of the emails they have claimed wait for a connection
 * when the cancel comes. Counted at the server: no SMTP transaction (MAIL FROM) begins after the cancel
 * answers, and what the campaign reports as sent is exactly what the server accepted.
 */
let stack: TestStack;
let bundle: string;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  stack = await startStack({ env: { CAMPAIGN_BATCH_SIZE: '25' }, terminateWorkflows: true });
  bundle = await bundleWorkflows();
  for (let i = 0; i < 2; i++) {
    workers.push(
      await startWorkerProcess({
        ...workerEnv(stack.deps.config, stack.deps.temporal.taskQueue),
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
  await rm(bundle, { force: true });
  await stack?.close();
});

const count = async (query: string, params: unknown[]) => (await sql<{ n: number }>(stack, query, params))[0]!.n;

describe('cancelling a SENDING campaign (two worker processes, slow SMTP server)', () => {
  const total = 150;

  it.each([
    ['at its first transaction', 0],
    ['early', 10],
    ['midway', 70],
    ['near the end', total - 30],
  ])(
    'stops it %s: nothing begins after the answer, and the counts are what the server accepted',
    async (_when, after) => {
      const t = await campaignTenant(stack);
      const prefix = `cancel-${t.project.id.slice(0, 8)}`;
      await seedContacts(stack, t.project.id, total, { prefix });
      // No throttle: every due email is claimed at once, as with a slow server and a high rate.
      await sql(stack, 'update projects set email_rate_per_second = 0 where id = ?', [t.project.id]);
      const campaign = await createCampaign(t);
      const received = () => stack.smtp.messages.filter((m) => m.to.some((a) => a.startsWith(prefix)));
      const begunBefore = stack.smtp.transactionsBegun;

      await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
      await waitFor(
        `${after} messages at the server`,
        async () => (stack.smtp.transactionsBegun > begunBefore && received().length >= after ? true : undefined),
        120_000,
      );
      const cancel = await t.c.post(`/campaigns/${campaign.id}/cancel`).send({});
      const begunAtAnswer = stack.smtp.transactionsBegun;
      expect(cancel.status).toBe(200);

      await waitFor(
        'no email of the campaign left PENDING',
        async () =>
          (await count(`select count(*)::int as n from emails where campaign_id = ? and status = 'PENDING'`, [campaign.id])) === 0
            ? true
            : undefined,
        60_000,
      );
      await stack.smtp.untilQuiet();
      const accepted = received();
      expect(stack.smtp.transactionsBegun - begunAtAnswer).toBe(0);
      expect(new Set(accepted.flatMap((m) => m.to)).size).toBe(accepted.length);
      expect(accepted.length).toBeLessThan(total);
      const view = (await t.c.get(`/campaigns/${campaign.id}`).expect(200)).body;
      const sentRows = await count(`select count(*)::int as n from emails where campaign_id = ? and status = 'SENT'`, [campaign.id]);
      if (accepted.length === 0) {
        expect(cancel.body.data.status).toBe('DRAFT');
        expect(view).toMatchObject({ status: 'DRAFT', sentCount: 0 });
      } else {
        expect(cancel.body.data.status).toBe('CANCELLED');
        // What had left when the cancel answered is exactly what the server has.
        expect(cancel.body.message).toBe(`Campaign cancelled; ${accepted.length} emails had already left, the rest will not be sent`);
        expect(view).toMatchObject({ status: 'CANCELLED', sentCount: accepted.length });
      }
      expect(sentRows).toBe(accepted.length);
    },
    300_000,
  );
});

describe('cancelling an automation execution whose email has not left', () => {
  it('sends nothing, though a worker had begun its SMTP transaction', async () => {
    const t = await tenant(stack);
    const { domain } = await verifiedDomain(stack, t.project);
    const template = await t.c
      .post('/templates')
      .send({ name: 'Welcome', subject: 'Welcome', body: '<p>Hello</p>', from: `hi@${domain}` })
      .expect(201);
    const address = `late-${t.project.id.slice(0, 8)}@example.test`;
    const contactId = await addContact(t, address);
    // The DELAY keeps the execution active once its email is queued.
    const { workflow } = await linearWorkflow(t, [
      ['SEND_EMAIL', { templateId: template.body.id }],
      ['DELAY', { amount: 1, unit: 'hours' }],
    ]);
    // The server takes its time over this recipient: the email is claimed and its transaction under way when the cancel comes.
    stack.smtp.slow(address, 4_000);
    const begunBefore = stack.smtp.transactionsBegun;
    const execution = await startExecution(t, workflow.id, { contactId });
    await waitFor(
      'the email to be claimed',
      async () =>
        (await count(`select count(*)::int as n from email_queue where workflow_execution_id = ? and lease_id is not null`, [
          execution.id,
        ])) === 1
          ? true
          : undefined,
      30_000,
    );
    await waitFor('its SMTP transaction to begin', async () => (stack.smtp.transactionsBegun > begunBefore ? true : undefined), 30_000);

    await t.c.delete(`/workflows/${workflow.id}/executions/${execution.id}`).expect(200);
    await executionIn(t, workflow.id, execution.id, ['CANCELLED']);
    // Until the email has an outcome, or is gone, a worker may still send it; and the slow recipient is answered after 4 s.
    await waitFor(
      'the email to be sent or withdrawn',
      async () =>
        (await count(`select count(*)::int as n from emails where workflow_execution_id = ? and status = 'PENDING'`, [execution.id])) === 0
          ? true
          : undefined,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 5_000));
    await stack.smtp.untilQuiet();
    expect(stack.smtp.to(address)).toHaveLength(0);
    expect(
      await count(`select count(*)::int as n from emails where workflow_execution_id = ? and status <> 'FAILED'`, [execution.id]),
    ).toBe(0);
  }, 120_000);
});
