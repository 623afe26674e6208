import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';
import { addContact } from '../segments/helpers';
import { createCampaign, sentCampaign } from '../campaigns/helpers';
import { executionIn, linearWorkflow, startExecution } from '../automation/helpers';

/**
 * With the sandbox off (production's setting), a contact at the simulator domain gets no email from a campaign
 * or an automation either, as /v1/send refuses it (docs/sandbox.md): real worker, pump and dev server.
 */
const SIM = 'simulator.postwire.test';
const REFUSAL = `is at ${SIM}, which only a development sandbox (SANDBOX_ENABLED) accepts`;

let stack: TestStack;
let t: SenderTenant;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, pump: true, terminateWorkflows: true });
  t = await campaignTenant(stack);
});
afterAll(() => stack?.close());

/** The contact's email activity (sent, failed, ...) through the API. */
const activityOf = async (contactId: string) => (await t.c.get(`/activity?contactId=${contactId}`).expect(200)).body.data as unknown[];

it('a campaign skips the contact at the simulator domain and sends to the others', async () => {
  const simulated = `delivered+campaign-${t.project.id.slice(0, 8)}@${SIM}`;
  const reader = `reader-${t.project.id.slice(0, 8)}@example.test`;
  const simulatedId = await addContact(t, simulated);
  const readerId = await addContact(t, reader);
  const campaign = await createCampaign(t);
  await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
  const sent = await sentCampaign(t, campaign.id, 60_000);
  expect(sent).toMatchObject({ totalRecipients: 2, sentCount: 1 });
  await stack.smtp.waitFor((m) => m.to.includes(reader));
  expect(stack.smtp.to(simulated)).toEqual([]);
  expect(await activityOf(readerId)).not.toEqual([]);
  expect(await activityOf(simulatedId)).toEqual([]);
});

it('an automation that would email a contact at the simulator domain fails its step with the reason, and sends nothing', async () => {
  const template = (
    await t.c
      .post('/templates')
      .send({ name: 'Welcome', subject: 'Welcome', body: '<p>Hi</p>', from: t.from, type: 'TRANSACTIONAL' })
      .expect(201)
  ).body;
  const simulated = `delivered+automation-${t.project.id.slice(0, 8)}@${SIM}`;
  const contactId = await addContact(t, simulated);
  const { workflow } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: template.id }]]);
  const started = await startExecution(t, workflow.id, { contactId });
  const failed = await executionIn(t, workflow.id, started.id, ['FAILED', 'COMPLETED'], 30_000);
  expect(failed).toMatchObject({ status: 'FAILED', error: `No email sent: ${simulated} ${REFUSAL}` });
  expect(await activityOf(contactId)).toEqual([]);
});
