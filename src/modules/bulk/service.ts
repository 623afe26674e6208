import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { BULK_CHUNK_IDS, bulkJobId, bulkSummary, type BulkOperation } from '../../../workflows/jobs/ids';
import { queueJob } from '../jobs/queue';
import type { StoredBulkChunk } from './schemas';

/** Queues a bulk operation over these contacts; returns the job ID. */
export async function queueBulk(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  operation: BulkOperation,
  ids: string[],
): Promise<string> {
  const contactIds = [...new Set(ids.map((id) => id.toLowerCase()))];
  const chunks: string[] = [];
  for (let i = 0; i < contactIds.length; i += BULK_CHUNK_IDS) {
    const chunk: StoredBulkChunk = { operation, contactIds: contactIds.slice(i, i + BULK_CHUNK_IDS) };
    chunks.push(JSON.stringify(chunk));
  }
  const id = bulkJobId(newId());
  await queueJob(deps, em, {
    job: {
      id,
      projectId,
      kind: 'bulk',
      total: contactIds.length,
      result: { operation, totalRequested: contactIds.length, successCount: 0, unchangedCount: 0, failureCount: 0, errors: [] },
    },
    chunks,
    chunkSize: BULK_CHUNK_IDS,
    workflow: 'contactBulk',
    summary: bulkSummary(operation, contactIds.length, projectId),
  });
  return id;
}
