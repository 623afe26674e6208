import { ApplicationFailure } from '@temporalio/activity';
import type { Deps } from '../src/deps';
import { FilterError } from '../src/modules/filters/errors';
import { computeChunk, finishCompute, trackedSegment, type ChunkResult } from '../src/modules/segments/membership';

/** A stored condition that no longer resolves (say, a cycle) will not resolve on a retry either. */
async function unlessInvalid<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FilterError) throw ApplicationFailure.nonRetryable(err.message, 'FilterError');
    throw err;
  }
}

export function createSegmentActivities(deps: Deps) {
  return {
    /** The instant the computation judges relative conditions at; null when there is nothing to compute. */
    async beginSegmentCompute(segmentId: string): Promise<{ asOf: string } | null> {
      const segment = await trackedSegment(deps.orm.em.fork(), segmentId);
      return segment ? { asOf: new Date().toISOString() } : null;
    },

    async computeSegmentChunk(input: { segmentId: string; asOf: string; after: string | null; size: number }): Promise<ChunkResult | null> {
      const em = deps.orm.em.fork();
      const segment = await trackedSegment(em, input.segmentId);
      if (!segment) return null;
      return unlessInvalid(() => computeChunk(em, segment, { asOf: new Date(input.asOf), after: input.after, size: input.size }));
    },

    async finishSegmentCompute(input: { segmentId: string; memberCount: number; asOf: string }): Promise<void> {
      await finishCompute(deps.orm.em.fork(), input.segmentId, input.memberCount, new Date(input.asOf));
    },
  };
}

export type SegmentActivities = ReturnType<typeof createSegmentActivities>;
