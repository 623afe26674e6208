import { proxyActivities } from '@temporalio/workflow';
import type { SegmentActivities } from '../../activities/segments';
import { COMPUTE_CHUNK, type SegmentComputeInput, type SegmentComputeResult } from './ids';

type Chunk = Awaited<ReturnType<SegmentActivities['computeSegmentChunk']>>;

const { beginSegmentCompute, computeSegmentChunk, finishSegmentCompute } = proxyActivities<SegmentActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumInterval: '1 minute' },
});

/**
 * Recomputes a tracked DYNAMIC segment: walks the project's contacts in id order, one chunk per activity,
 * writing membership and entry/exit events in the chunk's transaction, so a retried or resumed chunk picks
 * up exactly what is left. Null when the segment is gone or no longer tracked.
 */
export async function segmentCompute(input: SegmentComputeInput): Promise<SegmentComputeResult | null> {
  const begun = await beginSegmentCompute(input.segmentId);
  if (!begun) return null;
  const total: SegmentComputeResult = { entered: 0, exited: 0, memberCount: 0 };
  let after: string | null = null;
  do {
    const chunk: Chunk = await computeSegmentChunk({ segmentId: input.segmentId, asOf: begun.asOf, after, size: COMPUTE_CHUNK });
    if (!chunk) return null;
    total.entered += chunk.entered;
    total.exited += chunk.exited;
    total.memberCount += chunk.members;
    after = chunk.last;
  } while (after !== null);
  await finishSegmentCompute({ segmentId: input.segmentId, memberCount: total.memberCount, asOf: begun.asOf });
  return total;
}
