import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { validationError } from '../../http/errors';
import { recordEvents } from '../outbox/record';
import type { DefaultMembership } from './entities';

/** Why a contact joined or left a topic: the `reason` of its contact.topic.joined / left event. */
export type TopicReason = 'api' | 'preferences_page' | 'unsubscribe_page' | 'one_click' | 'form' | 'confirmation';

export interface TopicChange {
  topicId: string;
  member: boolean;
}

/** A topic of the project as one contact stands in it. */
export interface TopicMembership {
  topicId: string;
  name: string;
  description: string | null;
  member: boolean;
  /** Whether the contact chose (else the topic's default holds). */
  chosen: boolean;
  changedAt: string | null;
}

interface MembershipRow {
  id: string;
  name: string;
  description: string | null;
  default_membership: DefaultMembership;
  member: boolean | null;
  changed_at: string | null;
}

const membershipOf = (r: MembershipRow): TopicMembership => ({
  topicId: r.id,
  name: r.name,
  description: r.description,
  member: r.member ?? r.default_membership === 'IN',
  chosen: r.member !== null,
  changedAt: r.changed_at === null ? null : new Date(r.changed_at).toISOString(),
});

/** Every topic of the project with the contact's standing in it, in the order they were created. */
export async function topicsOfContact(em: EntityManager, projectId: string, contactId: string): Promise<TopicMembership[]> {
  const rows = await em.execute<MembershipRow[]>(
    `select t."id", t."name", t."description", t."default_membership", ct."member", ct."changed_at"
     from topics t left join contact_topics ct on ct."topic_id" = t."id" and ct."contact_id" = ?
     where t."project_id" = ? order by t."created_at", t."id"`,
    [contactId, projectId],
  );
  return rows.map(membershipOf);
}

/**
 * Refuses topic ids that are not the project's with a 422 naming each (`field(index)`), so that nothing of a
 * request that names another project's topic is applied.
 */
export async function assertProjectTopics(
  em: EntityManager,
  projectId: string,
  ids: readonly string[],
  field: (index: number) => string,
): Promise<void> {
  if (ids.length === 0) return;
  const known = await em.execute<Array<{ id: string }>>(
    `select "id" from topics where "project_id" = ? and "id" in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [projectId, JSON.stringify(ids)],
  );
  const found = new Set(known.map((r) => r.id));
  const errors = ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ field: field(i), message: 'No such topic in this project', code: 'not_found' }],
  );
  if (errors.length > 0) throw validationError(errors, `${errors[0]!.field}: No such topic in this project`);
}

/**
 * Records the contact's choices (the last one per topic wins) and, for each topic whose membership changed,
 * `contact.topic.joined` or `contact.topic.left` with `{ topicId, topicName, reason }`, in the caller's
 * transaction when there is one. The contact row is locked, so concurrent changes of one contact emit each
 * change once. Topics that are not the project's are left alone. Answers the changes made, or null when the
 * contact is not the project's.
 */
export async function changeTopics(
  em: EntityManager,
  projectId: string,
  contactId: string,
  changes: readonly TopicChange[],
  reason: TopicReason,
): Promise<{ joined: string[]; left: string[] } | null> {
  return em.transactional(
    async (tx) => {
      const [contact] = await tx.execute<Array<{ id: string }>>(
        'select "id" from contacts where "id" = ? and "project_id" = ? for update',
        [contactId, projectId],
      );
      if (!contact) return null;
      const wanted = new Map(changes.map((c) => [c.topicId, c.member]));
      if (wanted.size === 0) return { joined: [], left: [] };
      const current = (await topicsOfContact(tx, projectId, contactId)).filter((t) => wanted.has(t.topicId));
      await tx.execute(
        `insert into contact_topics ("topic_id", "contact_id", "member", "changed_at")
         select c."topic_id", ?, c."member", now() from jsonb_to_recordset(?::jsonb) as c("topic_id" uuid, "member" boolean)
         on conflict ("topic_id", "contact_id") do update set "member" = excluded."member", "changed_at" = excluded."changed_at"`,
        [contactId, JSON.stringify(current.map((t) => ({ topic_id: t.topicId, member: wanted.get(t.topicId) })))],
      );
      const moved = current.filter((t) => t.member !== wanted.get(t.topicId));
      recordEvents(
        tx,
        moved.map((t) => ({
          projectId,
          contactId,
          name: wanted.get(t.topicId) ? 'contact.topic.joined' : 'contact.topic.left',
          data: { topicId: t.topicId, topicName: t.name, reason },
        })),
      );
      return { joined: moved.filter((t) => !t.member).map((t) => t.topicId), left: moved.filter((t) => t.member).map((t) => t.topicId) };
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}
