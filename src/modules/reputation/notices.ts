import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { reputationNoticeMail, sendSystemMail, type ReputationNoticeKind } from '../../mail/system-mail';
import { ownerEmails } from '../projects/owners';

/**
 * The owners' emails of the guardrails (docs/security.md "Emails to owners"). Each is a row of
 * reputation_notices written in the transaction that decided it (the suspension and reinstatement rows by the
 * trigger on projects.disabled, whoever flipped it; warnings by the check), and sent afterwards: by whoever
 * decided, at once, and by the worker's sweep for any left (SMTP down, a process stopped in between). A row is
 * marked sent in the transaction that sends it, holding its lock, so two senders never send one twice; a
 * failure leaves it for the next sweep.
 */

const UNSENT = `
select "id" from reputation_notices where "sent_at" is null and (?::uuid is null or "project_id" = ?) order by "created_at" limit 100`;

const TAKE = `
select n."id", n."kind", n."reason", p."id" as "project_id", p."name" as "project_name" from reputation_notices n
join projects p on p."id" = n."project_id"
where n."id" = ? and n."sent_at" is null
for update of n skip locked`;

interface NoticeRow {
  id: string;
  kind: ReputationNoticeKind;
  reason: string | null;
  project_id: string;
  project_name: string;
}

/** Records a warning for the owners, at most one per project in 24 hours; false when one was sent within them. */
export async function recordWarning(tx: EntityManager, projectId: string, reason: string): Promise<boolean> {
  const due = await tx.execute<{ id: string }[]>(
    `update projects set "reputation_warned_at" = now()
     where "id" = ? and not "disabled" and ("reputation_warned_at" is null or "reputation_warned_at" <= now() - interval '24 hours')
     returning "id"`,
    [projectId],
  );
  if (due.length === 0) return false;
  await tx.execute(`insert into reputation_notices ("project_id", "kind", "reason") values (?, 'warning', ?)`, [projectId, reason]);
  return true;
}

/**
 * Sends the unsent notices (of one project, or all), each in its own transaction; one that cannot be sent is
 * logged and left for the next sweep, and does not hold the others back. Returns how many left.
 */
export async function sendNotices(
  deps: Pick<Deps, 'orm' | 'mailer' | 'config' | 'logger'>,
  projectId: string | null = null,
): Promise<number> {
  const unsent = await deps.orm.em.fork().execute<{ id: string }[]>(UNSENT, [projectId, projectId]);
  let sent = 0;
  for (const { id } of unsent) {
    try {
      const done = await deps.orm.em.fork().transactional(async (tx) => {
        const [notice] = await tx.execute<NoticeRow[]>(TAKE, [id]);
        if (!notice) return false;
        for (const to of await ownerEmails(tx, notice.project_id)) {
          const mail = reputationNoticeMail(deps.config, to, notice.kind, { projectName: notice.project_name, reason: notice.reason });
          await sendSystemMail(deps.mailer, deps.config, mail);
        }
        await tx.execute(`update reputation_notices set "sent_at" = now() where "id" = ?`, [notice.id]);
        return true;
      });
      if (done) sent++;
    } catch (err) {
      deps.logger.warn({ err, noticeId: id }, 'could not email a reputation notice to the owners; the sweep retries');
    }
  }
  return sent;
}
