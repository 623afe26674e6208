import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { badRequest } from '../../http/errors';
import { countRows, keysetPage, type SortKey } from '../../db/keyset';
import { MARKETING_REFUSALS } from '../consent/rules';
import { EMAIL_STATUSES, type EmailStatus } from '../emails/entities';
import type { Campaign } from './entities';

/**
 * Who a send reached and who it did not (docs/campaigns.md "Who did not get it"): every recipient the send
 * fixed, with the outcome of its email, or why it has none. Derived on read from the recipients, their
 * emails and their contacts, so it is exact whatever retries and restarts the send went through.
 */

/**
 * Why a recipient fixed by the send got no email (campaign_recipients.skip_reason, migration 0090): the
 * consent rule's refusal (docs/consent.md), a render that failed, an address no email may go to, or the
 * project's frequency cap (docs/projects.md "Frequency cap").
 */
export const SKIP_REASONS = [...MARKETING_REFUSALS, 'RENDER_FAILED', 'ADDRESS_REFUSED', 'FREQUENCY_CAPPED'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A campaign email's status: SCHEDULED and CANCELLED belong to /v1/send's `sendAt` alone. */
type CampaignEmailStatus = Exclude<EmailStatus, 'SCHEDULED' | 'CANCELLED'>;
const CAMPAIGN_EMAIL_STATUSES = EMAIL_STATUSES.filter((s): s is CampaignEmailStatus => s !== 'SCHEDULED' && s !== 'CANCELLED');

/** A recipient's state: its email's status, or why it has none. */
export const RECIPIENT_STATUSES = [...CAMPAIGN_EMAIL_STATUSES, 'SKIPPED', 'NOT_ATTEMPTED', 'CONTACT_DELETED'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** The `status` filter: a state, a stage reached (as the stats count them), or NOT_SENT. */
export const RECIPIENT_FILTERS = [...RECIPIENT_STATUSES, 'NOT_SENT'] as const;
export type RecipientFilter = (typeof RECIPIENT_FILTERS)[number];

const FROM = `campaign_recipients r
  left join emails e on e."id" = r."email_id"
  left join contacts c on c."id" = r."contact_id"`;

const NO_EMAIL = 'e."id" is null';
const DELETED = `${NO_EMAIL} and r."skip_reason" is null and c."id" is null`;

// An email that reached a stage has its timestamp set, whatever it moved on to: the stats count them so.
const reached = (column: string) => `e."${column}" is not null`;

const FILTER_SQL: Record<RecipientFilter, string> = {
  PENDING: `e."status" = 'PENDING'`,
  SENT: reached('sent_at'),
  DELIVERED: reached('delivered_at'),
  OPENED: reached('opened_at'),
  CLICKED: reached('clicked_at'),
  BOUNCED: reached('bounced_at'),
  COMPLAINED: reached('complained_at'),
  FAILED: `e."status" = 'FAILED'`,
  SUPPRESSED: `e."status" = 'SUPPRESSED'`,
  SKIPPED: `${NO_EMAIL} and r."skip_reason" is not null`,
  NOT_ATTEMPTED: `${NO_EMAIL} and r."skip_reason" is null and c."id" is not null`,
  CONTACT_DELETED: DELETED,
  NOT_SENT: `e."sent_at" is null and not (${DELETED})`,
};

const STATUS_SQL = `case
  when e."id" is not null then e."status"
  when r."skip_reason" is not null then 'SKIPPED'
  when c."id" is null then 'CONTACT_DELETED'
  else 'NOT_ATTEMPTED' end`;

// A SUPPRESSED email stores no error: its `email.suppressed` event carries the suppression list's reason.
const SUPPRESSED_DETAIL = `(select 'Held back by the suppression list (' || (ev."data"->>'reason') || ')' from events ev
  where ev."contact_id" = e."contact_id" and ev."name" = 'email.suppressed' and ev."data"->>'emailId' = e."id"::text limit 1)`;

const POSITION: SortKey = { column: 'r."seq"', toText: 'r."seq"::text', fromText: '?::int' };
const ORDERING = 'position';

interface RecipientRow {
  position: number;
  contact_id: string;
  email: string | null;
  status: RecipientStatus;
  reason: SkipReason | null;
  detail: string | null;
  email_id: string | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
  failed_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const serializeRecipient = (r: RecipientRow) => ({
  position: r.position,
  contactId: r.contact_id,
  email: r.email,
  status: r.status,
  reason: r.reason,
  detail: r.detail,
  emailId: r.email_id,
  sentAt: iso(r.sent_at),
  deliveredAt: iso(r.delivered_at),
  openedAt: iso(r.opened_at),
  clickedAt: iso(r.clicked_at),
  bouncedAt: iso(r.bounced_at),
  complainedAt: iso(r.complained_at),
  failedAt: iso(r.failed_at),
});

export interface RecipientsQuery {
  status?: RecipientFilter | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** GET /campaigns/{id}/recipients: a cursor page in audience order (the positions the send gave them). */
export async function listRecipients(em: EntityManager, campaign: Campaign, q: RecipientsQuery) {
  const ordering = `${ORDERING}:${q.status ?? 'ALL'}`;
  const after = q.cursor ? decodeCursor(q.cursor, ordering) : undefined;
  if (after && !/^\d{1,9}$/.test(after.value))
    throw badRequest('Invalid cursor', { suggestion: 'Pass the `cursor` of the previous page unchanged.' });
  const where = ['r."campaign_id" = ?'];
  const params: unknown[] = [campaign.id];
  if (q.status) where.push(`(${FILTER_SQL[q.status]})`);
  const [page, total] = await Promise.all([
    keysetPage<RecipientRow>(em, {
      select: `r."seq" as position, r."contact_id", coalesce(e."to_address", c."email") as email, ${STATUS_SQL} as status,
        case when e."id" is null then r."skip_reason" end as reason,
        case when e."id" is null then r."skip_detail" when e."status" = 'SUPPRESSED' then ${SUPPRESSED_DETAIL} else e."error" end as detail,
        e."id" as email_id, e."sent_at", e."delivered_at", e."opened_at", e."clicked_at", e."bounced_at", e."complained_at", e."failed_at"`,
      from: FROM,
      where,
      params,
      key: POSITION,
      idColumn: 'r."contact_id"',
      dir: 'asc',
      limit: q.limit,
      after,
    }),
    after ? 0 : countRows(em, FROM, where, params),
  ]);
  return {
    data: page.rows.map(serializeRecipient),
    cursor: page.next ? encodeCursor(ordering, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}

export interface RecipientSkip {
  contactId: string;
  reason: SkipReason;
  detail: string | null;
}

/** Records why recipients of a batch got no email; a retried batch writes the same again. */
export async function recordSkips(tx: EntityManager, campaignId: string, skips: RecipientSkip[]): Promise<void> {
  if (skips.length === 0) return;
  await tx.execute(
    `update campaign_recipients r set "skip_reason" = s."reason", "skip_detail" = s."detail"
     from jsonb_to_recordset(?::jsonb) as s("contactId" uuid, "reason" text, "detail" text)
     where r."campaign_id" = ? and r."contact_id" = s."contactId"`,
    [JSON.stringify(skips), campaignId],
  );
}
