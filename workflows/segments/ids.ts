/** Names of the segment workflows, shared by the workflows and the code that starts them. */

export const segmentComputeWorkflowId = (segmentId: string) => `segment-compute:${segmentId}`;
export const segmentTrackingWorkflowId = (segmentId: string) => `segment-tracking:${segmentId}`;

export const segmentComputeSummary = (segmentId: string, projectId: string) =>
  `Compute membership of segment ${segmentId} (project ${projectId})`;
export const segmentTrackingSummary = (segmentId: string, projectId: string, minutes: number) =>
  `Track membership of segment ${segmentId} every ${minutes} minutes (project ${projectId})`;

export interface SegmentComputeInput {
  segmentId: string;
  projectId: string;
}

export interface SegmentTrackingInput extends SegmentComputeInput {
  intervalMinutes: number;
}

/** docs/segments.md: `POST /segments/{id}/compute` returns `{ entered, exited, memberCount }`. */
export interface SegmentComputeResult {
  entered: number;
  exited: number;
  memberCount: number;
}

/** Contacts per computation step: each step is one activity and one transaction. */
export const COMPUTE_CHUNK = 2000;

/** Computations per run of the tracking loop (about ten history events each), for runs started before the segment-tracking-short-runs patch. */
export const COMPUTES_PER_RUN = 100;
