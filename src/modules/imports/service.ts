import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { IMPORT_CHUNK_ROWS, importJobId, importSummary } from '../../../workflows/jobs/ids';
import { queueJob } from '../jobs/queue';
import type { CsvUpload } from './upload';

/** Queues a staged upload as an import job; returns the job ID. */
export async function queueImport(deps: Deps, em: EntityManager, projectId: string, upload: CsvUpload): Promise<string> {
  const id = importJobId(newId());
  await queueJob(deps, em, {
    job: {
      id,
      projectId,
      kind: 'import',
      total: upload.totalRows,
      result: { totalRows: upload.totalRows, created: 0, updated: 0, skipped: 0, failed: 0, errors: [] },
    },
    chunks: upload.chunks,
    chunkSize: IMPORT_CHUNK_ROWS,
    workflow: 'contactImport',
    summary: importSummary(upload.fileName, upload.totalRows, projectId),
  });
  return id;
}
