import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { Event } from './entities';

export interface NewEvent {
  projectId: string;
  contactId: string;
  name: string;
  data?: Record<string, unknown>;
}

/**
 * Records an event in the caller's unit of work (not flushed here), so it commits atomically with the
 * contact change that caused it. Undispatched rows are picked up by the events outbox.
 */
export function recordEvent(em: EntityManager, event: NewEvent): Event {
  return em.create(Event, {
    id: newId(),
    createdAt: new Date(),
    projectId: event.projectId,
    contactId: event.contactId,
    name: event.name,
    data: event.data ?? {},
    dispatchedAt: null,
  });
}
