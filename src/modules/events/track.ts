import type { EntityManager } from '@mikro-orm/postgresql';
import { toDataPatch, type DataInput } from '../contacts/custom-fields';
import type { Contact } from '../contacts/entities';
import { upsertContact } from '../contacts/write';
import type { Event } from './entities';
import { recordEvent } from './record';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: DataInput;
}

/**
 * `/v1/track`: upserts the contact (new ones subscribed unless told otherwise) and records the event, in
 * one transaction with any subscription flip. The event carries the data as sent, request-only values
 * included, so that the workflows it triggers can use them.
 */
export async function trackEvent(em: EntityManager, projectId: string, input: TrackInput): Promise<{ contact: Contact; event: Event }> {
  return em.transactional(async (tx) => {
    const { contact } = await upsertContact(tx, projectId, input, { defaultSubscribed: true });
    const { set, variables } = toDataPatch(input.data);
    const event = recordEvent(tx, { projectId, contactId: contact.id, name: input.event, data: { ...set, ...variables } });
    return { contact, event };
  });
}
