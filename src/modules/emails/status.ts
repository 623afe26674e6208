import type { EntityManager } from '@mikro-orm/postgresql';
import { emailEventColumns, type EmailEventSource } from './email-events';
import { DELIVERY_STAGES, EMAIL_STATUSES, type DeliveryStage, type EmailStatus } from './entities';

/** What happens to an email after it was sent, as delivery reports and tracking tell it. */
export type LaterStatus = Exclude<DeliveryStage, 'SENT' | 'FAILED'>;

const TIMESTAMP_OF: Record<LaterStatus, string> = {
  DELIVERED: 'delivered_at',
  OPENED: 'opened_at',
  CLICKED: 'clicked_at',
  BOUNCED: 'bounced_at',
  COMPLAINED: 'complained_at',
};

// The statuses of a sent email (a FAILED one never was). Its status only moves forward through them
// (docs/delivery.md "The record"): SENT < DELIVERED < OPENED < CLICKED < BOUNCED < COMPLAINED.
const SENT_ORDER = `array[${DELIVERY_STAGES.filter((s) => s !== 'FAILED')
  .map((s) => `'${s}'`)
  .join(', ')}]`;
const rank = (expr: string) => `array_position(${SENT_ORDER}, ${expr})`;

/** A sent email that delivery reports or tracking just moved, with what its service events carry. */
export interface EmailActivity extends EmailEventSource {
  /** This report set the status's timestamp: it is the first of its kind for the email. */
  first: boolean;
}

/**
 * Records that a sent email was delivered, opened, clicked, bounced or complained about: the status moves
 * only forwards, while the status's own timestamp records its first occurrence whatever the order reports
 * arrive in (an open reported after a click still sets opened_at). A permanent bounce also dates
 * `hard_bounced_at`, which the bounce rate counts (docs/security.md), even after a transient one. A report
 * that changes nothing (a pixel loaded again, a second click, a repeated notification) leaves the row
 * unwritten. Returns null when the email is not a sent email (unknown, not sent yet, FAILED or SUPPRESSED), or
 * not one of `projectId` when that is given.
 */
export async function advanceEmail(
  em: EntityManager,
  emailId: string,
  status: LaterStatus,
  options: { at?: Date; projectId?: string; permanent?: boolean } = {},
): Promise<EmailActivity | null> {
  const column = TIMESTAMP_OF[status];
  const hard = status === 'BOUNCED' && options.permanent === true;
  const at = options.at ?? new Date();
  const [row] = await em.execute<EmailActivity[]>(
    `with target as (
       select ${emailEventColumns()} from emails
       where "id" = ? and (?::uuid is null or "project_id" = ?) and ${rank('"status"')} is not null),
     moved as (
       update emails e set "${column}" = coalesce(e."${column}", ?), "updated_at" = now(),
         "status" = case when ${rank('e."status"')} < ${rank('?')} then ? else e."status" end${
           hard
             ? `,
         "hard_bounced_at" = coalesce(e."hard_bounced_at", ?)`
             : ''
         }
       from target t
       where e."id" = t."id" and (e."${column}" is null or ${rank('e."status"')} < ${rank('?')}${hard ? ' or e."hard_bounced_at" is null' : ''})
       returning old."${column}" is null as "first")
     select t.*, coalesce((select "first" from moved), false) as "first" from target t`,
    [emailId, options.projectId ?? null, options.projectId ?? null, at, status, status, ...(hard ? [at] : []), status],
  );
  return row ?? null;
}

export interface EmailStatusCounts {
  total: number;
  /** Emails by their current status. */
  byStatus: Record<EmailStatus, number>;
  /** Emails that ever reached each stage (its timestamp is set), whatever they moved on to. */
  reached: Record<DeliveryStage, number>;
}

/** Counts over a project's emails, optionally those of one campaign: campaign progress and statistics. */
export async function emailStatusCounts(
  em: EntityManager,
  projectId: string,
  filter: { campaignId?: string } = {},
): Promise<EmailStatusCounts> {
  const where = ['"project_id" = ?'];
  const params: unknown[] = [projectId];
  if (filter.campaignId) {
    where.push('"campaign_id" = ?');
    params.push(filter.campaignId);
  }
  const [row] = await em.execute<Array<Record<string, string>>>(
    `select count(*) as total,
       ${EMAIL_STATUSES.map((s) => `count(*) filter (where "status" = '${s}') as "${s}"`).join(', ')},
       ${DELIVERY_STAGES.map((s) => `count("${s.toLowerCase()}_at") as "reached_${s}"`).join(', ')}
     from emails where ${where.join(' and ')}`,
    params,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    total: n('total'),
    byStatus: Object.fromEntries(EMAIL_STATUSES.map((s) => [s, n(s)])) as EmailStatusCounts['byStatus'],
    reached: Object.fromEntries(DELIVERY_STAGES.map((s) => [s, n(`reached_${s}`)])) as EmailStatusCounts['reached'],
  };
}
