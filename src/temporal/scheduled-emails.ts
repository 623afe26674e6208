import type { TemporalGateway } from './client';
import { projectWorkflow } from './project-workflow';
import { SendAtKey } from '../../workflows/search-attributes';
import type { scheduledEmails } from '../../workflows/scheduled-emails/workflow';
import { bucketOf, scheduledEmailsSummary, scheduledEmailsWorkflowId } from '../../workflows/scheduled-emails/ids';

/**
 * Makes sure a timer runs for the project's emails due within the second of `at` (one run per project and
 * second; one already there is kept). Called in the transaction that schedules or reschedules the emails,
 * before it commits: if Temporal cannot take it, nothing is recorded; if the commit fails after, the run
 * finds nothing more to release when it fires.
 */
export async function ensureScheduledRelease(temporal: TemporalGateway, projectId: string, at: Date): Promise<void> {
  const dueAt = bucketOf(at);
  await temporal.client.workflow.start<typeof scheduledEmails>('scheduledEmails', {
    taskQueue: temporal.taskQueue,
    workflowId: scheduledEmailsWorkflowId(projectId, dueAt),
    args: [{ projectId, dueAt: dueAt.toISOString() }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: scheduledEmailsSummary(projectId, dueAt),
    ...projectWorkflow(temporal, projectId, [{ key: SendAtKey, value: dueAt }]),
  });
}
