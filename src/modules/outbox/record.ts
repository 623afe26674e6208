import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyAfterCommit } from '../../db/commit-notifier';
import { newId } from '../../db/columns';
import { OUTBOX_CHANNEL } from './channel';
import { Event } from './entities';

/**
 * The only ways an event row is written: every one must wake the outbox dispatcher once its transaction
 * commits, so the insert and its notification are kept together here and no other module names the channel.
 */

export interface NewEvent {
  projectId: string;
  contactId: string;
  name: string;
  data?: Record<string, unknown>;
}

/**
 * Records events in the caller's unit of work (not flushed here), in order, so they commit atomically with
 * the change that caused them; the flush's commit notifies the outbox (src/db/orm.ts).
 */
export function recordEvents(em: EntityManager, events: readonly NewEvent[]): void {
  for (const event of events) {
    em.create(Event, {
      id: newId(),
      createdAt: new Date(),
      projectId: event.projectId,
      contactId: event.contactId,
      name: event.name,
      data: event.data ?? {},
    });
  }
}

/**
 * The head of an insert of event rows inside a larger statement, for writers that record events in the same
 * statement as the change that caused them (one round trip). Each such writer calls `eventsRecorded` when
 * its statement inserted rows.
 */
export const INSERT_EVENTS = `insert into events ("id", "created_at", "project_id", "contact_id", "name", "data")`;

/** Notifies the outbox once `em`'s work commits (at once outside a transaction): its raw SQL inserted events. */
export function eventsRecorded(em: EntityManager): void {
  notifyAfterCommit(em, OUTBOX_CHANNEL);
}
