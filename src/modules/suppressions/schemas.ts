import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { Email } from '../users/schemas';
import { SUPPRESSION_REASONS } from './rules';

/** Addresses per POST /suppressions. */
export const MAX_SUPPRESSIONS_PER_CALL = 1000;

const Reason = z.enum(SUPPRESSION_REASONS);

export const SuppressionEntry = z.object({
  email: z.string().describe('Lowercased'),
  reason: Reason.describe('BOUNCE: a permanent bounce; COMPLAINT: a spam complaint; MANUAL: added through the API'),
  emailId: z.uuid().nullable().describe('The email whose bounce or complaint added it; null for MANUAL'),
  createdAt: z.iso.datetime(),
});

export const SuppressionPage = cursorPage(SuppressionEntry);

export const ListSuppressionsQuery = z.object({
  limit: PageLimit,
  cursor: z.string().optional(),
  reason: Reason.optional(),
  search: z.string().max(320).optional().describe('Case-insensitive substring of the address'),
});

/** An address in the path; one that is not an address names no entry (404). */
export const SuppressionParams = z.object({ email: Email });

export const AddSuppressionsBody = z.object({
  emails: z
    .array(Email)
    .min(1, 'Give at least one address')
    .max(MAX_SUPPRESSIONS_PER_CALL, `At most ${MAX_SUPPRESSIONS_PER_CALL} addresses per call`),
  reason: z.literal('MANUAL').default('MANUAL').describe('Entries added through the API are MANUAL'),
});

export const AddSuppressionsResponse = z.object({
  added: z.number().int().describe('Addresses put on the list'),
  already: z.number().int().describe('Addresses that were on it already (they keep their entry), repeats counted once'),
});
