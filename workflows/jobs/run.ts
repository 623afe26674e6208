import { ActivityFailure, continueAsNew, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities/jobs';
import type { JobResult } from '../../src/modules/jobs/entities';
import { PARALLEL_CHUNKS, chunkCount, chunkSummary, type JobWorkflowInput } from './ids';
import { runIsFull } from '../run-length';

const { beginJob, finishJob, failJob } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '1 minute' },
});

// A chunk is one transaction that heartbeats while it runs: a worker that dies holding one is noticed
// within ten seconds and the chunk retried. Failures that repeat ten times are not transient: the job
// fails with the reason.
const chunks = proxyActivities<JobActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumInterval: '30 seconds', maximumAttempts: 10 },
});

export interface ChunkStep {
  activity: 'processImportChunk' | 'processBulkChunk';
  unit: 'rows' | 'contacts';
}

function reasonOf(err: ActivityFailure, summary: string): string {
  return `Processing ${summary} failed: ${err.cause?.message ?? err.message}`;
}

/**
 * Runs that see a chunk fail after this patch let the chunks beside it finish before they mark the job
 * failed, so a failed job's counters are final and no chunk writes after the workflow ends. Earlier runs
 * marked it failed at once, while those chunks could still be writing.
 */
const FAIL_AFTER_RUNNING_CHUNKS = 'job-fails-after-running-chunks';

/**
 * Runs that start after this patch continue as new once their history reaches RUN_EVENTS (workflows/run-length.ts),
 * about five windows of chunks; earlier runs only when Temporal suggested it (thousands of events), as they did.
 */
const SHORT_RUNS = 'job-short-runs';

interface ChunkFailure {
  err: ActivityFailure;
  reason: string;
}

/** Runs the chunks of `window` side by side; when one keeps failing, the job fails with the first (in file order) reason. */
async function runWindow(input: JobWorkflowInput, step: ChunkStep, window: number[]): Promise<void> {
  const failures: Array<ChunkFailure | undefined> = [];
  await Promise.all(
    window.map(async (seq, i) => {
      const summary = chunkSummary(step.unit, seq, input);
      try {
        await chunks[step.activity].executeWithOptions({ summary }, [{ jobId: input.jobId, seq }]);
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        if (!patched(FAIL_AFTER_RUNNING_CHUNKS)) {
          await failJob(input.jobId, reasonOf(err, summary));
          throw err;
        }
        failures[i] = { err, reason: reasonOf(err, summary) };
      }
    }),
  );
  const failure = failures.find((f) => f !== undefined);
  if (failure) {
    await failJob(input.jobId, failure.reason);
    throw failure.err;
  }
}

/**
 * The loop both job workflows share: mark the job active, apply its chunks (each activity skips a chunk an
 * earlier attempt already committed), then mark it completed and return the final result. The first chunk
 * runs alone, as it fixes the types of new custom fields in file order; the rest run PARALLEL_CHUNKS at a
 * time, which is safe because chunks never share a contact. A chunk that keeps failing marks the job
 * failed once the chunks beside it have finished. Null when the job is gone with its project.
 */
export async function runJob(input: JobWorkflowInput, step: ChunkStep): Promise<JobResult | null> {
  const start = input.next ?? 0;
  const shortRuns = patched(SHORT_RUNS);
  if (start === 0) {
    if (!(await beginJob(input.jobId))) return null;
    if (chunkCount(input) > 0) await runWindow(input, step, [0]);
  }
  for (let seq = Math.max(start, 1); seq < chunkCount(input); seq += PARALLEL_CHUNKS) {
    if (seq > Math.max(start, 1) && (shortRuns ? runIsFull() : workflowInfo().continueAsNewSuggested)) {
      await continueAsNew<(input: JobWorkflowInput) => Promise<JobResult | null>>({ ...input, next: seq });
    }
    const window = Array.from({ length: Math.min(PARALLEL_CHUNKS, chunkCount(input) - seq) }, (_, i) => seq + i);
    await runWindow(input, step, window);
  }
  return finishJob(input.jobId);
}
