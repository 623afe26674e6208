import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { executePrepared, isUniqueViolation } from '../../db/prepared';
import { ApiError, notFound } from '../../http/errors';
import { INSERT_EVENTS, eventsRecorded } from '../outbox/record';
import { fieldTypesOf, toDataPatch, type DataInput, type DataPatch } from './custom-fields';
import { normalizeEmail } from './email';
import { Contact, type FieldType } from './entities';
import type { SubscriptionFlip } from './subscription';

/**
 * Every change to a contact's email, subscription or data goes through here, so the custom-field rules and
 * the subscription state machine hold whichever endpoint (or workflow step, or import) makes it.
 *
 * Each write is one SQL statement: the contact row, the types its new keys infer (rule 9), the
 * contact.subscribed/unsubscribed event of a flip and an optional event to record with it. One statement is
 * atomic on its own and joins the caller's transaction when there is one; and it is one round trip of a
 * prepared statement. /v1/track writes concurrent tracks with one statement of write-many.ts instead, and
 * this one only for a write its batch refused (docs/contacts.md).
 */

export interface ContactInput {
  email: string;
  subscribed?: boolean;
  data?: DataInput;
}

export interface RecordedEvent {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ContactWrite {
  contact: Contact;
  /** The request's `{ value, persistent: false }` values, for templates; never stored. */
  variables: Record<string, unknown>;
  /** The service event this write emitted, if it changed the subscription state. */
  flip: SubscriptionFlip | null;
}

export interface UpsertResult extends ContactWrite {
  isNew: boolean;
  /** The event asked for with `options.event`. */
  event: RecordedEvent | null;
}

// Rules 1 and 3 in SQL, so that concurrent writers patch each other's keys instead of overwriting them.
const PATCHED_DATA = `(c."data" || ?::jsonb) - array(select jsonb_array_elements_text(?::jsonb))`;

// The parts that follow the CTE `written` (the contact row, with `was_subscribed` from before the change).
// They read `written`, so they run after it, and only when a row was written.
const AFTER_WRITE = `
fields as (
  insert into contact_fields ("project_id", "key", "type", "created_at")
  select w."project_id", f.key, f.type, now() from written w, jsonb_to_recordset(?::jsonb) as f(key text, type text)
  on conflict ("project_id", "key") do nothing),
recorded as (
  ${INSERT_EVENTS}
  select gen_random_uuid(), now(), w."project_id", w."id", e.name, e.data
  from written w cross join lateral (
    select 1 as ord, case when w."subscribed" then 'contact.subscribed' else 'contact.unsubscribed' end as name, ?::jsonb as data
    where w."was_subscribed" is not null and w."was_subscribed" <> w."subscribed"
    union all
    select 2, ?::text, ?::jsonb where ?::text is not null
  ) e order by e.ord
  returning "id", "name", "created_at")
select w.*, (select coalesce(jsonb_agg(jsonb_build_object('id', "id", 'name', "name", 'createdAt', "created_at")), '[]') from recorded) as "recorded"
from written w`;

// Named columns, not `new.*`: a prepared statement's result must keep its shape when a column is added.
const RETURNING = `returning ${['id', 'created_at', 'updated_at', 'project_id', 'email', 'subscribed', 'data'].map((c) => `new."${c}"`).join(', ')},
    old."subscribed" as "was_subscribed"`;

// PostgreSQL 18 returns the row as it was before the change as `old` (null for an insert).
const UPSERT = `
with written as (
  insert into contacts as c ("id", "created_at", "updated_at", "project_id", "email", "subscribed", "data")
  values (?, now(), now(), ?, ?, ?, ?::jsonb)
  on conflict ("project_id", "email") do update set
    "subscribed" = coalesce(?::boolean, c."subscribed"),
    "data" = ${PATCHED_DATA},
    "updated_at" = now()
  ${RETURNING}),
${AFTER_WRITE}`;

const UPDATE = `
with written as (
  update contacts as c set
    "email" = coalesce(?, c."email"),
    "subscribed" = coalesce(?::boolean, c."subscribed"),
    "data" = ${PATCHED_DATA},
    "updated_at" = now()
  where c."id" = ? and c."project_id" = ?
  ${RETURNING}),
${AFTER_WRITE}`;

/** A written contact's columns as the statements return them. */
export interface WrittenRow extends Record<string, unknown> {
  was_subscribed: boolean | null;
  recorded: Array<{ id: string; name: string; createdAt: string }>;
}

export interface UpsertOptions {
  defaultSubscribed: boolean;
  event?: { name: string; data: Record<string, unknown> };
}

const patchParams = (patch: DataPatch) => [JSON.stringify(patch.set), JSON.stringify(patch.unset)];

/** Rule 9's inferred types of a patch, as the statements take them. */
export const fieldTypeRows = (patch: DataPatch): Array<{ key: string; type: FieldType }> =>
  [...fieldTypesOf(patch.set)].map(([key, type]) => ({ key, type }));

function afterWriteParams(patch: DataPatch, flipData: Record<string, unknown>, event?: { name: string; data: Record<string, unknown> }): unknown[] {
  return [JSON.stringify(fieldTypeRows(patch)), JSON.stringify(flipData), event?.name ?? null, JSON.stringify(event?.data ?? {}), event?.name ?? null];
}

function finish(em: EntityManager, row: WrittenRow, patch: DataPatch) {
  const { was_subscribed: _was, recorded, ...columns } = row;
  const events = recorded.map((e) => ({ id: e.id, name: e.name, createdAt: new Date(e.createdAt) }));
  if (events.length) eventsRecorded(em);
  const flip = (events.find((e) => e.name === 'contact.subscribed' || e.name === 'contact.unsubscribed')?.name ?? null) as SubscriptionFlip | null;
  return { contact: em.map(Contact, columns), variables: patch.variables, flip, events };
}

/** The upsert statement alone, for writers that map the row themselves (src/modules/events/track-batch.ts). */
export async function writeContactRow(em: EntityManager, projectId: string, input: ContactInput, options: UpsertOptions): Promise<WrittenRow> {
  const patch = toDataPatch(input.data);
  const [row] = await executePrepared<WrittenRow>(em, 'contact_upsert', UPSERT, [
    newId(), projectId, normalizeEmail(input.email), input.subscribed ?? options.defaultSubscribed, JSON.stringify(patch.set),
    input.subscribed ?? null, ...patchParams(patch),
    ...afterWriteParams(patch, {}, options.event),
  ]);
  return row!;
}

/** What `upsertContact` answers for a row its statement (or a batch of them) wrote; notifies the outbox on `em`'s commit. */
export function upsertResultOf(em: EntityManager, row: WrittenRow, input: ContactInput, options: UpsertOptions): UpsertResult {
  const { events, ...write } = finish(em, row, toDataPatch(input.data));
  const event = options.event ? (events.find((e) => e.name === options.event!.name) ?? null) : null;
  return { ...write, isNew: row.was_subscribed === null, event };
}

/**
 * Creates the contact with this email or updates it. A new contact's state is `subscribed`, else
 * `defaultSubscribed`; an existing one keeps its state unless `subscribed` is given. `event` is recorded for
 * the contact in the same statement (/v1/track).
 */
export async function upsertContact(em: EntityManager, projectId: string, input: ContactInput, options: UpsertOptions): Promise<UpsertResult> {
  return upsertResultOf(em, await writeContactRow(em, projectId, input, options), input, options);
}

/**
 * PATCH semantics: only what is given changes. 404 when the contact is not in the project, 409 on a taken
 * email. `flipData` is the data of the subscription event the update may emit, e.g. why the service flipped it.
 */
export async function updateContact(
  em: EntityManager,
  projectId: string,
  id: string,
  input: Partial<ContactInput>,
  flipData: Record<string, unknown> = {},
): Promise<ContactWrite> {
  const patch = toDataPatch(input.data);
  try {
    const [row] = await executePrepared<WrittenRow>(em, 'contact_update', UPDATE, [
      input.email === undefined ? null : normalizeEmail(input.email), input.subscribed ?? null, ...patchParams(patch), id, projectId,
      ...afterWriteParams(patch, flipData),
    ]);
    if (!row) throw notFound('Contact');
    const { events: _events, ...write } = finish(em, row, patch);
    return write;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ApiError(409, 'CONFLICT', 'Another contact in this project already has this email', {
        details: { email: input.email },
      });
    }
    throw err;
  }
}
