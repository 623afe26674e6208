import { z } from 'zod';
import { BULK_OPERATIONS } from '../../../workflows/jobs/ids';
import { jobIdParams, jobStatus } from '../jobs/schemas';

/** A bulk call takes at most 1,000 contact IDs (docs/jobs.md "Bulk rules"). */
export const MAX_BULK_IDS = 1000;

export const BulkBody = z.object({
  contactIds: z
    .array(z.uuid())
    .min(1, 'At least one contact ID is required')
    .max(MAX_BULK_IDS, 'At most 1,000 contact IDs per call')
    .describe('Contacts of the project; an ID given twice counts once'),
});
export type BulkBody = z.infer<typeof BulkBody>;

export const BulkJobParams = jobIdParams('bulk');

export const BulkResult = z.object({
  operation: z.enum(BULK_OPERATIONS),
  totalRequested: z.number().int().describe('Distinct contact IDs in the request'),
  successCount: z.number().int().describe('Contacts changed (or deleted)'),
  unchangedCount: z.number().int().describe('Contacts already in the requested state'),
  failureCount: z.number().int().describe('IDs that are not contacts of the project; nothing was done to them'),
  errors: z.array(z.object({ contactId: z.string(), error: z.string() })),
});

export const BulkJobStatus = jobStatus(BulkResult);

/** One chunk of a bulk job as service.ts stores it. */
export const StoredBulkChunk = z.object({
  operation: z.enum(BULK_OPERATIONS),
  contactIds: z.array(z.uuid()),
});
export type StoredBulkChunk = z.infer<typeof StoredBulkChunk>;
