import type { EntityManager } from '@mikro-orm/postgresql';
import { isUniqueViolation } from '../../db/prepared';
import { ApiError, notFound } from '../../http/errors';
import { toDataPatch } from './custom-fields';
import { Contact } from './entities';
import type { SubscriptionFlip } from './subscription';
import {
  contactKey,
  updateContactRow,
  upsertContactRows,
  type ContactInput,
  type ContactWriteRequest,
  type UpsertOptions,
  type WrittenRow,
} from './write-rows';

/**
 * Every change to a contact's email, subscription or data goes through here or write-batch.ts, both over the
 * statements of write-rows.ts, so the custom-field rules and the subscription state machine hold whichever
 * endpoint (or workflow step, or import) makes it. /v1/track writes concurrent tracks with one statement
 * (src/modules/events/track-batch.ts) and maps each row with `upsertResultOf` (docs/contacts.md).
 */

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

function finish(em: EntityManager, row: WrittenRow, variables: Record<string, unknown>) {
  const { was_subscribed: _was, recorded, ...columns } = row;
  const events = recorded.map((e) => ({ id: e.id, name: e.name, createdAt: new Date(e.createdAt) }));
  const flip = (events.find((e) => e.name === 'contact.subscribed' || e.name === 'contact.unsubscribed')?.name ??
    null) as SubscriptionFlip | null;
  return { contact: em.map(Contact, columns), variables, flip, events };
}

/** What `upsertContact` answers for a row its statement (or a batch of them) wrote. */
export function upsertResultOf(em: EntityManager, row: WrittenRow, input: ContactInput, options: UpsertOptions): UpsertResult {
  const { events, ...write } = finish(em, row, toDataPatch(input.data).variables);
  const event = options.event ? (events.find((e) => e.name === options.event!.name) ?? null) : null;
  return { ...write, isNew: row.was_subscribed === null, event };
}

/**
 * Creates the contact with this email or updates it. A new contact's state is `subscribed`, else
 * `defaultSubscribed`; an existing one keeps its state unless `subscribed` is given. `event` is recorded for
 * the contact in the same statement (/v1/track).
 */
export async function upsertContact(
  em: EntityManager,
  projectId: string,
  input: ContactInput,
  options: UpsertOptions,
): Promise<UpsertResult> {
  const [result] = await upsertContacts(em, [{ projectId, input, options }]);
  return result!;
}

/**
 * `upsertContact` for each write, in order, in as few statements as it can: a statement writes a contact once,
 * so the first write of every contact goes in the first statement, a second write of one in the next, and so
 * on; the common case (every contact once) is one statement. Answers the results in the order of `writes`.
 */
export async function upsertContacts(em: EntityManager, writes: readonly ContactWriteRequest[]): Promise<UpsertResult[]> {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  writes.forEach((write, i) => {
    const key = contactKey(write);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(i);
  });
  const results = new Array<UpsertResult>(writes.length);
  for (const round of rounds) {
    const rows = await upsertContactRows(
      em,
      round.map((i) => writes[i]!),
    );
    round.forEach((i, at) => (results[i] = upsertResultOf(em, rows[at]!, writes[i]!.input, writes[i]!.options)));
  }
  return results;
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
  try {
    const row = await updateContactRow(em, projectId, id, input, flipData);
    if (!row) throw notFound('Contact');
    const { events: _events, ...write } = finish(em, row, toDataPatch(input.data).variables);
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
