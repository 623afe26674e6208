import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ChildWorkflowFailure, continueAsNew, executeChild, log, patched, sleep, workflowInfo } from '@temporalio/workflow';
import { segmentCompute } from './compute';
import { COMPUTES_PER_RUN, segmentComputeSummary, segmentComputeWorkflowId, type SegmentTrackingInput } from './ids';
import { runIsFull } from '../run-length';

/** Runs that start after this patch continue as new at RUN_EVENTS history events (workflows/run-length.ts); earlier ones after COMPUTES_PER_RUN computations. */
const SHORT_RUNS = 'segment-tracking-short-runs';

/** Runs one computation as a child; false when the segment is gone or no longer tracked. */
async function computeOnce(input: SegmentTrackingInput): Promise<boolean> {
  try {
    const result = await executeChild(segmentCompute, {
      workflowId: segmentComputeWorkflowId(input.segmentId),
      args: [{ segmentId: input.segmentId, projectId: input.projectId }],
      staticSummary: segmentComputeSummary(input.segmentId, input.projectId),
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
    return result !== null;
  } catch (err) {
    // A computation requested through the API is running: it does this round's work.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return true;
    // A failed computation is retried at the next period; the loop itself must outlive it.
    if (err instanceof ChildWorkflowFailure) {
      log.warn('segment computation failed; retrying at the next period', { segmentId: input.segmentId, error: String(err.cause) });
      return true;
    }
    throw err;
  }
}

/**
 * The periodic computation of one tracked segment: computes now, then every `intervalMinutes`, on a durable
 * timer, for as long as the segment exists and tracks membership. Turning tracking off or deleting the
 * segment terminates it; should that fail, the next computation finds nothing to do and the loop ends.
 */
export async function segmentTracking(input: SegmentTrackingInput): Promise<void> {
  const shortRuns = patched(SHORT_RUNS);
  for (let runs = 1; ; runs++) {
    if (!(await computeOnce(input))) return;
    await sleep(`${input.intervalMinutes} minutes`, { summary: 'Wait for the next membership computation' });
    if (shortRuns ? runIsFull() : runs >= COMPUTES_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof segmentTracking>(input);
    }
  }
}
