import { newId } from '../../src/db/columns';
import { Contact } from '../../src/modules/contacts/entities';
import { Event } from '../../src/modules/outbox/entities';
import type { TestStack } from './stack';

/**
 * Rows that modules without endpoints yet (contacts, sending) will write: written straight into the real
 * database, the way those modules store them.
 */
export async function seedContact(stack: TestStack, projectId: string, email = `c-${newId().slice(0, 8)}@example.test`) {
  const em = stack.deps.orm.em.fork();
  const contact = em.create(Contact, { id: newId(), projectId, email, subscribed: true, data: {} });
  await em.flush();
  return contact;
}

export async function seedEvents(
  stack: TestStack,
  projectId: string,
  contactId: string,
  events: Array<{ name: string; data?: Record<string, unknown>; at?: Date; count?: number }>,
): Promise<void> {
  const em = stack.deps.orm.em.fork();
  for (const e of events) {
    for (let i = 0; i < (e.count ?? 1); i++) {
      em.create(Event, {
        id: newId(),
        projectId,
        contactId,
        name: e.name,
        data: e.data ?? {},
        createdAt: e.at ?? new Date(),
        dispatchedAt: null,
      });
    }
  }
  await em.flush();
}

export const sql = <T = Record<string, unknown>>(stack: TestStack, query: string, params: unknown[] = []) =>
  stack.deps.orm.em.fork().execute<T[]>(query, params);
