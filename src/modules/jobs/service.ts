import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { notFound } from '../../http/errors';
import { Job, type JobKind } from './entities';

/** A job of the project; another project's job is as absent as a missing one. */
export async function getJob(em: EntityManager, projectId: string, id: string, kind: JobKind): Promise<Job> {
  const job = await em.findOne(Job, { id, projectId, kind });
  if (!job) throw notFound('Job');
  return job;
}

export function progressOf(job: Pick<Job, 'state' | 'total' | 'processed'>): number {
  if (job.state === 'completed') return 100;
  if (job.total === 0) return 0;
  return Math.min(100, Math.floor((job.processed * 100) / job.total));
}

/** `result` read through the kind's schema, which also puts its fields in their documented order. */
export const serializeJob = (job: Job, result: z.ZodType) => ({
  id: job.id,
  state: job.state,
  progress: progressOf(job),
  result: result.parse(job.result),
  ...(job.state === 'failed' ? { failedReason: job.failedReason ?? 'The job failed' } : {}),
});
