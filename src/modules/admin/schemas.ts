import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { Actor, HealthLevel } from '../security/schemas';

/** The operators' surface (docs/operators.md). */

export const AdminProjectsQuery = z.object({
  cursor: z.string().optional(),
  limit: PageLimit,
  search: z.string().max(200).optional().describe('A case-insensitive part of the name or of the id'),
  disabled: z.enum(['true', 'false']).optional().describe('Only suspended (true) or only active (false) projects'),
});
export type AdminProjectsQuery = z.infer<typeof AdminProjectsQuery>;

export const AdminProject = z.object({
  id: z.uuid(),
  name: z.string(),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  owners: z.array(z.string()).describe("The owners' addresses"),
  sent: z.number().int().describe('Emails sent in the reputation window (simulated mail left out unless REPUTATION_COUNT_SIMULATED)'),
  bounceRate: z.number().describe('% of sent, 2 decimals'),
  complaintRate: z.number().describe('% of sent, 2 decimals'),
  levels: z.object({ bounce: HealthLevel, complaint: HealthLevel }),
});
export type AdminProject = z.infer<typeof AdminProject>;

export const AdminProjectPage = cursorPage(AdminProject);

export const AdminProjectParams = z.object({ id: z.uuid() });

export const SuspendBody = z.object({
  reason: z.string().trim().min(1, 'Give the reason, which the owners are told').max(500).describe('Becomes the disabledReason'),
});

export const ReinstateBody = z.object({
  reason: z.string().trim().min(1).max(500).optional().describe('Why; kept in the audit list and told to the owners'),
});

export const AuditQuery = z.object({ cursor: z.string().optional(), limit: PageLimit });

export const AuditEntry = z.object({
  id: z.uuid(),
  action: z.enum(['suspend', 'reinstate']),
  projectId: z.uuid(),
  reason: z.string().nullable(),
  by: Actor,
  at: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = cursorPage(AuditEntry);
