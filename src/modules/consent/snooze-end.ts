import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvents } from '../outbox/record';

/**
 * The snooze workflow's end: clears the snooze if it still ends at `until` (a later snooze moved it, or the
 * contact resumed early, otherwise) and records contact.unsnoozed `{ reason: "ended", snoozedUntil }`. A
 * retry after the commit finds nothing to clear.
 */
export async function endSnooze(em: EntityManager, contactId: string, until: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<Array<{ project_id: string }>>(
      `update contact_consent h set "snoozed_until" = null, "snoozed_at" = null from contacts c
       where h."contact_id" = ? and c."id" = h."contact_id" and h."snoozed_until" = ? returning c."project_id"`,
      [contactId, until],
    );
    if (!row) return false;
    recordEvents(tx, [{ projectId: row.project_id, contactId, name: 'contact.unsnoozed', data: { reason: 'ended', snoozedUntil: until } }]);
    return true;
  });
}
