import type { EntityManager } from '@mikro-orm/postgresql';
import { timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor, type CursorPosition } from '../../http/cursor';
import { countActivity, countContactActivity } from './counts';
import { EVENT_OF, type ActivityType } from './types';

const ORDERING = 'activity:desc';
const KEY = timestampKey('a."at"');

export interface FeedFilter {
  limit: number;
  cursor?: string;
  types: ActivityType[];
  contactId?: string;
  /** Only activity of emails carrying this tag. */
  tag?: { key: string; value: string };
}

interface FeedRow {
  id: string;
  type: ActivityType;
  at: string;
  contact_id: string | null;
  contact_email: string | null;
  data: Record<string, unknown>;
  cursor_value: string;
}

// A failed email described like the events of the other types, with the address and the reason.
const FAILED_DATA = `jsonb_strip_nulls(jsonb_build_object('emailId', e."id", 'subject', e."subject", 'from', e."from_address",
  'templateId', e."template_id", 'campaignId', e."campaign_id", 'sourceType', e."source_type", 'tags', e."tags", 'to', e."to_address",
  'error', e."error"))`;

/**
 * Events carrying a tag (the parameter, a one-key object), through the index of migration 0156, which holds only events
 * whose tags are not empty: its predicate is repeated word for word, so that the planner can prove the index
 * applies.
 */
export const TAGGED_EVENT = `e."data" -> 'tags' <> '{}'::jsonb and e."data" -> 'tags' @> ?::jsonb`;

/** A type's rows: the table (aliased e), their time, and the conditions and data of the type. */
function source(type: ActivityType, filter: FeedFilter, projectId: string, params: unknown[]) {
  const failed = type === 'FAILED';
  const [table, at, where, data] = failed
    ? ['emails e', 'e."failed_at"', `e."project_id" = ? and e."status" = 'FAILED' and e."failed_at" is not null`, FAILED_DATA]
    : ['events e', 'e."created_at"', `e."project_id" = ? and e."name" = '${EVENT_OF[type]}'`, 'e."data"'];
  params.push(projectId);
  const conditions = [where];
  if (filter.contactId) {
    conditions.push('e."contact_id" = ?');
    params.push(filter.contactId);
  }
  if (filter.tag) {
    conditions.push(failed ? 'e."tags" @> ?::jsonb' : TAGGED_EVENT);
    params.push(JSON.stringify({ [filter.tag.key]: filter.tag.value }));
  }
  return { table, at, data, conditions };
}

/**
 * One arm per type, each the newest rows of that type after the cursor through its own index
 * (events by project, name and time, or by contact; failed emails by the partial index of migration 0032),
 * so that a page costs a few index reads per type however large the project is.
 */
function arm(type: ActivityType, filter: FeedFilter, after: CursorPosition | undefined, projectId: string, params: unknown[]): string {
  const { table, at, data, conditions } = source(type, filter, projectId, params);
  if (after) {
    conditions.push(`(${at}, e."id") < (${KEY.fromText}, ?::uuid)`);
    params.push(after.value, after.id);
  }
  params.push(filter.limit + 1);
  return `(select e."id", ${at} as "at", '${type}' as "type", e."contact_id", ${data} as "data" from ${table}
    where ${conditions.join(' and ')} order by ${at} desc, e."id" desc limit ?)`;
}

/** The tagged activity of the project, counted from the rows: the rollups do not know tags. */
async function countTagged(em: EntityManager, projectId: string, filter: FeedFilter): Promise<number> {
  const params: unknown[] = [];
  const counts = filter.types.map((type) => {
    const { table, conditions } = source(type, filter, projectId, params);
    return `(select count(*) as "n" from ${table} where ${conditions.join(' and ')})`;
  });
  const [row] = await em.execute<Array<{ n: string }>>(`select sum("n") as "n" from (${counts.join(' union all ')}) x`, params);
  return Number(row?.n ?? 0);
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);
const tagsOf = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};

function itemOf(row: FeedRow) {
  const { emailId, subject, from, templateId, campaignId, sourceType, tags, ...details } = row.data;
  return {
    id: row.id,
    type: row.type,
    occurredAt: new Date(row.at).toISOString(),
    contact: row.contact_id && row.contact_email ? { id: row.contact_id, email: row.contact_email } : null,
    email:
      typeof emailId === 'string'
        ? {
            id: emailId,
            subject: text(subject),
            from: text(from),
            templateId: text(templateId),
            campaignId: text(campaignId),
            sourceType: text(sourceType),
            tags: tagsOf(tags),
          }
        : null,
    details,
  };
}

export type ActivityItem = ReturnType<typeof itemOf>;

/** GET /activity: newest first as a cursor page; `total` (first page only) comes from the rollups. */
export async function activityFeed(em: EntityManager, projectId: string, filter: FeedFilter) {
  const after = filter.cursor ? decodeCursor(filter.cursor, ORDERING) : undefined;
  const params: unknown[] = [];
  const arms = filter.types.map((type) => arm(type, filter, after, projectId, params));
  const page = em.execute<FeedRow[]>(
    `select a."id", a."type", a."at", a."contact_id", c."email" as "contact_email", a."data", ${KEY.toText} as "cursor_value"
     from (${arms.join(' union all ')}) a left join contacts c on c."id" = a."contact_id"
     order by a."at" desc, a."id" desc limit ?`,
    [...params, filter.limit + 1],
  );
  const total = after
    ? Promise.resolve(0)
    : filter.tag
      ? countTagged(em, projectId, filter)
      : filter.contactId
        ? countContactActivity(em, projectId, filter.contactId, filter.types)
        : countActivity(em, projectId, filter.types).then((c) => filter.types.reduce((sum, t) => sum + c[t], 0));
  const [rows, count] = await Promise.all([page, total]);
  const last = rows[filter.limit - 1];
  const next = rows.length > filter.limit && last ? encodeCursor(ORDERING, { value: last.cursor_value, id: last.id }) : null;
  return { data: rows.slice(0, filter.limit).map(itemOf), cursor: next, hasMore: next !== null, total: count };
}
