import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlCondition } from '../filters/sql';
import { topicMemberByIdSql } from '../topics/membership-sql';

/**
 * The one rule of docs/consent.md "Who gets marketing": a contact receives marketing only while it is
 * subscribed, not awaiting a double opt-in confirmation, not snoozed, and, for mail about a topic, in that
 * topic. Campaign audiences ask it in SQL, SEND_EMAIL steps in code, both here.
 */

/** Why a contact may not receive a marketing email now. */
export const MARKETING_REFUSALS = ['UNSUBSCRIBED', 'UNCONFIRMED', 'SNOOZED', 'NOT_IN_TOPIC'] as const;
export type MarketingRefusal = (typeof MARKETING_REFUSALS)[number];

/** The consent state of `contact` (an alias of `contacts`) that holds it back: unconfirmed or snoozed. */
const heldSql = (contact: string) =>
  `exists (select 1 from contact_consent h where h."contact_id" = ${contact}."id" and (h."unconfirmed" or h."snoozed_until" is not null))`;

/** Who may receive marketing (about `topicId`, when given), as a condition on `contacts <alias>`. */
export function marketingConsentSql(alias: string, topicId: string | null): SqlCondition {
  const parts = [`${alias}."subscribed"`, `not ${heldSql(alias)}`];
  if (topicId === null) return { sql: parts.join(' and '), params: [] };
  // The topic's id is read twice: for the contact's choice and for the topic's default.
  parts.push(topicMemberByIdSql('?::uuid', `${alias}."id"`));
  return { sql: parts.join(' and '), params: [topicId, topicId] };
}

interface StateRow {
  subscribed: boolean;
  unconfirmed: boolean;
  snoozed: boolean;
  in_topic: boolean;
}

/** Why the contact may not receive marketing (about `topicId`) now, or null when it may; null for a contact that is gone. */
export async function marketingRefusal(em: EntityManager, contactId: string, topicId: string | null): Promise<MarketingRefusal | null> {
  const [row] = await em.execute<StateRow[]>(
    `select c."subscribed", coalesce(h."unconfirmed", false) as "unconfirmed", h."snoozed_until" is not null as "snoozed",
       ${topicId === null ? 'true' : topicMemberByIdSql('?::uuid', 'c."id"')} as "in_topic"
     from contacts c left join contact_consent h on h."contact_id" = c."id" where c."id" = ?`,
    topicId === null ? [contactId] : [topicId, topicId, contactId],
  );
  if (!row) return null;
  if (!row.subscribed) return 'UNSUBSCRIBED';
  if (row.unconfirmed) return 'UNCONFIRMED';
  if (row.snoozed) return 'SNOOZED';
  return row.in_topic ? null : 'NOT_IN_TOPIC';
}
