import type { EntityManager } from '@mikro-orm/postgresql';
import { topicsOfContact } from '../topics/memberships';
import type { ConsentResponse } from './schemas';

interface Row {
  subscribed: boolean;
  unconfirmed: boolean | null;
  confirmed_at: string | null;
  snoozed_until: string | null;
  expires_at: string | null;
  last_sent_at: string | null;
  reminded_at: string | null;
  form_id: string | null;
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** The contact's consent as GET /contacts/{id}/consent shows it; null when the contact is not the project's. */
export async function consentOf(em: EntityManager, projectId: string, contactId: string): Promise<ConsentResponse | null> {
  const [row] = await em.execute<Row[]>(
    `select c."subscribed", h."unconfirmed", h."confirmed_at", h."snoozed_until",
       f."expires_at", f."last_sent_at", f."reminded_at", f."form_id"
     from contacts c left join contact_consent h on h."contact_id" = c."id"
     left join confirmations f on f."contact_id" = c."id" and f."status" = 'PENDING' and f."expires_at" > now()
     where c."id" = ? and c."project_id" = ?`,
    [contactId, projectId],
  );
  if (!row) return null;
  const state = row.unconfirmed ? 'UNCONFIRMED' : row.confirmed_at !== null ? 'CONFIRMED' : 'NOT_REQUIRED';
  return {
    contactId,
    subscribed: row.subscribed,
    confirmation: {
      state,
      confirmedAt: iso(row.confirmed_at),
      pending:
        row.expires_at === null
          ? null
          : { expiresAt: iso(row.expires_at)!, lastSentAt: iso(row.last_sent_at)!, remindedAt: iso(row.reminded_at), formId: row.form_id },
    },
    snoozedUntil: iso(row.snoozed_until),
    topics: await topicsOfContact(em, projectId, contactId),
  };
}
