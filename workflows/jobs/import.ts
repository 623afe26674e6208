import type { JobResult } from '../../src/modules/jobs/entities';
import type { JobWorkflowInput } from './ids';
import { runJob } from './run';

/** A CSV import staged by POST /contacts/import, applied chunk by chunk. */
export function contactImport(input: JobWorkflowInput): Promise<JobResult | null> {
  return runJob(input, { activity: 'processImportChunk', unit: 'rows' });
}
