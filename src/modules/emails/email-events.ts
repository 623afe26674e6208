import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvents } from '../outbox/record';
import type { SourceType } from './entities';
import type { EmailTags } from './tags';

/** An email's columns that its service events describe, as a query returns them. */
export interface EmailEventSource {
  id: string;
  project_id: string;
  contact_id: string | null;
  subject: string;
  from_address: string;
  template_id: string | null;
  campaign_id: string | null;
  source_type: SourceType;
  tags: EmailTags;
}

const COLUMNS = ['id', 'project_id', 'contact_id', 'subject', 'from_address', 'template_id', 'campaign_id', 'source_type', 'tags'];

/** The select list of EmailEventSource, qualified by `alias` where the query joins other tables. */
export const emailEventColumns = (alias?: string) => COLUMNS.map((c) => (alias ? `${alias}."${c}"` : `"${c}"`)).join(', ');

/**
 * The data of an email's service event, as SQL over the EmailEventSource columns of the row in scope: what
 * recordEmailEvent writes, for statements that record events themselves (the SENT marks of the pump).
 */
export const emailEventDataSql = `jsonb_strip_nulls(jsonb_build_object('emailId', "id", 'subject', "subject", 'from', "from_address",
  'templateId', "template_id", 'campaignId', "campaign_id", 'sourceType', "source_type", 'tags', "tags"))`;

export type EmailEventName = 'email.delivery' | 'email.open' | 'email.click' | 'email.bounce' | 'email.complaint';

/**
 * Records a service event of an email (docs/activity.md "Types") on its contact, in the caller's unit of work:
 * `{ emailId, subject, from, templateId?, campaignId?, sourceType, tags }` plus `extra` (a click's link, a
 * bounce's type). Mail to an address that is no contact (a campaign test send) has no events.
 */
export function recordEmailEvent(
  em: EntityManager,
  email: EmailEventSource,
  name: EmailEventName,
  extra: Record<string, unknown> = {},
): void {
  if (!email.contact_id) return;
  recordEvents(em, [
    {
      projectId: email.project_id,
      contactId: email.contact_id,
      name,
      data: {
        emailId: email.id,
        subject: email.subject,
        from: email.from_address,
        ...(email.template_id ? { templateId: email.template_id } : {}),
        ...(email.campaign_id ? { campaignId: email.campaign_id } : {}),
        sourceType: email.source_type,
        tags: email.tags,
        ...extra,
      },
    },
  ]);
}
