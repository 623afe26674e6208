import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail } from './email';
import { flipOf, type SubscriptionFlip } from './subscription';
import { updateSubscriptionRows, upsertContactRows, type ContactInput } from './write-rows';

/**
 * Contact writes of jobs that change hundreds of contacts at once (CSV import, bulk operations): one
 * statement per batch instead of one per contact, under the same rules: the statements of write-rows.ts.
 */

export interface BatchWrite {
  id: string;
  email: string;
  isNew: boolean;
  flip: SubscriptionFlip | null;
}

const inTransaction = <T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>) =>
  em.transactional(work, { propagation: TransactionPropagation.REQUIRED });

/** upsertContact for many contacts of one project, in the caller's transaction when there is one. */
export async function upsertContacts(
  em: EntityManager,
  projectId: string,
  inputs: ContactInput[],
  options: { defaultSubscribed: boolean },
): Promise<BatchWrite[]> {
  if (inputs.length === 0) return [];
  if (new Set(inputs.map((i) => normalizeEmail(i.email))).size !== inputs.length)
    throw new Error('upsertContacts: a batch must name each email once');
  const written = await upsertContactRows(
    em,
    inputs.map((input) => ({ projectId, input, options })),
  );
  return written.map((w) => ({ id: w.id, email: w.email, isNew: w.was_subscribed === null, flip: flipOf(w.was_subscribed, w.subscribed) }));
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
    const changed = await updateSubscriptionRows(tx, projectId, ids, subscribed);
    const present = await tx.execute<Array<{ id: string }>>(`select "id" from contacts where "project_id" = ? and "id" in ${IDS}`, [
      projectId,
      JSON.stringify(ids),
    ]);
    return outcomeOf(
      ids,
      changed.map((r) => r.id),
      present.map((r) => r.id),
    );
  });
}

/** Deletes these contacts with their events and memberships (foreign keys cascade), as DELETE /contacts/{id} does. */
export async function deleteContacts(em: EntityManager, projectId: string, ids: string[]): Promise<BatchOutcome> {
  const deleted = await em.execute<Array<{ id: string }>>(`delete from contacts where "project_id" = ? and "id" in ${IDS} returning "id"`, [
    projectId,
    JSON.stringify(ids),
  ]);
  const gone = deleted.map((r) => r.id);
  return outcomeOf(ids, gone, gone);
}
