import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, timestampKey } from '../../db/keyset';
import { isUniqueViolation } from '../../db/prepared';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { conflict, notFound, validationError } from '../../http/errors';
import { Topic } from './entities';
import { MAX_TOPICS, type CreateTopicBody, type ListTopicsQuery, type TopicResponse, type UpdateTopicBody } from './schemas';
import { topicUsage, type TopicUsageSource } from './usage';

/**
 * Members now: those who chose to be in, or, when the default is IN, every contact but those who chose to be
 * out. Counts of the choices only (an index range of the topic), and the project's contact count.
 */
const MEMBER_COUNT = `case when t."default_membership" = 'IN'
  then (select coalesce(sum(cc."n"), 0) from contact_counts cc where cc."project_id" = t."project_id")
     - (select count(*) from contact_topics ct where ct."topic_id" = t."id" and not ct."member")
  else (select count(*) from contact_topics ct where ct."topic_id" = t."id" and ct."member") end::int`;

interface TopicRow {
  id: string;
  name: string;
  description: string | null;
  default_membership: Topic['defaultMembership'];
  member_count: number;
  created_at: string;
  updated_at: string;
}

const topicOf = (r: TopicRow): TopicResponse => ({
  id: r.id,
  name: r.name,
  description: r.description,
  defaultMembership: r.default_membership,
  memberCount: Math.max(0, r.member_count),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const SELECT = `t."id", t."name", t."description", t."default_membership", t."created_at", t."updated_at", ${MEMBER_COUNT} as "member_count"`;

const ORDERING = 'createdAt:asc';

/** The project's topics in the order they were created (the order the preference page shows them). */
export async function listTopics(em: EntityManager, projectId: string, q: ListTopicsQuery) {
  const after = q.cursor ? decodeCursor(q.cursor, ORDERING) : undefined;
  const where = ['t."project_id" = ?'];
  const page = await keysetPage<TopicRow>(em, {
    select: SELECT,
    from: 'topics t',
    where,
    params: [projectId],
    key: timestampKey('t."created_at"'),
    idColumn: 't."id"',
    dir: 'asc',
    limit: q.limit,
    after,
  });
  const total = after ? 0 : await em.count(Topic, { projectId });
  return {
    data: page.rows.map(topicOf),
    cursor: page.next ? encodeCursor(ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}

export async function getTopic(em: EntityManager, projectId: string, id: string): Promise<TopicResponse> {
  const [row] = await em.execute<TopicRow[]>(`select ${SELECT} from topics t where t."id" = ? and t."project_id" = ?`, [id, projectId]);
  if (!row) throw notFound('Topic');
  return topicOf(row);
}

const taken = (name: string) => conflict(`The project already has a topic named "${name}"`, { name });

/** Saves the change; a name another topic has (ignoring case) is 409. */
async function saved(em: EntityManager, topic: Topic): Promise<TopicResponse> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(topic.name);
    throw err;
  }
  return getTopic(em, topic.projectId, topic.id);
}

export async function createTopic(em: EntityManager, projectId: string, body: CreateTopicBody): Promise<TopicResponse> {
  if ((await em.count(Topic, { projectId })) >= MAX_TOPICS) {
    throw validationError(
      [{ field: 'name', message: `A project has at most ${MAX_TOPICS} topics`, code: 'too_many_topics' }],
      `A project has at most ${MAX_TOPICS} topics; delete one first`,
    );
  }
  const topic = em.create(Topic, {
    projectId,
    name: body.name,
    description: body.description ?? null,
    defaultMembership: body.defaultMembership,
  });
  return saved(em, topic);
}

async function findTopic(em: EntityManager, projectId: string, id: string): Promise<Topic> {
  const topic = await em.findOne(Topic, { id, projectId });
  if (!topic) throw notFound('Topic');
  return topic;
}

/** Only what is given changes; a new default moves every contact who never chose. */
export async function updateTopic(em: EntityManager, projectId: string, id: string, body: UpdateTopicBody): Promise<TopicResponse> {
  const topic = await findTopic(em, projectId, id);
  if (body.name !== undefined) topic.name = body.name;
  if (body.description !== undefined) topic.description = body.description;
  if (body.defaultMembership !== undefined) topic.defaultMembership = body.defaultMembership;
  topic.updatedAt = new Date();
  return saved(em, topic);
}

/**
 * Deletes the topic and every choice of it. Refused (409, with the users in `details`) while a campaign not
 * yet sent, a signup form or an automation step names it: they would otherwise reach more people, or
 * nobody, than was meant.
 */
export async function deleteTopic(em: EntityManager, sources: readonly TopicUsageSource[], projectId: string, id: string): Promise<void> {
  const topic = await findTopic(em, projectId, id);
  const usage = await topicUsage(sources, em, projectId, id);
  if (usage.campaigns.length + usage.forms.length + usage.workflows.length > 0) {
    throw conflict('The topic is in use; take it out of these campaigns, forms and workflows first', { ...usage });
  }
  await em.remove(topic).flush();
}
