import type { TrackingMode } from '../projects/entities';
import { withListUnsubscribe } from '../links/list-unsubscribe';
import { trackHtml } from '../links/tracking';
import type { OutgoingEmail } from './outgoing';
import type { LinkSettings } from '../links/subscription';

/** What decides the additions to an email at sending time. */
export interface SendingContext {
  contactId: string | null;
  marketing: boolean;
  /** The topic the email is about: its unsubscribe link leaves that topic only (docs/consent.md). */
  topicId: string | null;
  /** The project's setting when the email is sent, not when it was accepted. */
  trackingMode: TrackingMode;
}

const isTracked = ({ trackingMode, marketing }: SendingContext) =>
  trackingMode === 'ENABLED' || (trackingMode === 'MARKETING_ONLY' && marketing);

/**
 * The email as it is handed to SMTP: with the open pixel and click redirects when the project tracks it, and
 * with List-Unsubscribe when it is MARKETING mail to a contact.
 */
export function decorate(config: LinkSettings, email: OutgoingEmail, context: SendingContext): OutgoingEmail {
  return {
    ...email,
    html: isTracked(context) ? trackHtml(config, email.id, email.html) : email.html,
    headers:
      context.marketing && context.contactId
        ? withListUnsubscribe(config, context.contactId, context.topicId, email.headers ?? {})
        : email.headers,
  };
}
