import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { executePrepared } from '../../db/prepared';
import { INSERT_EVENTS, eventsRecorded } from '../outbox/record';
import { fieldTypesOf, toDataPatch, type DataInput } from './custom-fields';
import { normalizeEmail } from './email';

/**
 * The one statement builder of contact writes, for every path (a single write is a batch of one): the
 * contact rows with the patch rules of custom fields (rules 1 and 3 in SQL, so that concurrent writers patch
 * each other's keys instead of overwriting them), the types new keys infer (rule 9: the first row that sets a
 * key decides), the contact.subscribed/unsubscribed event of each flip and an optional event per row, in the
 * rows' order. One statement is atomic on its own, joins the caller's transaction when there is one, runs
 * each statement trigger (contact_counts, event_stats) once for the lot, and is one round trip of a prepared
 * statement. A contact may appear only once in a statement (a row cannot be changed twice in one).
 */

export interface ContactInput {
  email: string;
  subscribed?: boolean;
  data?: DataInput;
}

export interface UpsertOptions {
  defaultSubscribed: boolean;
  event?: { name: string; data: Record<string, unknown> };
}

export interface ContactWriteRequest {
  projectId: string;
  input: ContactInput;
  options: UpsertOptions;
}

/** The contact a write is for: a statement may write each contact once. */
export const contactKey = (write: ContactWriteRequest): string => `${write.projectId} ${normalizeEmail(write.input.email)}`;

/** A written contact's columns as the statements return them. */
export interface WrittenRow extends Record<string, unknown> {
  id: string;
  email: string;
  subscribed: boolean;
  was_subscribed: boolean | null;
  recorded: Array<{ id: string; name: string; createdAt: string }>;
}

const INPUT = `
input as (
  select * from jsonb_to_recordset(?::jsonb) as i("ord" int, "id" uuid, "project_id" uuid, "email" text, "subscribed" boolean,
    "set_subscribed" boolean, "set" jsonb, "unset" jsonb, "types" jsonb, "event" text, "event_data" jsonb, "flip_data" jsonb,
    "changed_only" boolean))`;

// Named columns, not `new.*`: a prepared statement's result must keep its shape when a column is added.
// PostgreSQL 18 returns the row as it was before the change as `old` (null for an insert).
const RETURNING = `returning ${['id', 'created_at', 'updated_at', 'project_id', 'email', 'subscribed', 'data'].map((c) => `new."${c}"`).join(', ')},
    old."subscribed" as "was_subscribed"`;

// `excluded` carries only contacts' columns, so a conflicting row finds the rest of its input by the id it
// proposed, which is unique to it: in one object keyed by those ids, built once, since a CTE has no index
// and a lookup into `input` itself would read all of it for every conflict. Rows are locked in (project,
// email) order, as any other batch locks them.
const UPSERTED = `
patches as materialized (
  select jsonb_object_agg(i."id"::text, jsonb_build_object('subscribed', i."set_subscribed", 'unset', i."unset")) as "by_id" from input i),
written as (
  insert into contacts as c ("id", "created_at", "updated_at", "project_id", "email", "subscribed", "data")
  select i."id", now(), now(), i."project_id", i."email", i."subscribed", i."set" from input i order by i."project_id", i."email"
  on conflict ("project_id", "email") do update set
    "subscribed" = coalesce(((select p."by_id" from patches p)->excluded."id"::text->>'subscribed')::boolean, c."subscribed"),
    "data" = (c."data" || excluded."data")
      - array(select jsonb_array_elements_text((select p."by_id" from patches p)->excluded."id"::text->'unset')),
    "updated_at" = now()
  ${RETURNING}),
matched as (
  select i."ord", i."types", i."event", i."event_data", i."flip_data", w.* from written w join input i on i."project_id" = w."project_id" and i."email" = w."email")`;

// PATCH semantics: only what is given changes. A `changed_only` row (bulk operations) is left alone, its
// `updated_at` too, when its contact is already in the state it asks for.
const UPDATED = `
written as (
  update contacts as c set
    "email" = coalesce(i."email", c."email"),
    "subscribed" = coalesce(i."set_subscribed", c."subscribed"),
    "data" = (c."data" || i."set") - array(select jsonb_array_elements_text(i."unset")),
    "updated_at" = now()
  from input i where c."id" = i."id" and c."project_id" = i."project_id"
    and (not i."changed_only" or c."subscribed" is distinct from i."set_subscribed")
  ${RETURNING}),
matched as (
  select i."ord", i."types", i."event", i."event_data", i."flip_data", w.* from written w join input i on i."id" = w."id")`;

// The parts that read `matched` (each written row with its input), so they run after the write, and only
// for rows written. Each row finds its events in one object keyed by contact, for the reason `patches` is one.
const AFTER_WRITE = `
fields as (
  insert into contact_fields ("project_id", "key", "type", "created_at")
  select distinct on (m."project_id", f.key) m."project_id", f.key, f.type, now()
  from matched m cross join jsonb_to_recordset(m."types") as f(key text, type text)
  order by m."project_id", f.key, m."ord"
  on conflict ("project_id", "key") do nothing),
recorded as (
  ${INSERT_EVENTS}
  select gen_random_uuid(), now(), m."project_id", m."id", e.name, e.data
  from matched m cross join lateral (
    select 1 as ord, case when m."subscribed" then 'contact.subscribed' else 'contact.unsubscribed' end as name, m."flip_data" as data
    where m."was_subscribed" is not null and m."was_subscribed" <> m."subscribed"
    union all
    select 2, m."event", m."event_data" where m."event" is not null
  ) e order by m."ord", e.ord
  returning "id", "contact_id", "name", "created_at"),
recorded_by_contact as materialized (
  select coalesce(jsonb_object_agg(g."contact_id"::text, g."recorded"), '{}') as "by_id" from (
    select r."contact_id", jsonb_agg(jsonb_build_object('id', r."id", 'name', r."name", 'createdAt', r."created_at")) as "recorded"
    from recorded r group by r."contact_id") g)
select m."ord", m."id", m."created_at", m."updated_at", m."project_id", m."email", m."subscribed", m."data", m."was_subscribed",
  coalesce(r."by_id"->m."id"::text, '[]') as "recorded"
from matched m cross join recorded_by_contact r`;

const UPSERT = `with ${INPUT}, ${UPSERTED}, ${AFTER_WRITE}`;
const UPDATE = `with ${INPUT}, ${UPDATED}, ${AFTER_WRITE}`;

interface InputRow {
  id: string;
  project_id: string;
  /** Null keeps an updated contact's email. */
  email: string | null;
  subscribed: boolean | null;
  set_subscribed: boolean | null;
  data?: DataInput;
  event?: { name: string; data: Record<string, unknown> };
  flip_data?: Record<string, unknown>;
  changed_only?: boolean;
}

/** Runs the statement over the rows; answers the rows written, by position in `rows` (a missing contact has none). */
async function write(em: EntityManager, name: string, sql: string, rows: InputRow[]): Promise<Array<WrittenRow | undefined>> {
  const input = rows.map(({ data, event, flip_data, changed_only, ...row }, ord) => {
    const patch = toDataPatch(data);
    return {
      ...row,
      ord,
      set: patch.set,
      unset: patch.unset,
      types: [...fieldTypesOf(patch.set)].map(([key, type]) => ({ key, type })),
      event: event?.name ?? null,
      event_data: event?.data ?? {},
      flip_data: flip_data ?? {},
      changed_only: changed_only ?? false,
    };
  });
  const written = await executePrepared<WrittenRow & { ord: number }>(em, name, sql, [JSON.stringify(input)]);
  if (written.some((w) => w.recorded.length > 0)) eventsRecorded(em);
  const byOrd = new Array<WrittenRow | undefined>(rows.length);
  for (const { ord, ...row } of written) byOrd[ord] = row;
  return byOrd;
}

/**
 * Creates each contact or updates it: a new contact's state is `subscribed`, else `defaultSubscribed`; an
 * existing one keeps its state unless `subscribed` is given. Answers the rows in the order of `writes`.
 */
export async function upsertContactRows(em: EntityManager, writes: readonly ContactWriteRequest[]): Promise<WrittenRow[]> {
  const rows = writes.map(({ projectId, input, options }) => ({
    id: newId(),
    project_id: projectId,
    email: normalizeEmail(input.email),
    subscribed: input.subscribed ?? options.defaultSubscribed,
    set_subscribed: input.subscribed ?? null,
    data: input.data,
    event: options.event,
  }));
  return (await write(em, 'contact_upsert', UPSERT, rows)) as WrittenRow[];
}

/** Updates the contact `id` of the project if there is one; `flipData` is the data of the flip event it may emit. */
export async function updateContactRow(
  em: EntityManager,
  projectId: string,
  id: string,
  input: Partial<ContactInput>,
  flipData: Record<string, unknown>,
): Promise<WrittenRow | undefined> {
  const email = input.email === undefined ? null : normalizeEmail(input.email);
  const [row] = await write(em, 'contact_update', UPDATE, [
    { id, project_id: projectId, email, subscribed: null, set_subscribed: input.subscribed ?? null, data: input.data, flip_data: flipData },
  ]);
  return row;
}

/**
 * Sets the subscription state of these contacts of the project where it differs (each flip emits its event,
 * as PATCH /contacts/{id} does); answers the contacts changed, in the order asked for.
 */
export async function updateSubscriptionRows(
  em: EntityManager,
  projectId: string,
  ids: readonly string[],
  subscribed: boolean,
): Promise<WrittenRow[]> {
  const rows = [...new Set(ids)].map((id) => ({
    id,
    project_id: projectId,
    email: null,
    subscribed: null,
    set_subscribed: subscribed,
    changed_only: true,
  }));
  return (await write(em, 'contact_update', UPDATE, rows)).filter((row) => row !== undefined);
}
