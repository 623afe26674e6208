import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlCondition } from '../filters/sql';
import { topicMemberSql } from '../topics/membership-sql';

/**
 * The one rule of docs/consent.md "Who gets marketing": a contact receives marketing only while it is
 * subscribed, not awaiting a double opt-in confirmation, not snoozed, and, for mail about a topic, in that
 * topic. Campaign audiences ask it as a condition, campaign batches and SEND_EMAIL steps for the refusal, both
 * in SQL built here.
 */

/** Why a contact may not receive a marketing email now. */
export const MARKETING_REFUSALS = ['UNSUBSCRIBED', 'UNCONFIRMED', 'SNOOZED', 'NOT_IN_TOPIC'] as const;
export type MarketingRefusal = (typeof MARKETING_REFUSALS)[number];

/** The consent state of `contact` (an alias of `contacts`) that holds it back: by default unconfirmed or snoozed. */
const heldSql = (contact: string, state = 'h."unconfirmed" or h."snoozed_until" is not null') =>
  `exists (select 1 from contact_consent h where h."contact_id" = ${contact}."id" and (${state}))`;

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

/**
 * The first of MARKETING_REFUSALS that holds `contacts <alias>` back, as SQL, or null when it may receive the
 * mail; `inTopic` is the SQL of its membership of the mail's topic (null: mail about no topic).
 */
function refusalSql(alias: string, inTopic: string | null): string {
  return `case when not ${alias}."subscribed" then 'UNSUBSCRIBED' when ${heldSql(alias, 'h."unconfirmed"')} then 'UNCONFIRMED'
    when ${heldSql(alias, 'h."snoozed_until" is not null')} then 'SNOOZED'${inTopic === null ? '' : ` when not ${inTopic} then 'NOT_IN_TOPIC'`} end`;
}

/** Why each `contacts <alias>` may not receive marketing (about `topic`), as an SQL value: a refusal or null. */
export function marketingRefusalSql(alias: string, topic: MailTopic | null): SqlCondition {
  if (topic === null) return { sql: refusalSql(alias, null), params: [] };
  if (topic.defaultIn === null) return { sql: refusalSql(alias, 'false'), params: [] };
  return { sql: refusalSql(alias, topicMemberSql('?::uuid', `${alias}."id"`, topic.defaultIn)), params: [topic.id] };
}

/** Why the contact may not receive marketing (about `topicId`) now, or null when it may; null for a contact that is gone. */
export async function marketingRefusal(em: EntityManager, contactId: string, topicId: string | null): Promise<MarketingRefusal | null> {
  // One contact: its choice, else the topic's default (false for a topic that no longer exists).
  const inTopic = `coalesce((select ct."member" from contact_topics ct where ct."topic_id" = ?::uuid and ct."contact_id" = c."id"),
    (select t."default_membership" = 'IN' from topics t where t."id" = ?::uuid), false)`;
  const [row] = await em.execute<Array<{ refusal: MarketingRefusal | null }>>(
    `select ${refusalSql('c', topicId === null ? null : inTopic)} as "refusal" from contacts c where c."id" = ?`,
    topicId === null ? [contactId] : [topicId, topicId, contactId],
  );
  return row?.refusal ?? null;
}
