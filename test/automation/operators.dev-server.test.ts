import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { AutomationIdKey, ContactIdKey, CurrentStepKey, ProjectIdKey } from '../../workflows/search-attributes';
import { waitFor } from '../helpers/wait';
import { startEngine, type Engine } from './engine';
import { addContact, executionIn, linearWorkflow, startExecution, waitingAt } from './helpers';
import { tenant } from '../helpers/tenants';

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine({ timeSkipping: false });
});
afterAll(() => engine?.close());

const summaryOf = (metadata: { summary?: Payload | null } | null | undefined) =>
  metadata?.summary ? defaultPayloadConverter.fromPayload<string>(metadata.summary) : undefined;

describe('automation executions for operators (dev server)', () => {
  it('carry search attributes, a summary, current details and summaries on timers and activities', async () => {
    const { stack } = engine;
    const t = await tenant(stack);
    const contactId = await addContact(t, 'ann@example.test');
    const { workflow, stepIds } = await linearWorkflow(t, [
      ['UPDATE_CONTACT', { data: { stage: 'welcomed' } }],
      ['DELAY', { amount: 2, unit: 'days' }],
    ]);
    const started = await startExecution(t, workflow.id, { contactId });
    await waitingAt(t, workflow.id, started.id, stepIds[1]!);
    const handle = stack.deps.temporal.client.workflow.getHandle(started.temporalWorkflowId as string);

    // The step's database mirror is written by a local activity inside the workflow task that also moves the
    // CurrentStep search attribute, so the row can show the step a moment before the task completes.
    const described = await waitFor('CurrentStep at the DELAY', async () => {
      const d = await handle.describe();
      return d.typedSearchAttributes.get(CurrentStepKey) === stepIds[1] ? d : undefined;
    });
    expect(described.typedSearchAttributes.get(ProjectIdKey)).toBe(t.project.id);
    expect(described.typedSearchAttributes.get(ContactIdKey)).toBe(contactId);
    expect(described.typedSearchAttributes.get(AutomationIdKey)).toBe(workflow.id);
    expect(described.typedSearchAttributes.get(CurrentStepKey)).toBe(stepIds[1]);
    expect(await described.staticSummary()).toBe('Welcome series: ann@example.test');
    const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toBe('Welcome series: step 2, DELAY 2 days');

    const events = (await handle.fetchHistory()).events ?? [];
    const timer = events.find((e) => e.timerStartedEventAttributes);
    expect(summaryOf(timer?.userMetadata)).toBe('Welcome series: step 2, DELAY 2 days');
    // The step's work runs as a local activity, recorded as a marker.
    const markers = events.filter((e) => e.markerRecordedEventAttributes).map((e) => summaryOf(e.userMetadata));
    expect(markers).toContain('Welcome series: step 1, UPDATE_CONTACT');

    const listed = await waitFor('the visibility record', async () => {
      const found: string[] = [];
      const query = `ContactId = "${contactId}" AND AutomationId = "${workflow.id}" AND CurrentStep = "${stepIds[1]}"`;
      for await (const wf of stack.deps.temporal.client.workflow.list({ query })) found.push(wf.workflowId);
      return found.length ? found : undefined;
    });
    expect(listed).toEqual([`automation:${workflow.id}:${contactId}`]);

    await t.c.delete(`/workflows/${workflow.id}/executions/${started.id}`).expect(200);
    await executionIn(t, workflow.id, started.id, ['CANCELLED']);
    await waitFor('Temporal to cancel', async () => ((await handle.describe()).status.name === 'CANCELLED' ? true : undefined));
  });
});
