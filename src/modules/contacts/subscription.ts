/** docs/contacts.md "Subscription": the service event a change of state emits. */
export type SubscriptionFlip = 'contact.subscribed' | 'contact.unsubscribed';

/** The flip from `was` to `now`; none when the state is unchanged or the contact is new. */
export function flipOf(was: boolean | null, now: boolean): SubscriptionFlip | null {
  if (was === null || was === now) return null;
  return now ? 'contact.subscribed' : 'contact.unsubscribed';
}
