import type { Answer } from '../../api/types';
import { Badge } from '../../ui/feedback';
import { dateTime } from '../../ui/format';

type Contact = Answer<'/contacts/{id}', 'get'>;

const WHY = { BOUNCE: 'bounced', COMPLAINT: 'complained' } as const;

/**
 * A contact's subscription, and its suppression where the API reports one (`suppression`, docs/bounces.md): a
 * suppressed address gets no marketing whatever its subscription says, so that is what the badge says.
 */
export function SubscriptionBadge({ contact }: { contact: Pick<Contact, 'subscribed' | 'suppression'> }) {
  const { suppression } = contact;
  if (suppression)
    return (
      <span title={`Suppressed since ${dateTime(suppression.since)}`}>
        <Badge tone="bad">suppressed: {WHY[suppression.reason]}</Badge>
      </span>
    );
  return contact.subscribed ? <Badge tone="good">subscribed</Badge> : <Badge tone="warn">unsubscribed</Badge>;
}
