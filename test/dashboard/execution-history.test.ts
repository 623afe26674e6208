import { startEngine } from '../automation/engine';
import { addContact, linearWorkflow, startExecution, waitingAt } from '../automation/helpers';
import { sql } from '../helpers/seed';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { tenant } from '../helpers/tenants';

const suite = dashboardSuite(() => startEngine({ timeSkipping: false }));

describe("the dashboard: an execution's Temporal history", () => {
  it('lists what the run did, in words, under the step history', async () => {
    const t = await tenant(suite.stack);
    const contactId = await addContact(t, 'cy@example.test');
    // The run starts with CurrentStep at the wait, where it first stops, and moves it to the DELAY.
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['WAIT_FOR_EVENT', { eventName: 'confirmed' }],
      ['DELAY', { amount: 2, unit: 'days' }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[0]!);
    await t.c.post('/events/track').send({ email: 'cy@example.test', event: 'confirmed' }).expect(200);
    const waiting = await waitingAt(t, workflow.id, started.id, stepIds[1]!);
    const [{ step_started_at }] = await sql<{ step_started_at: string }>(
      suite.stack,
      'select step_started_at from automation_executions where id = ?',
      [started.id],
    );
    expect(waiting.resumesAt).toBe(new Date(Date.parse(step_started_at) + 2 * 86_400_000).toISOString());
    const session = await freshSession(suite.browser);
    await logInAs(session, t.user, t.project.id, `/automations/${workflow.id}/executions/${started.id}`);
    // The summary says when the DELAY ends, in the browser's locale and time zone.
    const resumes = await session.page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      waiting.resumesAt as string,
    );
    const summary = session.page.getByRole('region', { name: 'Summary' });
    await summary.getByText('Resumes at').waitFor();
    expect(await summary.locator('dt:has-text("Resumes at") + dd').textContent()).toBe(`${resumes} (in 2 days)`);
    const table = session.page.getByRole('table', { name: 'Temporal history' });
    await table.getByText('Timer of 2 days started: Welcome series: step 2, DELAY 2 days').waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(2);
    expect(await table.getByText('Started automationV2: Welcome series: cy@example.test').count()).toBe(1);
    expect(await table.getByText(`Search attributes set: CurrentStep=${stepIds[1]}`).count()).toBe(1);
    await checkPage(session.page, 'automations-execution-history');
    await session.close();
  });
});
