import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { createCampaign } from '../campaigns/helpers';
import { addContact, executionIn, linearWorkflow, startExecution } from '../automation/helpers';
import { get } from './helpers';
import { campaignTenant, type SenderTenant, type Tenant } from '../helpers/tenants';

const MINUTE = 60_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, terminateWorkflows: true });
});
afterAll(() => stack?.close());

async function schedule(t: SenderTenant, name: string, inMinutes: number): Promise<{ id: string; at: string }> {
  const campaign = await createCampaign(t, { name });
  const at = new Date(Date.now() + inMinutes * MINUTE).toISOString();
  await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: at }).expect(200);
  return { id: campaign.id, at };
}

/** An execution of a new workflow for a new contact, once it waits at its first step. */
async function waiting(t: Tenant, name: string, step: [string, object]) {
  const { workflow } = await linearWorkflow(t, [step, ['EXIT', {}]], { name, eventName: `never-${name}` });
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}@example.test`;
  const contactId = await addContact(t, email);
  const started = await startExecution(t, workflow.id, { contactId });
  const execution = await executionIn(t, workflow.id, started.id, ['WAITING']);
  return { workflowId: workflow.id, contactId, email, execution };
}

describe('GET /activity/upcoming', () => {
  it('lists scheduled campaigns soonest first, and executions under way by when they resume', async () => {
    const t = await campaignTenant(stack);
    const later = await schedule(t, 'Later', 120);
    const sooner = await schedule(t, 'Sooner', 30);
    await createCampaign(t, { name: 'Still a draft' });
    const other = await campaignTenant(stack);
    await schedule(other, 'Not ours', 10);

    const dayLong = await waiting(t, 'Day long', ['DELAY', { amount: 1, unit: 'days' }]);
    const hourLong = await waiting(t, 'Hour long', ['DELAY', { amount: 1, unit: 'hours' }]);
    const forEvent = await waiting(t, 'For an event', ['WAIT_FOR_EVENT', { eventName: 'purchase' }]);
    const withTimeout = await waiting(t, 'With a timeout', ['WAIT_FOR_EVENT', { eventName: 'purchase', timeout: 7200 }]);
    const done = await linearWorkflow(t, [['EXIT', {}]], { name: 'Over at once', eventName: 'never' });
    const finished = await startExecution(t, done.workflow.id, { contactId: await addContact(t, 'finished@example.test') });
    await executionIn(t, done.workflow.id, finished.id, ['EXITED', 'COMPLETED']);

    const body = (await get(stack, t.project, '/activity/upcoming').expect(200)).body;
    expect(body.campaigns).toEqual([
      { id: sooner.id, name: 'Sooner', scheduledFor: sooner.at, totalRecipients: 0 },
      { id: later.id, name: 'Later', scheduledFor: later.at, totalRecipients: 0 },
    ]);
    expect(body.executions.map((x: { workflow: { name: string } }) => x.workflow.name)).toEqual([
      'Hour long',
      'With a timeout',
      'Day long',
      'For an event',
    ]);
    const [hour, timeout, day, event] = body.executions;
    const since = Date.parse(hour.since);
    expect(hour).toEqual({
      id: hourLong.execution.id,
      workflow: { id: hourLong.workflowId, name: 'Hour long' },
      contact: { id: hourLong.contactId, email: hourLong.email },
      status: 'WAITING',
      step: { id: expect.any(String), type: 'DELAY', name: null },
      waitingFor: null,
      since: expect.any(String),
      resumesAt: new Date(since + 60 * MINUTE).toISOString(),
    });
    expect(Date.parse(timeout.resumesAt) - Date.parse(timeout.since)).toBe(7200 * 1000);
    expect(Date.parse(day.resumesAt) - Date.parse(day.since)).toBe(24 * 60 * MINUTE);
    expect(event).toMatchObject({ id: forEvent.execution.id, step: { type: 'WAIT_FOR_EVENT' }, waitingFor: 'purchase', resumesAt: null });
    expect(withTimeout.execution.id).toBe(timeout.id);
    expect(dayLong.execution.id).toBe(day.id);
    expect(body.totals).toEqual({ campaigns: 2, executions: 4, emails: 0 });

    const one = (await get(stack, t.project, '/activity/upcoming?limit=1').expect(200)).body;
    expect([one.campaigns.length, one.executions.length, one.totals]).toEqual([1, 1, { campaigns: 2, executions: 4, emails: 0 }]);
  });

  it('is empty for a project with nothing ahead, and refuses a bad limit', async () => {
    const t = await campaignTenant(stack);
    expect((await get(stack, t.project, '/activity/upcoming').expect(200)).body).toEqual({
      campaigns: [],
      executions: [],
      emails: [],
      totals: { campaigns: 0, executions: 0, emails: 0 },
    });
    for (const query of ['limit=0', 'limit=101', 'limit=few']) {
      expect((await get(stack, t.project, `/activity/upcoming?${query}`).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
  });
});
