import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../../db/prepared';
import type { AutomationEvent } from '../../../../workflows/automation/ids';

interface EventRow {
  id: string;
  name: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const FIRST_EVENT_SINCE = `
select "id", "name", "data", "created_at" from events
where "contact_id" = ? and "name" = ? and "created_at" >= ? and not ("id" = any(?::uuid[]))
order by "created_at", "seq" limit 1`;

/**
 * The contact's first event named `name` tracked at or after `since` (when the WAIT_FOR_EVENT step began)
 * and not among `used` (events earlier waits already took). Run after the WAITING mark has committed: an
 * event committed later reaches the execution as a signal instead, so none falls between the two.
 */
export async function firstEventSince(
  em: EntityManager,
  contactId: string,
  name: string,
  since: Date,
  used: string[],
): Promise<AutomationEvent | null> {
  const [row] = await executePrepared<EventRow>(em, 'automation_first_event_since', FIRST_EVENT_SINCE, [
    contactId,
    name,
    since,
    `{${used.join(',')}}`,
  ]);
  return row ? { id: row.id, name: row.name, data: row.data, createdAt: new Date(row.created_at).toISOString() } : null;
}
