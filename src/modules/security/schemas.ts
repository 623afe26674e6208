import { z } from 'zod';

export const HealthLevel = z.enum(['healthy', 'warning', 'critical']);
export const Actor = z.enum(['automatic', 'operator']);

export const Thresholds = z.object({
  bounceRate: z.object({ warning: z.number(), critical: z.number() }),
  complaintRate: z.object({ warning: z.number(), critical: z.number() }),
});

export const SecurityResponse = z.object({
  projectId: z.uuid(),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  window: z
    .object({ days: z.number().int(), from: z.iso.datetime(), to: z.iso.datetime() })
    .describe('The last REPUTATION_WINDOW_DAYS days, from the start of the hour'),
  sent: z.number().int().describe('Emails that left in the window, bounced ones included'),
  bounced: z.number().int().describe('Permanent bounces'),
  complained: z.number().int(),
  bounceRate: z.number().describe('% of sent, 2 decimals'),
  complaintRate: z.number().describe('% of sent, 2 decimals'),
  levels: z.object({ bounce: HealthLevel, complaint: HealthLevel }),
  thresholds: Thresholds,
  minSent: z.number().int().describe('REPUTATION_MIN_SENT: below it in the window, nothing is judged (no warning, no suspension)'),
  simulated: z
    .object({
      counted: z.boolean().describe('REPUTATION_COUNT_SIMULATED: mail to the simulator domain counts in the figures'),
      leftOut: z.number().int().describe('Simulated emails sent in the window and left out of the figures (0 when counted)'),
    })
    .describe('Mail to the sandbox simulator domain'),
  heldEmails: z.number().int().describe('While suspended: emails waiting to be sent once the project is reinstated'),
  suspensions: z
    .array(
      z.object({
        reason: z.string().nullable(),
        by: Actor,
        startedAt: z.iso.datetime(),
        endedAt: z.iso.datetime().nullable(),
      }),
    )
    .describe('The 10 most recent, newest first'),
});
export type SecurityResponse = z.infer<typeof SecurityResponse>;
