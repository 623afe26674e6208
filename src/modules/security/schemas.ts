import { z } from 'zod';

export const HealthLevel = z.enum(['healthy', 'warning', 'critical']);

export const SecurityResponse = z.object({
  projectId: z.uuid(),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  window: z.object({ days: z.number().int(), from: z.iso.datetime(), to: z.iso.datetime() }),
  sent: z.number().int(),
  bounced: z.number().int().describe('Permanent bounces'),
  complained: z.number().int(),
  bounceRate: z.number().describe('% of sent'),
  complaintRate: z.number().describe('% of sent'),
  levels: z.object({ bounce: HealthLevel, complaint: HealthLevel }),
  thresholds: z.object({
    bounceRate: z.object({ warning: z.number(), critical: z.number() }),
    complaintRate: z.object({ warning: z.number(), critical: z.number() }),
  }),
  suspensions: z.array(
    z.object({
      reason: z.string().nullable(),
      startedAt: z.iso.datetime(),
      endedAt: z.iso.datetime().nullable(),
    }),
  ),
});
export type SecurityResponse = z.infer<typeof SecurityResponse>;
