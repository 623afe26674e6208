import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { Contact } from './entities';
import type { ContactResponse, ContactView } from './schemas';
import { suppressionsOf } from './suppression';

export const serializeContact = (c: Contact): z.infer<typeof ContactResponse> => ({
  id: c.id,
  email: c.email,
  subscribed: c.subscribed,
  data: c.data,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** Contacts as the list and the contact's page show them: each with its suppression (one query for all). */
export async function contactViews(em: EntityManager, projectId: string, contacts: Contact[]): Promise<Array<z.infer<typeof ContactView>>> {
  const suppressions = await suppressionsOf(
    em,
    projectId,
    contacts.map((c) => c.id),
  );
  return contacts.map((c) => {
    const s = suppressions.get(c.id);
    return { ...serializeContact(c), suppression: s ? { reason: s.reason, since: s.since.toISOString() } : null };
  });
}
