import { startEngine, type Engine } from '../automation/engine';
import { addContact, linearWorkflow, startExecution, waitingAt } from '../automation/helpers';
import { waitFor } from '../helpers/wait';
import { senderTenant, tenant } from '../helpers/tenants';
import { mcpClient, structured } from './helpers';

/** The composed tools on real data: a worker, the delivery pump, the sandbox's simulator addresses. */
let engine: Engine;
beforeAll(async () => {
  engine = await startEngine({ timeSkipping: false, env: { SANDBOX_ENABLED: 'true' } });
});
afterAll(() => engine?.close());

const SIM = 'simulator.postwire.test';
const unique = (mailbox: string) => `${mailbox}+${Math.random().toString(36).slice(2, 10)}@${SIM}`;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

interface Explained {
  verdict: string;
  status: string | null;
  scheduledAt: string | null;
  explanation: string[];
  contact: { subscribed: boolean } | null;
  activity: Array<{ type: string }>;
}

describe('composed tools', () => {
  it('explain_email tells a delivered email, a permanent bounce (and the contact unsubscribed), a suppressed one, a scheduled and a cancelled one, and an unknown id', async () => {
    const { project, from } = await senderTenant(engine.stack);
    const client = await mcpClient(engine.stack, bearer(project.secret));
    const sendTo = async (to: string, sendAt?: string) => {
      const res = structured<{ data: { emails: Array<{ email: string }> } }>(
        await client.callTool({
          name: 'emails_send',
          arguments: { to, from, subject: 'Receipt', body: '<p>Thanks</p>', subscribed: true, ...(sendAt ? { sendAt } : {}) },
        }),
      );
      return res.data.emails[0]!.email;
    };
    // The outcome's parts land in turn (the email's status, then the contact's change): wait for all of them.
    const explain = (args: Record<string, unknown>, verdict: string, done: (out: Explained) => boolean = () => true) =>
      waitFor(`verdict ${verdict}`, async () => {
        const out = structured<Explained>(await client.callTool({ name: 'explain_email', arguments: args }));
        return out.verdict === verdict && done(out) ? out : undefined;
      });

    const delivered = await sendTo(unique('delivered'));
    const ok = await explain({ emailId: delivered }, 'DELIVERED');
    expect(ok.explanation[0]).toMatch(/^The receiving server accepted it/);
    expect(ok.activity.map((a) => a.type)).toEqual(expect.arrayContaining(['SENT', 'DELIVERED']));

    const address = unique('bounce');
    const bounced = await sendTo(address);
    const refused = await explain({ emailId: bounced, to: address }, 'BOUNCED', (out) => out.contact?.subscribed === false);
    expect(refused.explanation.join(' ')).toMatch(/Permanent bounce.*suppression list \(BOUNCE\).*is unsubscribed \(bounce\)/);
    // The bounce put the address on the suppression list: the next email to it is held back.
    const held = await explain({ emailId: await sendTo(address) }, 'SUPPRESSED');
    expect(held.explanation[0]).toMatch(/^Not sent: the address is on the project's suppression list \(BOUNCE\)/);

    // A scheduled email has no activity yet: its record tells it from a queued or unknown one, and cancelling it shows.
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await sendTo(unique('delivered'), sendAt);
    const waiting = await explain({ emailId: scheduled }, 'SCHEDULED');
    expect(waiting).toMatchObject({ status: 'SCHEDULED', scheduledAt: sendAt, activity: [] });
    expect(waiting.explanation.join(' ')).toContain(`scheduled for ${sendAt}`);
    expect(waiting.explanation.join(' ')).toContain(`POST /v1/emails/${scheduled}/cancel`);
    await client.callTool({ name: 'emails_cancel', arguments: { id: scheduled } });
    const cancelled = await explain({ emailId: scheduled }, 'CANCELLED');
    expect(cancelled).toMatchObject({ status: 'CANCELLED', activity: [] });
    expect(cancelled.explanation[0]).toMatch(/^Not sent: it was cancelled while scheduled for /);

    const unknown = structured<Explained>(
      await client.callTool({ name: 'explain_email', arguments: { emailId: '00000000-0000-4000-8000-000000000000' } }),
    );
    expect(unknown).toMatchObject({ verdict: 'NOT_FOUND', status: null, explanation: ['No email of this project has that id.'] });
    const nobody = structured<Explained>(await client.callTool({ name: 'explain_email', arguments: { to: 'nobody@example.test' } }));
    expect(nobody).toMatchObject({ verdict: 'NOT_FOUND', contact: null });
    expect(nobody.explanation).toContain('No contact of the project has the address nobody@example.test.');
    const bad = await client.callTool({ name: 'explain_email', arguments: {} });
    expect(bad).toMatchObject({ isError: true, structuredContent: { error: { code: 'VALIDATION_ERROR' } } });

    await client.close();
  });

  it('automation_for_contact simulates the workflow for a contact and says what each step would do', async () => {
    const t = await tenant(engine.stack);
    const email = 'ann@example.test';
    await addContact(t, email);
    const { workflow } = await linearWorkflow(t, [
      ['UPDATE_CONTACT', { data: { stage: 'welcomed' } }],
      ['DELAY', { amount: 2, unit: 'days' }],
    ]);
    const client = await mcpClient(engine.stack, bearer(t.project.secret));
    const out = structured<{ outcome: string; steps: string[]; simulation: { contact: { data: Record<string, unknown> } } }>(
      await client.callTool({ name: 'automation_for_contact', arguments: { workflowId: workflow.id, email } }),
    );
    expect(out.outcome).toBe('COMPLETED after P2D');
    expect(out.steps).toEqual([
      expect.stringMatching(/^after PT?0S?: UPDATE_CONTACT COMPLETED/),
      expect.stringMatching(/: DELAY COMPLETED/),
    ]);
    expect(out.simulation.contact.data).toMatchObject({ stage: 'welcomed' });
    await client.close();
  });

  it('execution_timeline merges the steps with the Temporal history of the run', async () => {
    const t = await tenant(engine.stack);
    const contactId = await addContact(t, 'bob@example.test');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['UPDATE_CONTACT', { data: { stage: 'welcomed' } }],
      ['DELAY', { amount: 2, unit: 'days' }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[1]!);
    const client = await mcpClient(engine.stack, bearer(t.project.secret));
    const out = structured<{
      execution: { status: string; workflow: { name: string } };
      temporal: { workflowId: string };
      timeline: Array<{ source: string; summary: string }>;
    }>(await client.callTool({ name: 'execution_timeline', arguments: { executionId: started.id } }));
    expect(out.execution).toMatchObject({ status: 'WAITING', workflow: { name: 'Welcome series' } });
    expect(out.temporal.workflowId).toBe(`automation:${workflow.id}:${contactId}`);
    const said = out.timeline.map((e) => `${e.source}: ${e.summary}`);
    expect(said).toEqual(
      expect.arrayContaining([
        'temporal: Started automationV2: Welcome series: bob@example.test',
        'step: UPDATE_CONTACT started',
        'temporal: Timer of 2 days started: Welcome series: step 2, DELAY 2 days',
      ]),
    );
    await client.close();
  });
});
