import type { EntityManager } from '@mikro-orm/postgresql';
import type { SetupStateResponse } from './schemas';

interface Row {
  has_domain: boolean;
  has_verified_domain: boolean;
  contact_count: number;
  has_tracked_event: boolean;
  emails_sent: number;
  last_email_sent_at: Date | null;
}

/**
 * The onboarding checklist, read from the tables that exist: domains, contacts, events. Sends are counted from
 * `email.sent` service events. Modules that add templates, campaigns or workflows extend this query.
 */
export async function setupState(em: EntityManager, projectId: string): Promise<SetupStateResponse> {
  const [row] = await em.execute<Row[]>(
    `select
       exists (select 1 from domains where project_id = ?) as has_domain,
       exists (select 1 from domains where project_id = ? and verified) as has_verified_domain,
       (select count(*)::int from contacts where project_id = ?) as contact_count,
       exists (select 1 from events where project_id = ?
               and name not like 'email.%' and name not like 'contact.%' and name not like 'segment.%') as has_tracked_event,
       (select count(*)::int from events where project_id = ? and name = 'email.sent') as emails_sent,
       (select max(created_at) from events where project_id = ? and name = 'email.sent') as last_email_sent_at`,
    Array(6).fill(projectId),
  );
  const r = row!;
  return {
    hasDomain: r.has_domain,
    hasVerifiedDomain: r.has_verified_domain,
    hasContacts: r.contact_count > 0,
    contactCount: r.contact_count,
    hasTrackedEvent: r.has_tracked_event,
    hasSentEmail: r.emails_sent > 0,
    emailsSent: r.emails_sent,
    lastEmailSentAt: r.last_email_sent_at ? new Date(r.last_email_sent_at).toISOString() : null,
  };
}
