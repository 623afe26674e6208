import type { EntityManager } from '@mikro-orm/postgresql';
import { countRows, keysetPage, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { badRequest, notFound } from '../../http/errors';
import { Contact } from '../contacts/entities';
import { isReservedEventName } from './reserved';

export interface EventView {
  id: string;
  name: string;
  contact: { id: string; email: string };
  data: Record<string, unknown>;
  createdAt: string;
}

interface EventRow {
  id: string;
  name: string;
  contact_id: string;
  email: string;
  data: Record<string, unknown>;
  created_at: string;
}

// Raw rows carry PostgreSQL's text form of timestamps.
const isoOf = (pgTimestamp: string) => new Date(pgTimestamp).toISOString();

const toView = (r: EventRow): EventView => ({
  id: r.id,
  name: r.name,
  contact: { id: r.contact_id, email: r.email },
  data: r.data,
  createdAt: isoOf(r.created_at),
});

const ORDERING = 'createdAt:desc';
const FROM = 'events e join contacts c on c."id" = e."contact_id"';

export interface EventFilter {
  limit: number;
  cursor?: string;
  name?: string;
  contactId?: string;
}

/** Newest first, as a cursor page. */
export async function listEvents(em: EntityManager, projectId: string, filter: EventFilter) {
  const after = filter.cursor ? decodeCursor(filter.cursor, ORDERING) : undefined;
  const where = ['e."project_id" = ?'];
  const params: unknown[] = [projectId];
  if (filter.name) {
    where.push('e."name" = ?');
    params.push(filter.name);
  }
  if (filter.contactId) {
    where.push('e."contact_id" = ?');
    params.push(filter.contactId);
  }
  const [page, total] = await Promise.all([
    keysetPage<EventRow>(em, {
      select: 'e."id", e."name", e."contact_id", c."email", e."data", e."created_at"',
      from: FROM,
      where,
      params,
      key: timestampKey('e."created_at"'),
      idColumn: 'e."id"',
      dir: 'desc',
      limit: filter.limit,
      after,
    }),
    after ? 0 : filter.contactId ? countRows(em, 'events e', where, params) : countedEvents(em, projectId, filter.name),
  ]);
  return {
    data: page.rows.map(toView),
    cursor: page.next ? encodeCursor(ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}

/** The project's events (of one name), from the hourly rollup the events triggers keep exact (migration 0024). */
async function countedEvents(em: EntityManager, projectId: string, name: string | undefined): Promise<number> {
  const [row] = await em.execute<{ n: string | null }[]>(
    `select sum("count") as n from event_stats where "project_id" = ?${name ? ' and "name" = ?' : ''}`,
    name ? [projectId, name] : [projectId],
  );
  return Number(row?.n ?? 0);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listContactEvents(em: EntityManager, projectId: string, contactId: string, filter: EventFilter) {
  const exists = UUID.test(contactId) && (await em.count(Contact, { id: contactId, projectId })) > 0;
  if (!exists) throw notFound('Contact');
  return listEvents(em, projectId, { ...filter, contactId });
}

export interface NameCount {
  name: string;
  count: number;
  lastTrackedAt: string;
}

// Counts from the hourly rollup; the latest time of each name from the events index (project, name, time).
const NAME_COUNTS = `
select s."name", s.n, (select e."created_at" from events e where e."project_id" = s."project_id" and e."name" = s."name"
                       order by e."created_at" desc limit 1) as last
from (select "project_id", "name", sum("count") as n from event_stats where "project_id" = ? group by 1, 2 having sum("count") > 0) s`;
const toNameCount = (r: { name: string; n: string; last: string }): NameCount => ({
  name: r.name,
  count: Number(r.n),
  lastTrackedAt: isoOf(r.last),
});

export async function eventNames(em: EntityManager, projectId: string): Promise<NameCount[]> {
  const rows = await em.execute<{ name: string; n: string; last: string }[]>(`${NAME_COUNTS} order by "name"`, [projectId]);
  return rows.map(toNameCount);
}

export const TOP_EVENTS = 10;

export async function eventStats(em: EntityManager, projectId: string) {
  const [[totals], top] = await Promise.all([
    em.execute<Array<Record<'total' | 'day' | 'week' | 'month' | 'names' | 'contacts', string>>>(
      `select count(*) as total,
         count(*) filter (where "created_at" > now() - interval '24 hours') as day,
         count(*) filter (where "created_at" > now() - interval '7 days') as week,
         count(*) filter (where "created_at" > now() - interval '30 days') as month,
         count(distinct "name") as names, count(distinct "contact_id") as contacts
       from events where "project_id" = ?`,
      [projectId],
    ),
    em.execute<{ name: string; n: string; last: string }[]>(`${NAME_COUNTS} order by n desc, "name" limit ?`, [projectId, TOP_EVENTS]),
  ]);
  return {
    total: Number(totals?.total ?? 0),
    last24Hours: Number(totals?.day ?? 0),
    last7Days: Number(totals?.week ?? 0),
    last30Days: Number(totals?.month ?? 0),
    uniqueNames: Number(totals?.names ?? 0),
    uniqueContacts: Number(totals?.contacts ?? 0),
    topEvents: top.map(toNameCount),
  };
}

/** Custom events only: service events feed activity and analytics, so they are kept. */
export async function deleteEvents(em: EntityManager, projectId: string, name: string): Promise<{ name: string; deleted: number }> {
  if (isReservedEventName(name)) {
    throw badRequest(`${name} is a service event and cannot be deleted`, {
      suggestion: 'Only events tracked through /v1/track can be deleted.',
    });
  }
  const res = await em.execute<{ affectedRows: number }>(
    'delete from events where "project_id" = ? and "name" = ?',
    [projectId, name],
    'run',
  );
  if (res.affectedRows === 0) throw notFound('Event');
  return { name, deleted: res.affectedRows };
}
