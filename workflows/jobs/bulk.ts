import type { JobResult } from '../../src/modules/jobs/entities';
import type { JobWorkflowInput } from './ids';
import { runJob } from './run';

/** A bulk subscribe, unsubscribe or delete queued by POST /contacts/bulk-*, applied chunk by chunk. */
export function contactBulk(input: JobWorkflowInput): Promise<JobResult | null> {
  return runJob(input, { activity: 'processBulkChunk', unit: 'contacts' });
}
