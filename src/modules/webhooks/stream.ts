import type { EntityManager } from '@mikro-orm/postgresql';
import { isoSql } from '../../db/iso-sql';

/**
 * An endpoint's queue is fed from the project's events in the order they were recorded (docs/webhooks.md
 * "Order"): by the recording transaction's id, then the event's seq, and only below the oldest transaction
 * still running, so an event that commits later can never land behind the endpoint's place (cursor_txid,
 * cursor_seq). Selection and the payload are written here once, in SQL, for the stream and for replay alike.
 */

/**
 * Whether event `e` is selected by the patterns of endpoint `ep` (names, or prefixes ending in `*`; none selects all).
 * The events outbox asks the same of each new event's name through the database's `webhook_selects` (migration 0153),
 * held to the same answers by test/audience/heard-events.test.ts.
 */
export const SELECTS = `(jsonb_array_length(ep."events") = 0 or exists (
  select 1 from jsonb_array_elements_text(ep."events") p
  where case when right(p, 1) = '*' then starts_with(e."name", left(p, -1)) else e."name" = p end))`;

/** `{type, timestamp, data: {id, name, contact: {id, email}, data}}` of event `e` and its contact `c`, keys in that order. */
const PAYLOAD = `json_build_object('type', e."name",
  'timestamp', ${isoSql('e."created_at"')},
  'data', json_build_object('id', e."id", 'name', e."name", 'contact', json_build_object('id', e."contact_id", 'email', c."email"), 'data', e."data"))::text`;

const FAN_OUT = `
with ep as (
  select "id", "project_id", "events", "cursor_txid", "cursor_seq" from webhook_endpoints where "id" = ? and "enabled" for update),
batch as (
  select e.* from events e cross join ep
  where e."project_id" = ep."project_id" and e."txid" is not null
    and (e."txid", e."seq") > (ep."cursor_txid", ep."cursor_seq")
    and e."txid" < pg_snapshot_xmin(pg_current_snapshot())
  order by e."txid", e."seq" limit ?),
ins as (
  insert into webhook_deliveries ("id", "created_at", "endpoint_id", "event_id", "type", "body")
  select gen_random_uuid(), clock_timestamp(), ep."id", e."id", e."name", ${PAYLOAD}
  from batch e cross join ep left join contacts c on c."id" = e."contact_id"
  where ${SELECTS}
  order by e."txid", e."seq"
  on conflict do nothing
  returning 1),
last as (select "txid", "seq" from batch order by "txid" desc, "seq" desc limit 1),
moved as (
  update webhook_endpoints w set "cursor_txid" = last."txid", "cursor_seq" = last."seq" from last where w."id" = ? returning 1)
select (select count(*) from batch)::int as scanned, (select count(*) from ins)::int as queued,
  exists (select 1 from events e cross join ep
    where e."project_id" = ep."project_id" and e."txid" is not null and (e."txid", e."seq") > (ep."cursor_txid", ep."cursor_seq")
      and e."txid" >= pg_snapshot_xmin(pg_current_snapshot())) as held`;

export interface Fed {
  /** Events passed. */
  scanned: number;
  /** Of those, the ones selected and queued. */
  queued: number;
  /** Committed events wait behind a transaction that is still running: the stream moves on once it ends. */
  held: boolean;
}

/**
 * Moves up to `limit` events past the endpoint's place into its queue (those it selects), in one statement,
 * and advances its place. Nothing happens for a disabled or deleted endpoint.
 */
export async function feedQueue(em: EntityManager, endpointId: string, limit: number): Promise<Fed> {
  const [row] = await em.execute<Fed[]>(FAN_OUT, [endpointId, limit, endpointId]);
  return { scanned: row?.scanned ?? 0, queued: row?.queued ?? 0, held: row?.held ?? false };
}

const REPLAY = `
with ep as (select "id", "project_id", "events", "cursor_txid", "cursor_seq" from webhook_endpoints where "id" = ?),
picked as (
  select e."id", e."created_at", e."seq" from events e cross join ep
  where e."project_id" = ep."project_id" and e."created_at" >= ?
    and (e."txid" is null or (e."txid", e."seq") <= (ep."cursor_txid", ep."cursor_seq"))
    and ${SELECTS}
  order by e."created_at", e."seq" limit ?),
ins as (
  insert into webhook_deliveries ("id", "created_at", "endpoint_id", "event_id", "replay", "type", "body")
  select gen_random_uuid(), clock_timestamp(), ep."id", e."id", true, e."name", ${PAYLOAD}
  from picked p join events e on e."id" = p."id" cross join ep left join contacts c on c."id" = e."contact_id"
  order by p."created_at", p."seq"
  returning 1)
select (select count(*) from ins)::int as queued`;

const NEXT_REPLAYABLE = `
select e."created_at" from events e join webhook_endpoints ep on ep."id" = ?
where e."project_id" = ep."project_id" and e."created_at" >= ?
  and (e."txid" is null or (e."txid", e."seq") <= (ep."cursor_txid", ep."cursor_seq")) and ${SELECTS}
order by e."created_at", e."seq" offset ? limit 1`;

/**
 * Queues again, after whatever is pending, the events since `since` that the endpoint selects and the stream
 * has already passed (later ones arrive through the stream anyway), oldest first, at most `limit`. Returns
 * how many, and when there were more, the time of the first one left to pass as the next `since`.
 */
export async function replayInto(
  em: EntityManager,
  endpointId: string,
  since: Date,
  limit: number,
): Promise<{ queued: number; nextSince: Date | null }> {
  const [row] = await em.execute<{ queued: number }[]>(REPLAY, [endpointId, since, limit]);
  const queued = row?.queued ?? 0;
  if (queued < limit) return { queued, nextSince: null };
  const [next] = await em.execute<{ created_at: string | Date }[]>(NEXT_REPLAYABLE, [endpointId, since, limit]);
  return { queued, nextSince: next ? new Date(next.created_at) : null };
}
