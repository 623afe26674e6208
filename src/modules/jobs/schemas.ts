import { z } from 'zod';
import { JOB_STATES } from './entities';

export const JobAccepted = z.object({ jobId: z.string().describe('The job to poll; also the ID of its Temporal workflow') });

/** docs/jobs.md "States and progress": a poll answers `{ id, state, progress, result, failedReason? }`; `result` depends on the job. */
export const jobStatus = <R extends z.ZodType>(result: R) =>
  z.object({
    id: z.string(),
    state: z.enum(JOB_STATES),
    progress: z.number().int().min(0).max(100).describe('Share of rows or IDs processed, in percent; 100 once completed'),
    result: result.describe('Counters so far (final once completed); errors lists at most the first 1,000 failures'),
    failedReason: z.string().optional().describe('Only when state is failed'),
  });

/** `<prefix>:<uuid>`; anything else cannot name a job, so it is a 404 (see parseParams). */
export const jobIdParams = (prefix: string) =>
  z.object({
    jobId: z
      .string()
      .regex(new RegExp(`^${prefix}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`), `must be ${prefix}:<uuid>`),
  });
