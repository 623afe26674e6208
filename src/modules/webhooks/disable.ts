import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { sendSystemMail, webhookDisabledMail } from '../../mail/system-mail';

const DISABLE = `
update webhook_endpoints w set "enabled" = false, "disabled_reason" = ?, "updated_at" = now()
from projects p where w."id" = ? and w."enabled" and p."id" = w."project_id"
returning w."url", p."name" as project_name, p."id" as project_id`;

const OWNERS = `
select u."email" from project_members m join users u on u."id" = m."user_id"
where m."project_id" = ? and m."role" = 'OWNER' and (not m."invited" or u."email_verified")`;

/**
 * Disables an endpoint whose deliveries kept failing, with the reason, and tells the project's owners by
 * email. In one transaction that also holds the row: an email that cannot be sent undoes the change and the
 * activity tries again; an endpoint already disabled is left alone, so a repeat sends nothing.
 */
export async function disableFailingEndpoint(
  deps: Pick<Deps, 'orm' | 'mailer' | 'config'>,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  return deps.orm.em.fork().transactional(async (tx: EntityManager) => {
    const [row] = await tx.execute<{ url: string; project_name: string; project_id: string }[]>(DISABLE, [reason, endpointId]);
    if (!row) return false;
    const owners = await tx.execute<{ email: string }[]>(OWNERS, [row.project_id]);
    for (const { email } of owners) {
      await sendSystemMail(
        deps.mailer,
        deps.config,
        webhookDisabledMail(deps.config, email, { projectName: row.project_name, url: row.url, reason }),
      );
    }
    return true;
  });
}
