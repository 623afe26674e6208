import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvents } from '../outbox/record';

/** api.md "Contact subscription": the service event a change of state emits. */
export type SubscriptionFlip = 'contact.subscribed' | 'contact.unsubscribed';

/** The flip from `was` to `now`; none when the state is unchanged or the contact is new. */
export function flipOf(was: boolean | null, now: boolean): SubscriptionFlip | null {
  if (was === null || was === now) return null;
  return now ? 'contact.subscribed' : 'contact.unsubscribed';
}

/** Records the flip in the caller's unit of work, so it commits with the change that caused it. */
export function recordFlip(
  em: EntityManager,
  contact: { id: string; projectId: string },
  flip: SubscriptionFlip,
  data: Record<string, unknown> = {},
): void {
  recordEvents(em, [{ projectId: contact.projectId, contactId: contact.id, name: flip, data }]);
}
