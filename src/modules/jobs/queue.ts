import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { callTemporal } from '../../temporal/unavailable';
import { startJobWorkflow, type JobWorkflowType } from '../../temporal/jobs';
import { createJob, deleteJob, type NewJob } from './store';

export interface QueuedJob {
  job: NewJob;
  /** The job's work, `chunkSize` rows or IDs per chunk, each as JSON text (job_chunks.items). */
  chunks: string[];
  chunkSize: number;
  workflow: JobWorkflowType;
  /** What operators read in the Temporal Web UI. */
  summary: string;
}

/**
 * Stores the job with its work, then starts its workflow. When the start fails the job is removed again,
 * so nothing is ever queued without a workflow to run it; Temporal being unreachable is a 503.
 */
export async function queueJob(deps: Deps, em: EntityManager, queued: QueuedJob): Promise<void> {
  const { job } = queued;
  await createJob(em, job, queued.chunks);
  try {
    await callTemporal('nothing was queued', () =>
      startJobWorkflow(deps.temporal, queued.workflow, {
        input: { jobId: job.id, projectId: job.projectId, total: job.total, chunkSize: queued.chunkSize },
        summary: queued.summary,
      }),
    );
  } catch (err) {
    await deleteJob(em, job.id);
    throw err;
  }
}
