import { TransactionPropagation, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { ApiError, notFound } from '../../http/errors';
import { fieldTypesOf, recordFieldTypes, toDataPatch, type DataInput, type DataPatch } from './custom-fields';
import { normalizeEmail } from './email';
import { Contact } from './entities';
import { flipOf, recordFlip, type SubscriptionFlip } from './subscription';

/**
 * Every change to a contact's email, subscription or data goes through here, so the custom-field rules and
 * the subscription state machine hold whichever endpoint (or workflow step, or import) makes it.
 */

export interface ContactInput {
  email: string;
  subscribed?: boolean;
  data?: DataInput;
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
}

// Rule 1 and 3 in SQL, so that concurrent writers patch each other's keys instead of overwriting them.
const PATCHED_DATA = `(c."data" || ?::jsonb) - array(select jsonb_array_elements_text(?::jsonb))`;
const patchParams = (patch: DataPatch) => [JSON.stringify(patch.set), JSON.stringify(patch.unset)];

// PostgreSQL 18 returns the row before the change as `old`: one round trip tells created from updated and
// whether the subscription flipped.
const UPSERT = `
insert into contacts as c ("id", "created_at", "updated_at", "project_id", "email", "subscribed", "data")
values (?, now(), now(), ?, ?, ?, ?::jsonb)
on conflict ("project_id", "email") do update set
  "subscribed" = coalesce(?::boolean, c."subscribed"),
  "data" = ${PATCHED_DATA},
  "updated_at" = now()
returning new.*, old."subscribed" as "was_subscribed"`;

const UPDATE = `
update contacts as c set
  "email" = coalesce(?, c."email"),
  "subscribed" = coalesce(?::boolean, c."subscribed"),
  "data" = ${PATCHED_DATA},
  "updated_at" = now()
where c."id" = ? and c."project_id" = ?
returning new.*, old."subscribed" as "was_subscribed"`;

type WrittenRow = Record<string, unknown> & { was_subscribed: boolean | null };

/** Joins the caller's transaction when there is one, so their own writes commit with the contact's. */
const inTransaction = <T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>) =>
  em.transactional(work, { propagation: TransactionPropagation.REQUIRED });

function finish(tx: EntityManager, row: WrittenRow, patch: DataPatch): ContactWrite {
  const { was_subscribed: was, ...columns } = row;
  const contact = tx.map(Contact, columns);
  const flip = flipOf(was, contact.subscribed);
  if (flip) recordFlip(tx, contact, flip);
  return { contact, variables: patch.variables, flip };
}

/**
 * Creates the contact with this email or updates it. A new contact's state is `subscribed`, else
 * `defaultSubscribed`; an existing one keeps its state unless `subscribed` is given.
 */
export async function upsertContact(
  em: EntityManager,
  projectId: string,
  input: ContactInput,
  options: { defaultSubscribed: boolean },
): Promise<UpsertResult> {
  const patch = toDataPatch(input.data);
  return inTransaction(em, async (tx) => {
    await recordFieldTypes(tx, projectId, fieldTypesOf(patch.set));
    const [row] = await tx.execute<WrittenRow[]>(UPSERT, [
      newId(), projectId, normalizeEmail(input.email), input.subscribed ?? options.defaultSubscribed, JSON.stringify(patch.set),
      input.subscribed ?? null, ...patchParams(patch),
    ]);
    return { ...finish(tx, row!, patch), isNew: row!.was_subscribed === null };
  });
}

/** PATCH semantics: only what is given changes. 404 when the contact is not in the project, 409 on a taken email. */
export async function updateContact(
  em: EntityManager,
  projectId: string,
  id: string,
  input: Partial<ContactInput>,
): Promise<ContactWrite> {
  const patch = toDataPatch(input.data);
  try {
    return await inTransaction(em, async (tx) => {
      await recordFieldTypes(tx, projectId, fieldTypesOf(patch.set));
      const [row] = await tx.execute<WrittenRow[]>(UPDATE, [
        input.email === undefined ? null : normalizeEmail(input.email), input.subscribed ?? null, ...patchParams(patch), id, projectId,
      ]);
      if (!row) throw notFound('Contact');
      return finish(tx, row, patch);
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new ApiError(409, 'CONFLICT', 'Another contact in this project already has this email', {
        details: { email: input.email },
      });
    }
    throw err;
  }
}
