import { WorkflowExecutionAlreadyStartedError, isGrpcDeadlineError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import type { segmentCompute } from '../../workflows/segments/compute';
import type { segmentTracking } from '../../workflows/segments/tracking';
import {
  segmentComputeSummary,
  segmentComputeWorkflowId,
  segmentTrackingSummary,
  segmentTrackingWorkflowId,
  type SegmentComputeResult,
} from '../../workflows/segments/ids';

interface SegmentRef {
  id: string;
  projectId: string;
}

/** Starts the segment's tracking loop; a loop already running for it is kept, so calling this again is harmless. */
export async function startSegmentTracking(temporal: TemporalGateway, segment: SegmentRef, intervalMinutes: number): Promise<void> {
  try {
    await temporal.client.workflow.start<typeof segmentTracking>('segmentTracking', {
      taskQueue: temporal.taskQueue,
      workflowId: segmentTrackingWorkflowId(segment.id),
      args: [{ segmentId: segment.id, projectId: segment.projectId, intervalMinutes }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      staticSummary: segmentTrackingSummary(segment.id, segment.projectId, intervalMinutes),
      ...projectWorkflow(temporal, segment.projectId),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Terminates the tracking loop (a computation it runs goes with it); false when none was running. */
export const stopSegmentTracking = (temporal: TemporalGateway, segmentId: string, reason: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(segmentTrackingWorkflowId(segmentId)).terminate(reason));

/** A computation that outlasted the request's wait: it goes on in Temporal, as this workflow. */
export interface StillComputing {
  running: string;
}

/**
 * Computes the segment now and waits for the outcome, at most `waitMs`: a computation with no worker free to
 * run it would otherwise hold the request for as long as it waits. A computation already running (the tracking
 * loop's, or another request's) is joined rather than doubled. Null when the segment is gone or no longer
 * tracked.
 */
export async function computeSegmentNow(
  temporal: TemporalGateway,
  segment: SegmentRef,
  waitMs: number,
): Promise<SegmentComputeResult | null | StillComputing> {
  const workflowId = segmentComputeWorkflowId(segment.id);
  try {
    await temporal.client.workflow.start<typeof segmentCompute>('segmentCompute', {
      taskQueue: temporal.taskQueue,
      workflowId,
      args: [{ segmentId: segment.id, projectId: segment.projectId }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      staticSummary: segmentComputeSummary(segment.id, segment.projectId),
      ...projectWorkflow(temporal, segment.projectId),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  try {
    return await temporal.client.withDeadline(Date.now() + waitMs, () =>
      temporal.client.workflow.getHandle<typeof segmentCompute>(workflowId).result(),
    );
  } catch (err) {
    if (isGrpcDeadlineError(err)) return { running: workflowId };
    throw err;
  }
}
