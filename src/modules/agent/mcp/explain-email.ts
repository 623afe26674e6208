import { z } from 'zod';
import { ApiCallError, type AgentApi } from '../api';
import type { ComposedSpec } from './composed-tool';

interface Item {
  id: string;
  type: string;
  occurredAt: string;
  contact: { id: string; email: string } | null;
  email: { id: string; subject: string | null; from: string | null; sourceType: string | null } | null;
  details: { error?: string; bounceType?: string; link?: string; reason?: string };
}
interface Page<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
}
interface Contact {
  id: string;
  email: string;
  subscribed: boolean;
}
/** The parts of GET /v1/emails/{id} the verdict reads. */
interface EmailRecord {
  id: string;
  status: string;
  scheduledAt: string | null;
  sentAt: string | null;
  contact: { id: string; email: string } | null;
}
interface Event {
  name: string;
  data: Record<string, unknown>;
  createdAt: string;
}

const Input = z
  .object({
    emailId: z.uuid().optional().describe("The email's id: what /v1/send answered (data.emails[].email), or an activity item's email.id"),
    to: z.email().optional().describe("The recipient's address: finds the contact, and its latest email when emailId is not given"),
  })
  .refine((input) => input.emailId || input.to, { message: 'Give emailId, to, or both', path: ['emailId'] });

/** Pages of the whole feed read, at 100 items each, to find an email when no recipient narrows it to a contact. */
const SCAN_PAGES = 5;

async function findContact(api: AgentApi, to: string): Promise<Contact | undefined> {
  const page = await api.data<Page<Contact>>('get', '/contacts', { search: to, limit: 100 });
  return page.data.find((c) => c.email.toLowerCase() === to.toLowerCase());
}

async function activityOf(api: AgentApi, contact: Contact | undefined, emailId: string | undefined): Promise<Item[]> {
  if (contact) return (await api.data<Page<Item>>('get', '/activity', { contactId: contact.id, limit: 100 })).data;
  const found: Item[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < SCAN_PAGES; i++) {
    const page: Page<Item> = await api.data<Page<Item>>('get', '/activity', { limit: 100, ...(cursor ? { cursor } : {}) });
    found.push(...page.data.filter((item) => item.email?.id === emailId));
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
  return found;
}

/** The email's record, or null when the project has no email of that id. */
async function recordOf(api: AgentApi, id: string): Promise<EmailRecord | null> {
  try {
    return (await api.data<{ data: EmailRecord }>('get', '/v1/emails/{id}', { id })).data;
  } catch (err) {
    if (err instanceof ApiCallError && err.failure.statusCode === 404) return null;
    throw err;
  }
}

const at = (items: Item[], type: string) => items.find((i) => i.type === type);

interface Verdict {
  verdict: string;
  explanation: string[];
}

/**
 * What the email's record says when its activity is silent: an email that has not left yet (SCHEDULED,
 * PENDING) or never will (CANCELLED) records no activity.
 */
function fromRecord(record: EmailRecord | null, id: string | undefined): Verdict {
  if (!record)
    return {
      verdict: 'NOT_FOUND',
      explanation: [id ? 'No email of this project has that id.' : 'No email to this address has any activity.'],
    };
  if (record.status === 'SCHEDULED')
    return {
      verdict: 'SCHEDULED',
      explanation: [
        `Not sent yet: it is scheduled for ${record.scheduledAt ?? 'a later time'} and waits on a durable Temporal timer, then leaves within seconds.`,
        `PATCH /v1/emails/${record.id} with {sendAt} moves it (a past time sends it now); POST /v1/emails/${record.id}/cancel cancels it (docs/sending.md).`,
      ],
    };
  if (record.status === 'CANCELLED')
    return {
      verdict: 'CANCELLED',
      explanation: [
        `Not sent: it was cancelled while scheduled${record.scheduledAt ? ` for ${record.scheduledAt}` : ''}, and will never be sent.`,
      ],
    };
  if (record.status === 'PENDING')
    return {
      verdict: 'QUEUED',
      explanation: [
        'Not sent yet: it waits in the delivery queue, for the send rate, a retry after the mail server refused it for a while, or a held project (docs/delivery.md).',
      ],
    };
  return {
    verdict: record.status,
    explanation: [
      `Its status is ${record.status}${record.sentAt ? `, sent ${record.sentAt}` : ''}; the activity read holds nothing of it.`,
    ],
  };
}

/** What the activity of one email says happened to it, in words, most telling first; its record when the activity is silent. */
function verdictOf(items: Item[], record: EmailRecord | null, id: string | undefined): Verdict {
  const failed = at(items, 'FAILED');
  const suppressed = at(items, 'SUPPRESSED');
  const bounced = at(items, 'BOUNCED');
  const complained = at(items, 'COMPLAINED');
  const delivered = at(items, 'DELIVERED');
  const sent = at(items, 'SENT');
  if (failed)
    return {
      verdict: 'FAILED',
      explanation: [`Not sent: ${failed.details.error ?? 'the delivery failed'} (${failed.occurredAt}).`],
    };
  if (suppressed)
    return {
      verdict: 'SUPPRESSED',
      explanation: [
        `Not sent: the address is on the project's suppression list (${suppressed.details.reason ?? 'unknown reason'}), so it was held back (${suppressed.occurredAt}).`,
        'GET /suppressions/{email} tells why and since when; DELETE /suppressions/{email} lets mail go to it again (docs/suppressions.md).',
      ],
    };
  if (bounced) {
    const kind = bounced.details.bounceType ?? 'unknown';
    return {
      verdict: 'BOUNCED',
      explanation: [
        `The receiving server refused it (${kind} bounce, ${bounced.occurredAt}).`,
        kind === 'Permanent'
          ? 'A permanent bounce means the mailbox does not exist or refuses mail for good; Postwire unsubscribes the contact and puts the address on the suppression list (BOUNCE), so later email to it is held back.'
          : 'A transient bounce is temporary (a full mailbox, a server down); a later email may arrive.',
      ],
    };
  }
  if (complained)
    return {
      verdict: 'COMPLAINED',
      explanation: [`Delivered, then marked as spam by the recipient (${complained.occurredAt}): the contact was unsubscribed.`],
    };
  if (delivered) {
    const read = ['CLICKED', 'OPENED'].map((t) => at(items, t)).find(Boolean);
    return {
      verdict: 'DELIVERED',
      explanation: [
        `The receiving server accepted it (${delivered.occurredAt}).`,
        read
          ? `The recipient ${read.type === 'CLICKED' ? 'clicked a link in' : 'opened'} it (${read.occurredAt}).`
          : 'Not opened yet, as far as tracking can tell; if the recipient cannot find it, look in their spam folder or their provider filters.',
      ],
    };
  }
  if (sent) return { verdict: 'SENT', explanation: [`Handed to the mail server (${sent.occurredAt}); no delivery report yet.`] };
  return fromRecord(record, id);
}

function contactNotes(contact: Contact | undefined, events: Event[]): string[] {
  if (!contact) return [];
  if (contact.subscribed) return [`The contact ${contact.email} is subscribed.`];
  const last = events.find((e) => e.name === 'contact.unsubscribed');
  const reason = last?.data.reason ? ` (${String(last.data.reason as string)})` : '';
  return [`The contact ${contact.email} is unsubscribed${reason}: campaigns and marketing email leave them out.`];
}

async function explain(api: AgentApi, { emailId, to }: z.output<typeof Input>) {
  let contact = to ? await findContact(api, to) : undefined;
  // The record names the email's contact, whose feed holds its activity however old it is.
  let record = emailId ? await recordOf(api, emailId) : null;
  if (!contact && record?.contact) contact = await api.data<Contact>('get', '/contacts/{id}', { id: record.contact.id });
  const activity = await activityOf(api, contact, emailId);
  const id = emailId ?? activity.find((i) => i.email)?.email?.id;
  if (!emailId && id) record = await recordOf(api, id);
  const items = activity.filter((i) => i.email?.id === id);
  const contactRef = contact ?? items.find((i) => i.contact)?.contact ?? undefined;
  if (!contact && contactRef) contact = await api.data<Contact>('get', '/contacts/{id}', { id: contactRef.id });
  const events = contact
    ? (await api.data<Page<Event>>('get', '/events/contact/{contactId}', { contactId: contact.id, limit: 50 })).data
    : [];
  const { verdict, explanation } = verdictOf(items, record, id);
  if (to && !contact && items.length === 0) explanation.push(`No contact of the project has the address ${to}.`);
  return {
    emailId: id ?? null,
    verdict,
    status: record?.status ?? null,
    scheduledAt: record?.scheduledAt ?? null,
    explanation: [...explanation, ...contactNotes(contact, events)],
    email: items.find((i) => i.email)?.email ?? null,
    activity: items.map(({ type, occurredAt, details }) => ({ type, occurredAt, details })),
    contact: contact ? { id: contact.id, email: contact.email, subscribed: contact.subscribed } : null,
    contactEvents: events.slice(0, 20).map(({ name, data, createdAt }) => ({ name, data, createdAt })),
  };
}

export const explainEmail: ComposedSpec<typeof Input> = {
  name: 'explain_email',
  description:
    'Explain why an email did or did not arrive: its status and activity (scheduled, cancelled, queued, suppressed, sent, delivered, opened, bounced, failed), the contact and its subscription, and a verdict in words. Give the email id, the recipient, or both.',
  input: Input,
  run: explain,
};
