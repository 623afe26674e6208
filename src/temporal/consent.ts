import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { fairnessOf } from './fairness';
import { ContactIdKey, ProjectIdKey } from '../../workflows/search-attributes';
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

const attributes = (temporal: TemporalGateway, projectId: string, contactId: string) =>
  temporal.searchAttributes
    ? {
        typedSearchAttributes: [
          { key: ProjectIdKey, value: projectId },
          { key: ContactIdKey, value: contactId },
        ],
      }
    : {};

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
    ...attributes(temporal, ref.projectId, ref.contactId),
    ...fairnessOf(ref.projectId),
  });
}

/** Tells a running snooze that it was ended early; false when none was running. */
export async function stopSnooze(temporal: TemporalGateway, contactId: string): Promise<boolean> {
  try {
    await temporal.client.workflow.getHandle(snoozeWorkflowId(contactId)).signal(SNOOZE_CHANGED_SIGNAL, null);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

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
    ...attributes(temporal, ref.projectId, ref.contactId),
    ...fairnessOf(ref.projectId),
  });
}

/** Ends the workflow of a confirmation that was confirmed; false when it was not running. */
export async function settleConfirmation(temporal: TemporalGateway, confirmationId: string): Promise<boolean> {
  try {
    await temporal.client.workflow.getHandle(confirmationWorkflowId(confirmationId)).signal(CONFIRMATION_SETTLED_SIGNAL);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
