import { z } from 'zod';
import { isTimeZone } from '../../local-time';
import { TRACKING_MODES } from './entities';

export const ProjectName = z.string().trim().min(1, 'Name is required').max(100);
export const ProjectIdParams = z.object({ id: z.uuid() });

/** docs/projects.md "Frequency cap". */
export const FrequencyCap = z
  .object({
    maxEmails: z.number().int().min(1).max(1000).describe('Marketing emails a contact may receive in the window'),
    windowDays: z.number().int().min(1).max(365).describe('The sliding window, in days'),
  })
  .strict();
export type FrequencyCap = z.infer<typeof FrequencyCap>;

export const ProjectResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  public: z.string().describe('Public key (pk_…), safe to embed in browsers; only for /v1/track'),
  secret: z.string().describe('Secret key (sk_…): in full only when created or rotated, masked afterwards'),
  disabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why the project is suspended (docs/security.md); null while it is active'),
  trackingMode: z.enum(TRACKING_MODES).describe('Which emails carry the open pixel and click redirects (docs/tracking.md)'),
  emailRatePerSecond: z
    .number()
    .int()
    .nullable()
    .describe("Emails per second per kind of email; null is the deployment's default (docs/delivery.md)"),
  timeZone: z
    .string()
    .describe("IANA time zone of automations' local times of day for contacts without data.timezone (docs/automations.md)"),
  frequencyCap: FrequencyCap.nullable().describe(
    'At most maxEmails marketing emails per contact in any windowDays days, across campaigns and automations; null: no cap (docs/projects.md "Frequency cap")',
  ),
  role: z.enum(['OWNER', 'ADMIN', 'MEMBER']).optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ProjectResponse = z.infer<typeof ProjectResponse>;

export const TimeZone = z.string().refine(isTimeZone, 'Not an IANA time zone (e.g. Europe/Paris)');

/** Without a deployment maximum, a project's own rate still stops at this. */
const RATE_CEILING = 100_000;

/** `maxRate` is MAX_EMAIL_RATE_PER_SECOND (0: no deployment maximum); a project's own rate cannot exceed it. */
export const updateProjectBody = (maxRate: number) => {
  const max = maxRate > 0 ? maxRate : RATE_CEILING;
  const limit = maxRate > 0 ? `the deployment's maximum, ${max}` : String(max);
  return (
    z
      .object({
        name: ProjectName.optional(),
        trackingMode: z
          .enum(TRACKING_MODES)
          .optional()
          .describe('ENABLED tracks every email, MARKETING_ONLY only MARKETING ones, DISABLED none'),
        emailRatePerSecond: z
          .number()
          .int()
          .min(0)
          .max(max, `emailRatePerSecond cannot exceed ${limit}`)
          .nullable()
          .optional()
          .describe(
            `Emails per second the project sends per kind (transactional, campaign, workflow), at most ${max}; 0 is the deployment's maximum (unlimited when it has none), null the deployment's default`,
          ),
        timeZone: TimeZone.optional().describe(
          "IANA time zone (`Europe/Paris`) of automations' local times of day for contacts without data.timezone",
        ),
        frequencyCap: FrequencyCap.nullable()
          .optional()
          .describe(
            'At most maxEmails marketing emails (campaigns and automations; never /v1/send or TRANSACTIONAL) per contact in any windowDays days; null removes the cap',
          ),
      })
      // `name` is reported as the missing field: renaming is what most updates do.
      .refine((body) => Object.values(body).some((v) => v !== undefined), {
        path: ['name'],
        message: 'Give name, trackingMode, emailRatePerSecond, timeZone or frequencyCap',
      })
  );
};
export type UpdateProjectBody = z.infer<ReturnType<typeof updateProjectBody>>;

export const ProjectActionResult = z.object({ success: z.literal(true), message: z.string() });

export const ResetResponse = ProjectActionResult.extend({
  deleted: z.record(z.string(), z.number().int()).describe('Rows deleted per table'),
});

export const SetupStateResponse = z.object({
  hasDomain: z.boolean(),
  hasVerifiedDomain: z.boolean(),
  hasContacts: z.boolean(),
  contactCount: z.number().int(),
  hasTrackedEvent: z.boolean().describe('An event other than the service events (email.*, contact.*, segment.*) was tracked'),
  hasSentEmail: z.boolean(),
  emailsSent: z.number().int(),
  lastEmailSentAt: z.iso.datetime().nullable(),
});
export type SetupStateResponse = z.infer<typeof SetupStateResponse>;
