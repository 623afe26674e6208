import { z } from 'zod';
import { MAX_PAGE, PageLimit, cursorPage } from '../../http/cursor';
import { rangeFields } from '../analytics/range';
import { ACTIVITY_TYPES } from './types';

const Type = z.enum(ACTIVITY_TYPES);
type Type = z.infer<typeof Type>;
const Count = z.number().int().min(0);
const counts = z.object(Object.fromEntries(ACTIVITY_TYPES.map((t) => [t, Count])) as Record<(typeof ACTIVITY_TYPES)[number], typeof Count>);

/** A type in any case, `[Ss][Ee][Nn][Tt]`: a pattern the OpenAPI document can carry, which has no flags. */
const anyCase = (word: string) => word.replace(/[A-Z]/g, (c) => `[${c}${c.toLowerCase()}]`);
const TYPE = `(?:${ACTIVITY_TYPES.map(anyCase).join('|')})`;
/** One or more types separated by commas, spaces or tabs around each: exactly what `type` takes, documented as is. */
const TYPE_LIST = new RegExp(`^[ \\t]*${TYPE}(?:[ \\t]*,[ \\t]*${TYPE})*[ \\t]*$`);
const TypeList = z.string().regex(TYPE_LIST, `One or more of ${ACTIVITY_TYPES.join(', ')}, comma-separated, in any case`);

/** `type=OPENED,CLICKED` or `type=OPENED&type=CLICKED`, any case; omitted means every type. */
const Types = z
  .union([TypeList, z.array(TypeList).min(1)])
  .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim().toUpperCase() as Type))])
  .describe(`Only these types, comma-separated or repeated, in any case: ${ACTIVITY_TYPES.join(', ')}`);

/** `key:value`; the value may itself hold colons. */
const Tag = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}:/, 'A tag filter is key:value, the key 1-64 characters of A-Z a-z 0-9 _ -')
  .max(64 + 1 + 256)
  .transform((s) => ({ key: s.slice(0, s.indexOf(':')), value: s.slice(s.indexOf(':') + 1) }))
  .describe('Only activity of emails carrying this tag, as key:value');

export const FeedQuery = z.object({
  limit: PageLimit,
  cursor: z.string().optional(),
  type: Types.optional(),
  contactId: z.uuid().optional().describe("Only this contact's activity"),
  tag: Tag.optional(),
});

export const ActivityItem = z.object({
  id: z.uuid().describe('The event id (the email id for FAILED)'),
  type: Type,
  occurredAt: z.iso.datetime(),
  contact: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  email: z
    .object({
      id: z.string(),
      subject: z.string().nullable(),
      from: z.string().nullable(),
      templateId: z.string().nullable(),
      campaignId: z.string().nullable(),
      sourceType: z.string().nullable().describe('TRANSACTIONAL, CAMPAIGN or WORKFLOW'),
      tags: z.record(z.string(), z.string()).describe("The email's tags ({} for none)"),
    })
    .nullable()
    .describe('The email the activity is about'),
  details: z
    .record(z.string(), z.unknown())
    .describe(
      'Per type: `link` (CLICKED), `bounceType` (BOUNCED), `reason` (SUPPRESSED), `reason`, `attempt` and `retryAt` (DEFERRED), `to` and `error` (FAILED)',
    ),
});

export const FeedPage = cursorPage(ActivityItem);

export const StatsQuery = z.object({ ...rangeFields });

export const StatsResponse = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  total: Count,
  counts: counts.describe('Activity per type in [from, to), exact'),
});

export const RecentCountQuery = z.object({
  since: z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .optional()
    .describe('Count from this instant (ISO 8601) to now; default 24 hours ago. An instant to come counts nothing'),
  type: Types.optional(),
});

export const RecentCountResponse = z.object({ count: Count, since: z.iso.datetime(), until: z.iso.datetime() });

export const TypesResponse = z.object({
  types: z.array(z.object({ type: Type, count: Count })).describe('Types the project has any activity of, in feed order'),
});

export const UpcomingQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(10).describe(`Items per list, 1-${MAX_PAGE}, default 10`),
});

export const UpcomingResponse = z.object({
  campaigns: z
    .array(z.object({ id: z.uuid(), name: z.string(), scheduledFor: z.iso.datetime(), totalRecipients: Count }))
    .describe('SCHEDULED campaigns, soonest first'),
  executions: z
    .array(
      z.object({
        id: z.uuid(),
        workflow: z.object({ id: z.uuid(), name: z.string() }),
        contact: z.object({ id: z.uuid(), email: z.string() }).nullable(),
        status: z.enum(['RUNNING', 'WAITING']),
        step: z.object({ id: z.string(), type: z.string(), name: z.string().nullable() }).nullable(),
        waitingFor: z.string().nullable().describe('The event a WAIT_FOR_EVENT step awaits'),
        since: z.iso.datetime().describe('When the current step began'),
        resumesAt: z.iso
          .datetime()
          .nullable()
          .describe(
            'When a DELAY ends (until a local time: the instant decided as it began to wait) or a WAIT_FOR_EVENT times out; null otherwise',
          ),
      }),
    )
    .describe('RUNNING executions, then WAITING ones by resumesAt (no timeout last)'),
  emails: z
    .array(
      z.object({
        id: z.uuid(),
        to: z.string(),
        subject: z.string(),
        scheduledAt: z.iso.datetime(),
        contact: z.object({ id: z.uuid(), email: z.string() }).nullable(),
        tags: z.record(z.string(), z.string()),
      }),
    )
    .describe('SCHEDULED emails (/v1/send with sendAt), soonest first'),
  totals: z.object({ campaigns: Count, executions: Count, emails: Count }),
});
