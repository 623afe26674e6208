import type { EntityManager } from '@mikro-orm/postgresql';
import { HOUR_MS, type Range } from '../analytics/range';
import { ACTIVITY_TYPES, EVENT_OF, TYPE_OF_EVENT, isEventType, type ActivityType } from './types';

export type ActivityCounts = Record<ActivityType, number>;

/** Event names of the types, as a SQL list; they are the service's own constants. */
const namesSql = (types: ActivityType[]) =>
  types
    .filter(isEventType)
    .map((t) => `'${EVENT_OF[t]}'`)
    .join(', ');

const hourFloor = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
const hourCeil = (d: Date) => new Date(Math.ceil(d.getTime() / HOUR_MS) * HOUR_MS);

/**
 * The parts of a range: the whole UTC hours in it, which the rollups answer, and the partial hours at its
 * ends (under an hour each), which the rows answer through their indexes. Without a range, everything; an
 * empty range (a `since` to come, a `to` not after `from`) nothing, and no statement is run for it.
 */
function split(range: Range | undefined): { hours: { from: Date | '-infinity'; to: Date | 'infinity' } | null; edges: Range[] } {
  if (!range) return { hours: { from: '-infinity', to: 'infinity' }, edges: [] };
  if (range.from >= range.to) return { hours: null, edges: [] };
  const from = hourCeil(range.from);
  const to = hourFloor(range.to);
  if (from >= to) return { hours: null, edges: [range] };
  return {
    hours: { from, to },
    edges: [
      { from: range.from, to: from },
      { from: to, to: range.to },
    ].filter((e) => e.from < e.to),
  };
}

/** The SQL of `column` in any of the edges; its parameters are edgeParams(edges). */
const within = (column: string, edges: Range[]) => `(${edges.map(() => `(${column} >= ? and ${column} < ?)`).join(' or ')})`;
const edgeParams = (edges: Range[]) => edges.flatMap((e) => [e.from, e.to]);

/**
 * Activity of the project per type, exact: over `range` when given, else all of it. Reads one rollup row
 * per hour and type, plus at most two partial hours of rows, however much activity there is.
 */
export async function countActivity(em: EntityManager, projectId: string, types: ActivityType[], range?: Range): Promise<ActivityCounts> {
  const { hours, edges } = split(range);
  const parts: string[] = [];
  const params: unknown[] = [];
  const names = namesSql(types);
  if (names && hours) {
    parts.push(
      `select "name" as "key", "count"::bigint as "n" from event_stats where "project_id" = ? and "name" in (${names}) and "hour" >= ? and "hour" < ?`,
    );
    params.push(projectId, hours.from, hours.to);
  }
  if (names && edges.length) {
    parts.push(
      `select "name" as "key", count(*) as "n" from events where "project_id" = ? and "name" in (${names}) and ${within('"created_at"', edges)} group by 1`,
    );
    params.push(projectId, ...edgeParams(edges));
  }
  if (types.includes('FAILED') && hours) {
    parts.push(`select 'FAILED' as "key", "failed"::bigint as "n" from email_stats where "project_id" = ? and "hour" >= ? and "hour" < ?`);
    params.push(projectId, hours.from, hours.to);
  }
  if (types.includes('FAILED') && edges.length) {
    parts.push(
      `select 'FAILED' as "key", count(*) as "n" from emails where "project_id" = ? and "status" = 'FAILED' and "failed_at" is not null and ${within('"failed_at"', edges)}`,
    );
    params.push(projectId, ...edgeParams(edges));
  }
  const counts = Object.fromEntries(ACTIVITY_TYPES.map((t) => [t, 0])) as ActivityCounts;
  if (parts.length === 0) return counts;
  const rows = await em.execute<Array<{ key: string; n: string }>>(
    `select "key", sum("n") as "n" from (${parts.join(' union all ')}) x group by 1`,
    params,
  );
  for (const row of rows) counts[row.key === 'FAILED' ? 'FAILED' : TYPE_OF_EVENT.get(row.key)!] = Number(row.n);
  return counts;
}

/** One contact's activity per type, all of it: a contact's rows are few, so they are counted directly. */
export async function countContactActivity(
  em: EntityManager,
  projectId: string,
  contactId: string,
  types: ActivityType[],
): Promise<number> {
  const parts: string[] = [];
  const params: unknown[] = [];
  const names = namesSql(types);
  if (names) {
    parts.push(`select count(*) as "n" from events where "contact_id" = ? and "project_id" = ? and "name" in (${names})`);
    params.push(contactId, projectId);
  }
  if (types.includes('FAILED')) {
    parts.push(`select count(*) as "n" from emails where "contact_id" = ? and "project_id" = ? and "status" = 'FAILED'`);
    params.push(contactId, projectId);
  }
  const [row] = await em.execute<Array<{ n: string }>>(`select sum("n") as "n" from (${parts.join(' union all ')}) x`, params);
  return Number(row?.n ?? 0);
}
