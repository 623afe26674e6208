import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { queueConfirmationEmail } from './confirmation-email';

/**
 * The steps of a confirmation's workflow (docs/consent.md "Double opt-in"): the reminder a day after the
 * signup and the expiry a week after it. Kept apart from confirmations.ts, which starts that workflow.
 */

interface ReminderRow {
  project_id: string;
  template_id: string | null;
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * The reminder of the confirmation workflow: mails the link once more if the confirmation is still pending
 * and was not reminded of yet, marking it in the same transaction (a retry sends nothing twice). Answers
 * whether it is still pending.
 */
export async function remindConfirmation(em: EntityManager, deps: { config: Config; logger: Logger }, id: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<Array<ReminderRow & { status: string; reminded: boolean }>>(
      `select f."status", f."reminded_at" is not null as "reminded", f."project_id", f."template_id", c."id", c."email", c."subscribed", c."data"
       from confirmations f join contacts c on c."id" = f."contact_id" where f."id" = ? for update of f`,
      [id],
    );
    if (!row || row.status !== 'PENDING') return false;
    if (row.reminded) return true;
    const contact = { id: row.id, email: row.email, subscribed: row.subscribed, data: row.data };
    const sent = await queueConfirmationEmail(tx, deps.config, {
      confirmationId: id,
      projectId: row.project_id,
      templateId: row.template_id,
      contact,
      reminder: true,
    });
    if (!sent) deps.logger.warn({ confirmationId: id }, 'the confirmation template is gone; no reminder sent');
    await tx.execute(
      `update confirmations set "reminded_at" = now(), "updated_at" = now()${sent ? ', "last_sent_at" = now(), "sent_count" = "sent_count" + 1' : ''} where "id" = ?`,
      [id],
    );
    return true;
  });
}

/** The confirmation workflow's end: a confirmation still pending expires, and its link stops working. */
export async function expireConfirmation(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update confirmations set "status" = 'EXPIRED', "updated_at" = now() where "id" = ? and "status" = 'PENDING'`, [id]);
}
