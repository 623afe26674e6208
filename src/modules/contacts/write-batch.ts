import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { fieldTypesOf, recordFieldTypes, toDataPatch } from './custom-fields';
import { normalizeEmail } from './email';
import type { FieldType } from './entities';
import { flipOf, recordFlip, type SubscriptionFlip } from './subscription';
import type { ContactInput } from './write';

/**
 * Set-based counterparts of write.ts for jobs that change hundreds of contacts at once (CSV import, bulk
 * operations): one statement per batch instead of one per contact, under the same rules — toDataPatch and
 * recordFieldTypes for custom fields, flipOf and recordFlip for the subscription state machine.
 */

export interface BatchWrite {
  id: string;
  email: string;
  isNew: boolean;
  flip: SubscriptionFlip | null;
}

const inTransaction = <T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>) =>
  em.transactional(work, { propagation: TransactionPropagation.REQUIRED });

// MERGE sees each source row once, so a batch names each email at most once. A contact inserted by another
// writer after the statement's snapshot makes it fail with a unique violation; the caller's retry then
// finds the contact and updates it.
const MERGE = `
merge into contacts as c
using (select * from jsonb_to_recordset(?::jsonb) as r("id" uuid, "email" text, "subscribed" boolean, "set" jsonb, "unset" jsonb)) as x
on c."project_id" = ? and c."email" = x."email"
when matched then update set
  "subscribed" = coalesce(x."subscribed", c."subscribed"),
  "data" = (c."data" || x."set") - array(select jsonb_array_elements_text(x."unset")),
  "updated_at" = now()
when not matched then insert ("id", "created_at", "updated_at", "project_id", "email", "subscribed", "data")
  values (x."id", now(), now(), ?, x."email", coalesce(x."subscribed", ?), x."set")
returning new."id", new."email", new."subscribed", old."subscribed" as "was_subscribed"`;

/** Rule 9 over a batch: the first row that sets a key decides its type, as if the rows came one by one. */
function firstTypes(sets: Array<Record<string, unknown>>): Map<string, FieldType> {
  const types = new Map<string, FieldType>();
  for (const set of sets) for (const [key, type] of fieldTypesOf(set)) if (!types.has(key)) types.set(key, type);
  return types;
}

/** upsertContact for many contacts of one project, in the caller's transaction when there is one. */
export async function upsertContacts(
  em: EntityManager,
  projectId: string,
  inputs: ContactInput[],
  options: { defaultSubscribed: boolean },
): Promise<BatchWrite[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => {
    const patch = toDataPatch(input.data);
    return { id: newId(), email: normalizeEmail(input.email), subscribed: input.subscribed ?? null, set: patch.set, unset: patch.unset };
  });
  if (new Set(rows.map((r) => r.email)).size !== rows.length) throw new Error('upsertContacts: a batch must name each email once');
  return inTransaction(em, async (tx) => {
    await recordFieldTypes(tx, projectId, firstTypes(rows.map((r) => r.set)));
    const written = await tx.execute<Array<{ id: string; email: string; subscribed: boolean; was_subscribed: boolean | null }>>(MERGE, [
      JSON.stringify(rows), projectId, projectId, options.defaultSubscribed,
    ]);
    return written.map((w) => {
      const flip = flipOf(w.was_subscribed, w.subscribed);
      if (flip) recordFlip(tx, { id: w.id, projectId }, flip);
      return { id: w.id, email: w.email, isNew: w.was_subscribed === null, flip };
    });
  });
}

const IDS = `(select x::uuid from jsonb_array_elements_text(?::jsonb) x)`;

export interface BatchOutcome {
  /** Contacts the call changed. */
  changed: string[];
  /** Contacts of the project already in the wanted state. */
  unchanged: string[];
  /** IDs that are not contacts of the project; nothing of theirs was touched. */
  missing: string[];
}

function outcomeOf(ids: string[], changed: string[], present: string[]): BatchOutcome {
  const changedSet = new Set(changed);
  const presentSet = new Set(present);
  return {
    changed,
    unchanged: present.filter((id) => !changedSet.has(id)),
    missing: ids.filter((id) => !presentSet.has(id)),
  };
}

/** Sets the subscription state of these contacts; each flip emits its event, as PATCH /contacts/{id} does. */
export async function setSubscriptions(em: EntityManager, projectId: string, ids: string[], subscribed: boolean): Promise<BatchOutcome> {
  return inTransaction(em, async (tx) => {
    const changed = await tx.execute<Array<{ id: string; was: boolean }>>(
      `update contacts set "subscribed" = ?, "updated_at" = now()
       where "project_id" = ? and "id" in ${IDS} and "subscribed" <> ? returning "id", old."subscribed" as "was"`,
      [subscribed, projectId, JSON.stringify(ids), subscribed],
    );
    // UPDATE returns rows in storage order; the events follow the order the contacts were asked for.
    const position = new Map(ids.map((id, i) => [id, i]));
    changed.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    for (const row of changed) {
      const flip = flipOf(row.was, subscribed);
      if (flip) recordFlip(tx, { id: row.id, projectId }, flip);
    }
    const present = await tx.execute<Array<{ id: string }>>(`select "id" from contacts where "project_id" = ? and "id" in ${IDS}`, [
      projectId, JSON.stringify(ids),
    ]);
    return outcomeOf(ids, changed.map((r) => r.id), present.map((r) => r.id));
  });
}

/** Deletes these contacts with their events and memberships (foreign keys cascade), as DELETE /contacts/{id} does. */
export async function deleteContacts(em: EntityManager, projectId: string, ids: string[]): Promise<BatchOutcome> {
  const deleted = await em.execute<Array<{ id: string }>>(`delete from contacts where "project_id" = ? and "id" in ${IDS} returning "id"`, [
    projectId, JSON.stringify(ids),
  ]);
  const gone = deleted.map((r) => r.id);
  return outcomeOf(ids, gone, gone);
}
