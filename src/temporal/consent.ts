import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import { ContactIdKey } from '../../workflows/search-attributes';
import type { contactConfirmation } from '../../workflows/consent/confirmation';
import type { contactSnooze } from '../../workflows/consent/snooze';
import {
  CONFIRMATION_SETTLED_SIGNAL,
  SNOOZE_CHANGED_SIGNAL,
  confirmationSummary,
  confirmationWorkflowId,
  snoozeSummary,
  snoozeWorkflowId,
  type SnoozeEnd,
} from '../../workflows/consent/ids';

const contactWorkflow = (temporal: TemporalGateway, ref: { projectId: string; contactId: string }) =>
  projectWorkflow(temporal, ref.projectId, [{ key: ContactIdKey, value: ref.contactId }]);

/**
 * Snoozes the contact until `end`: starts its snooze workflow, or moves the end of the one running. The
 * workflow ends the snooze by itself (docs/consent.md "Snooze").
 */
export async function startSnooze(temporal: TemporalGateway, ref: { projectId: string; contactId: string }, end: SnoozeEnd): Promise<void> {
  await temporal.client.workflow.signalWithStart<typeof contactSnooze, [SnoozeEnd | null]>('contactSnooze', {
    taskQueue: temporal.taskQueue,
    workflowId: snoozeWorkflowId(ref.contactId),
    args: [{ projectId: ref.projectId, contactId: ref.contactId, ...end }],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: snoozeSummary(ref.contactId, ref.projectId),
    signal: SNOOZE_CHANGED_SIGNAL,
    signalArgs: [end],
    ...contactWorkflow(temporal, ref),
  });
}

/** Tells a running snooze that it was ended early; false when none was running. */
export const stopSnooze = (temporal: TemporalGateway, contactId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(snoozeWorkflowId(contactId)).signal(SNOOZE_CHANGED_SIGNAL, null));

/** Starts the reminder and expiry of a new pending confirmation. */
export async function startConfirmation(
  temporal: TemporalGateway,
  ref: { id: string; projectId: string; contactId: string },
): Promise<void> {
  await temporal.client.workflow.start<typeof contactConfirmation>('contactConfirmation', {
    taskQueue: temporal.taskQueue,
    workflowId: confirmationWorkflowId(ref.id),
    args: [{ confirmationId: ref.id }],
    staticSummary: confirmationSummary(ref.contactId, ref.projectId),
    ...contactWorkflow(temporal, ref),
  });
}

/** Ends the workflow of a confirmation that was confirmed; false when it was not running. */
export const settleConfirmation = (temporal: TemporalGateway, confirmationId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(confirmationWorkflowId(confirmationId)).signal(CONFIRMATION_SETTLED_SIGNAL));
