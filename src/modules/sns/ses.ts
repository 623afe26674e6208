import type { EntityManager } from '@mikro-orm/postgresql';
import { updateContact } from '../contacts/write';
import { recordEmailEvent, type EmailEventName } from '../emails/email-events';
import { advanceEmail, type LaterStatus } from '../emails/status';
import { addSuppressions } from '../suppressions/service';
import type { SesNotification, SnsResult } from './schemas';

/** The bounce types of docs/bounces.md; SES's "Undetermined" is not known to be final, so it counts as Transient. */
export type BounceType = 'Permanent' | 'Transient';

interface Outcome {
  status: LaterStatus;
  /** A permanent bounce, which the bounce rate counts (docs/security.md). */
  permanent?: boolean;
  event: EmailEventName;
  extra: Record<string, unknown>;
  at: string | undefined;
  /** Why the contact no longer gets marketing mail; none when it still may. */
  unsubscribe?: 'bounce' | 'complaint';
  /** The addresses the report names, when it names any. */
  recipients: string[];
}

const addressesOf = (list: Array<{ emailAddress: string }> | undefined) => (list ?? []).map((r) => r.emailAddress.trim().toLowerCase());

function outcomeOf(n: SesNotification): Outcome | null {
  switch (n.notificationType ?? n.eventType) {
    case 'Delivery':
      return { status: 'DELIVERED', event: 'email.delivery', extra: {}, at: n.delivery?.timestamp, recipients: [] };
    case 'Bounce': {
      const bounceType: BounceType = n.bounce?.bounceType === 'Permanent' ? 'Permanent' : 'Transient';
      return {
        status: 'BOUNCED',
        permanent: bounceType === 'Permanent',
        event: 'email.bounce',
        extra: { bounceType },
        at: n.bounce?.timestamp,
        recipients: addressesOf(n.bounce?.bouncedRecipients),
        ...(bounceType === 'Permanent' ? { unsubscribe: 'bounce' as const } : {}),
      };
    }
    case 'Complaint':
      return {
        status: 'COMPLAINED',
        event: 'email.complaint',
        extra: {},
        at: n.complaint?.timestamp,
        unsubscribe: 'complaint',
        recipients: addressesOf(n.complaint?.complainedRecipients),
      };
    default:
      return null;
  }
}

const OUR_MESSAGE_ID = /^<?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@[^>]+>?$/i;

/**
 * The email a notification is about. SES keeps the Message-ID header the service gave the message
 * (`<emailId@sender domain>`, see compose.ts) and reports it in mail.commonHeaders, or among mail.headers
 * when original headers are included; SES's own mail.messageId is never stored, so it is not used.
 */
export function emailIdOf(n: SesNotification): string | null {
  const header = n.mail.commonHeaders?.messageId ?? n.mail.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value;
  const match = header ? OUR_MESSAGE_ID.exec(header.trim()) : null;
  return match ? match[1]!.toLowerCase() : null;
}

const dateOf = (timestamp: string | undefined) => {
  const at = timestamp ? new Date(timestamp) : new Date();
  return Number.isNaN(at.getTime()) ? new Date() : at;
};

/** What applying a notification did; `judge` names the project whose reputation a recorded bounce or complaint changed. */
export interface AppliedNotification {
  result: SnsResult;
  emailId?: string;
  judge?: string;
}

/**
 * The addresses a permanent bounce or a complaint puts on the suppression list: those of the email's
 * recipients (To, Cc, Bcc) that the report names, else its To address.
 */
async function reportedAddresses(tx: EntityManager, emailId: string, named: string[]): Promise<string[]> {
  const [row] = await tx.execute<Array<{ recipients: string[] }>>(
    `select array["to_address"] || array(select r ->> 'email' from jsonb_array_elements("cc" || "bcc") r) as "recipients"
     from emails where "id" = ?`,
    [emailId],
  );
  const recipients = row?.recipients ?? [];
  const reported = recipients.filter((r) => named.includes(r));
  return reported.length ? reported : recipients.slice(0, 1);
}

/**
 * Applies a delivery, bounce or complaint to its email in one transaction: the status moves forward, the
 * service event is recorded, and a permanent bounce or a complaint puts the address on the suppression list
 * (BOUNCE or COMPLAINT) and unsubscribes the contact (through the contacts module, so contact.unsubscribed
 * carries `{ reason }`). SNS delivers at least once: a repeated notification finds the status's timestamp
 * set and changes nothing. A bounce or complaint recorded returns its project in `judge`: the caller runs the
 * reputation check once this has committed (docs/security.md).
 */
export async function applySesNotification(em: EntityManager, n: SesNotification): Promise<AppliedNotification> {
  const outcome = outcomeOf(n);
  if (!outcome) return { result: 'ignored' };
  const emailId = emailIdOf(n);
  if (!emailId) return { result: 'unmatched' };
  return em.transactional(async (tx) => {
    const email = await advanceEmail(tx, emailId, outcome.status, { at: dateOf(outcome.at), permanent: outcome.permanent });
    if (!email) return { result: 'unmatched' as const, emailId };
    const judge = outcome.status === 'BOUNCED' || outcome.status === 'COMPLAINED' ? { judge: email.project_id } : {};
    if (!email.first) return { result: 'duplicate' as const, emailId, ...judge };
    recordEmailEvent(tx, email, outcome.event, outcome.extra);
    if (outcome.unsubscribe) {
      const addresses = await reportedAddresses(tx, email.id, outcome.recipients);
      await addSuppressions(tx, email.project_id, addresses, outcome.unsubscribe === 'bounce' ? 'BOUNCE' : 'COMPLAINT', email.id);
    }
    if (outcome.unsubscribe && email.contact_id) {
      await updateContact(tx, email.project_id, email.contact_id, { subscribed: false }, { reason: outcome.unsubscribe });
    }
    return { result: 'recorded' as const, emailId, ...judge };
  });
}
