import type { TemporalGateway } from './client';
import { projectWorkflow } from './project-workflow';
import type { contactBulk } from '../../workflows/jobs/bulk';
import type { contactImport } from '../../workflows/jobs/import';
import type { JobWorkflowInput } from '../../workflows/jobs/ids';

export type JobWorkflowType = 'contactImport' | 'contactBulk';

/** Starts a job's workflow under the job's ID; each job is new, so an ID already in use is an error. */
export async function startJobWorkflow(
  temporal: TemporalGateway,
  workflow: JobWorkflowType,
  job: { input: JobWorkflowInput; summary: string },
): Promise<void> {
  await temporal.client.workflow.start<typeof contactImport | typeof contactBulk>(workflow, {
    taskQueue: temporal.taskQueue,
    workflowId: job.input.jobId,
    args: [job.input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    staticSummary: job.summary,
    ...projectWorkflow(temporal, job.input.projectId),
  });
}
