import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlCondition } from '../filters/sql';
import { topicMemberSql } from '../topics/membership-sql';

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

/** A topic mail is about, with its default; null `defaultIn` for one that no longer exists (nobody is in it). */
export interface MailTopic {
  id: string;
  defaultIn: boolean | null;
}

/** The topic `topicId` of the project as a condition needs it. */
export async function mailTopic(em: EntityManager, projectId: string, topicId: string): Promise<MailTopic> {
  const [row] = await em.execute<Array<{ default_membership: string }>>(
    'select "default_membership" from topics where "id" = ? and "project_id" = ?',
    [topicId, projectId],
  );
  return { id: topicId, defaultIn: row ? row.default_membership === 'IN' : null };
}

/** Who may receive marketing (about `topic`, when given), as a condition on `contacts <alias>`. */
export function marketingConsentSql(alias: string, topic: MailTopic | null): SqlCondition {
  const parts = [`${alias}."subscribed"`, `not ${heldSql(alias)}`];
  if (topic === null) return { sql: parts.join(' and '), params: [] };
  if (topic.defaultIn === null) return { sql: 'false', params: [] };
  parts.push(topicMemberSql('?::uuid', `${alias}."id"`, topic.defaultIn));
  return { sql: parts.join(' and '), params: [topic.id] };
}

interface StateRow {
  subscribed: boolean;
  unconfirmed: boolean;
  snoozed: boolean;
  in_topic: boolean;
}

/** Why the contact may not receive marketing (about `topicId`) now, or null when it may; null for a contact that is gone. */
export async function marketingRefusal(em: EntityManager, contactId: string, topicId: string | null): Promise<MarketingRefusal | null> {
  // One contact: its choice, else the topic's default (false for a topic that no longer exists).
  const inTopic = `coalesce((select ct."member" from contact_topics ct where ct."topic_id" = ?::uuid and ct."contact_id" = c."id"),
    (select t."default_membership" = 'IN' from topics t where t."id" = ?::uuid), false)`;
  const [row] = await em.execute<StateRow[]>(
    `select c."subscribed", coalesce(h."unconfirmed", false) as "unconfirmed", h."snoozed_until" is not null as "snoozed",
       ${topicId === null ? 'true' : inTopic} as "in_topic"
     from contacts c left join contact_consent h on h."contact_id" = c."id" where c."id" = ?`,
    topicId === null ? [contactId] : [topicId, topicId, contactId],
  );
  if (!row) return null;
  if (!row.subscribed) return 'UNSUBSCRIBED';
  if (row.unconfirmed) return 'UNCONFIRMED';
  if (row.snoozed) return 'SNOOZED';
  return row.in_topic ? null : 'NOT_IN_TOPIC';
}
