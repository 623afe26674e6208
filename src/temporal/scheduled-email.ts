import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { ContactIdKey, EmailIdKey, ProjectIdKey, SendAtKey } from '../../workflows/search-attributes';
import type { scheduledEmail } from '../../workflows/scheduled-email/workflow';
import { WAKE_SIGNAL, scheduledEmailSummary, scheduledEmailWorkflowId } from '../../workflows/scheduled-email/ids';

export interface ScheduledEmailRef {
  id: string;
  projectId: string;
  contactId: string | null;
  to: string;
  sendAt: Date;
}

/**
 * Starts the timer of a SCHEDULED email. Called in the transaction that records the email, before it commits:
 * if Temporal cannot take it, nothing is recorded; if the commit fails after, the run finds no email when
 * due and ends (the email is due at least 5 s later, long after any commit).
 */
export async function startScheduledEmail(temporal: TemporalGateway, email: ScheduledEmailRef): Promise<void> {
  const sendAt = email.sendAt.toISOString();
  await temporal.client.workflow.start<typeof scheduledEmail>('scheduledEmail', {
    taskQueue: temporal.taskQueue,
    workflowId: scheduledEmailWorkflowId(email.id),
    args: [{ emailId: email.id, sendAt }],
    staticSummary: scheduledEmailSummary(email.to, sendAt),
    ...(temporal.searchAttributes
      ? {
          typedSearchAttributes: [
            { key: ProjectIdKey, value: email.projectId },
            { key: EmailIdKey, value: email.id },
            { key: SendAtKey, value: email.sendAt },
            ...(email.contactId ? [{ key: ContactIdKey, value: email.contactId }] : []),
          ],
        }
      : {}),
  });
}

/**
 * Wakes the email's run at `at` (now when past) to look at the email again: it was rescheduled or
 * cancelled. False when the run is no longer there (it released the email or ended).
 */
export async function wakeScheduledEmail(temporal: TemporalGateway, emailId: string, at: Date): Promise<boolean> {
  try {
    await temporal.client.workflow.getHandle(scheduledEmailWorkflowId(emailId)).signal(WAKE_SIGNAL, at.toISOString());
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
