import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { setFrequencyCap, tenant, type Tenant } from '../helpers/tenants';
import { timeSkippingEngine } from './engine';
import { recordHistory } from './histories';
import { AutomationExecution } from '../../src/modules/automations/entities';
import { Contact } from '../../src/modules/contacts/entities';
import { sendStepEmail } from '../../src/modules/automations/run/send-email';
import { addContact, executionIn, linearWorkflow, senderDomain, startExecution, waitingAt, type Body } from './helpers';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let stack: TestStack;
let env: TestWorkflowEnvironment;
timeSkippingEngine((started) => ({ stack, env } = started));

const historyOf = (e: Body) => e.stepHistory as Array<Record<string, unknown> & { startedAt: string; completedAt: string | null }>;

/** A tenant with a cap, a MARKETING and a TRANSACTIONAL template. */
async function capped(cap: { maxEmails: number; windowDays: number }) {
  const t = await tenant(stack);
  await setFrequencyCap(stack, t, cap);
  const domain = await senderDomain(stack, t.project);
  const template = async (type: string) =>
    (
      await t.c
        .post('/templates')
        .send({ name: type, subject: `${type} news`, body: '<p>Hi</p>', from: `hello@${domain}`, type })
        .expect(201)
    ).body.id as string;
  return { t, marketing: await template('MARKETING'), transactional: await template('TRANSACTIONAL') };
}

const emailsOf = (t: Tenant, contactId: string) =>
  sql<{ id: string; marketing: boolean; created_at: Date }>(
    stack,
    'select id, marketing, created_at from emails where project_id = ? and contact_id = ? order by created_at',
    [t.project.id, contactId],
  );

// The tests that skip no time come first: email timestamps are the database's clock, which the test server's
// leaves behind once a test skips days.
describe('frequency cap on SEND_EMAIL (time-skipping)', () => {
  it('skips the marketing email over the cap with onCap "skip"; a TRANSACTIONAL email is never capped', async () => {
    const { t, marketing, transactional } = await capped({ maxEmails: 3, windowDays: 7 });
    const contactId = await addContact(t, 'skip@example.test');
    const send = { templateId: marketing };
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', { ...send, onCap: 'skip' }],
      ['SEND_EMAIL', { templateId: transactional }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED'], 60_000);
    const history = historyOf(done);
    expect(history.map((h) => h.stepId)).toEqual(stepIds);
    expect(history[3]!.output).toEqual({ emailId: null, to: 'skip@example.test', skipped: 'FREQUENCY_CAPPED' });
    expect(history[4]!.output).toEqual({ emailId: expect.any(String), to: 'skip@example.test' });
    expect((await emailsOf(t, contactId)).map((e) => e.marketing)).toEqual([true, true, true, false]);

    // The third step run again (an activity retried after a lost completion), the contact now at the cap: it
    // finds its email instead of counting it, and sends nothing more.
    const em = stack.deps.orm.em.fork();
    const live = {
      execution: await em.findOneOrFail(AutomationExecution, { id: started.id }),
      contact: await em.findOneOrFail(Contact, { id: contactId }),
    };
    const again = await sendStepEmail(stack.deps.config, em, live, { id: stepIds[2]!, config: send }, {}, new Date());
    expect(again).toEqual(history[2]!.output);
    expect(await emailsOf(t, contactId)).toHaveLength(4);
  });

  it('lets one of two sends at once through a cap of 1: the other waits', async () => {
    const { t, marketing } = await capped({ maxEmails: 1, windowDays: 7 });
    const contactId = await addContact(t, 'race@example.test');
    const { workflow } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: marketing }]]);
    const { workflow: other } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: marketing }]]);
    const [a, b] = await Promise.all([startExecution(t, workflow.id, { contactId }), startExecution(t, other.id, { contactId })]);
    const both = await Promise.all([
      executionIn(t, workflow.id, a.id, ['COMPLETED', 'WAITING'], 60_000),
      executionIn(t, other.id, b.id, ['COMPLETED', 'WAITING'], 60_000),
    ]);
    expect(both.map((e) => String(e.status)).toSorted()).toEqual(['COMPLETED', 'WAITING']);
    const emails = await emailsOf(t, contactId);
    expect(emails).toHaveLength(1);
    const waiting = both.find((e) => e.status === 'WAITING')!;
    expect(Date.parse(String(waiting.resumesAt))).toBe(new Date(emails[0]!.created_at).getTime() + 7 * DAY);
  });

  it('holds the fourth marketing email of 3 per 7 days until the window allows it, then sends it once', async () => {
    const { t, marketing } = await capped({ maxEmails: 3, windowDays: 7 });
    const contactId = await addContact(t, 'wait@example.test');
    const send = { templateId: marketing };
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', send],
      ['SEND_EMAIL', { ...send, onCap: 'wait' }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    const held = await waitingAt(t, workflow.id, started.id, stepIds[3]!);
    const first = await emailsOf(t, contactId);
    expect(first).toHaveLength(3);
    // Until the oldest of the three leaves the window.
    const resumesAt = new Date(new Date(first[0]!.created_at).getTime() + 7 * DAY).toISOString();
    expect(held).toMatchObject({ status: 'WAITING', waitingFor: null, resumesAt });
    expect(historyOf(held)[3]).toMatchObject({ status: 'WAITING', output: null });
    // Operators read why in the Temporal UI.
    const handle = env.client.workflow.getHandle(held.temporalWorkflowId as string);
    const details = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(details.currentDetails).toContain(`: frequency cap until ${resumesAt}`);

    await env.sleep(7 * DAY + 60 * MINUTE);
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED'], 60_000);
    const step = historyOf(done)[3]!;
    expect(step.output).toEqual({ emailId: expect.any(String), to: 'wait@example.test' });
    expect(Date.parse(step.completedAt!)).toBeGreaterThanOrEqual(Date.parse(resumesAt));
    expect(historyOf(done)).toHaveLength(4);
    expect(await emailsOf(t, contactId)).toHaveLength(4);
    await recordHistory(env, done, 'send-email-frequency-cap');
  });
});
