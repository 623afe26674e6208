import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Deps } from '../src/deps';
import { applyBulkChunk } from '../src/modules/bulk/chunk';
import { applyImportChunk } from '../src/modules/imports/chunk';
import type { JobResult } from '../src/modules/jobs/entities';
import { InvalidChunkError } from '../src/modules/jobs/errors';
import { beginJob, failJob, finishJob, runChunk, type ChunkOutcome } from '../src/modules/jobs/store';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface ChunkRef {
  jobId: string;
  seq: number;
}

const HEARTBEAT_MS = 2000;

type Apply = (tx: EntityManager, projectId: string, items: unknown) => Promise<ChunkOutcome>;

export function createJobActivities(deps: Deps) {
  /**
   * Applies the chunk unless an earlier attempt committed it; false when it was already done. Heartbeats
   * while it works, so that a dead worker's chunk is retried within the heartbeat timeout while a slow one
   * (waiting on locks, say) is left to finish.
   */
  const chunk =
    (apply: Apply) =>
    async (ref: ChunkRef): Promise<boolean> => {
      const context = Context.current();
      const beating = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await runChunk(deps.orm.em.fork(), ref.jobId, ref.seq, (tx, { projectId, items }) => apply(tx, projectId, items));
      } catch (err) {
        if (err instanceof InvalidChunkError) throw ApplicationFailure.nonRetryable(err.message, err.name);
        throw err;
      } finally {
        clearInterval(beating);
      }
    };
  return {
    async beginJob(jobId: string): Promise<boolean> {
      return beginJob(deps.orm.em.fork(), jobId);
    },
    processImportChunk: chunk(applyImportChunk),
    processBulkChunk: chunk(applyBulkChunk),
    async finishJob(jobId: string): Promise<JobResult | null> {
      return finishJob(deps.orm.em.fork(), jobId);
    },
    async failJob(jobId: string, reason: string): Promise<void> {
      await failJob(deps.orm.em.fork(), jobId, reason);
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
