import { z } from 'zod';
import type { AgentApi } from '../api';
import type { ComposedSpec } from './composed-tool';

interface Item {
  id: string;
  type: string;
  occurredAt: string;
  contact: { id: string; email: string } | null;
  email: { id: string; subject: string | null; from: string | null; sourceType: string | null } | null;
  details: { error?: string; bounceType?: string; link?: string };
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

const at = (items: Item[], type: string) => items.find((i) => i.type === type);

/** What the activity of one email says happened to it, in words, most telling first. */
function verdictOf(items: Item[]): { verdict: string; explanation: string[] } {
  const failed = at(items, 'FAILED');
  const bounced = at(items, 'BOUNCED');
  const complained = at(items, 'COMPLAINED');
  const delivered = at(items, 'DELIVERED');
  const sent = at(items, 'SENT');
  if (failed)
    return {
      verdict: 'FAILED',
      explanation: [`Not sent: ${failed.details.error ?? 'the delivery failed'} (${failed.occurredAt}).`],
    };
  if (bounced) {
    const kind = bounced.details.bounceType ?? 'unknown';
    return {
      verdict: 'BOUNCED',
      explanation: [
        `The receiving server refused it (${kind} bounce, ${bounced.occurredAt}).`,
        kind === 'Permanent'
          ? 'A permanent bounce means the mailbox does not exist or refuses mail for good; Postwire unsubscribes the contact and suppresses the address.'
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
  return {
    verdict: 'NOT_FOUND',
    explanation: [
      'No activity for this email: it is still waiting to go (a scheduled or queued email), or the id is not one of this project.',
    ],
  };
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
  const activity = await activityOf(api, contact, emailId);
  const id = emailId ?? activity.find((i) => i.email)?.email?.id;
  const items = activity.filter((i) => i.email?.id === id);
  const contactRef = contact ?? items.find((i) => i.contact)?.contact ?? undefined;
  if (!contact && contactRef) contact = await api.data<Contact>('get', '/contacts/{id}', { id: contactRef.id });
  const events = contact
    ? (await api.data<Page<Event>>('get', '/events/contact/{contactId}', { contactId: contact.id, limit: 50 })).data
    : [];
  const { verdict, explanation } = verdictOf(items);
  if (to && !contact && items.length === 0) explanation.push(`No contact of the project has the address ${to}.`);
  return {
    emailId: id ?? null,
    verdict,
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
    'Explain why an email did or did not arrive: its activity (sent, delivered, opened, bounced, failed), the contact and its subscription, and a verdict in words. Give the email id, the recipient, or both.',
  input: Input,
  run: explain,
};
