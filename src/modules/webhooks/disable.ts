import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { sendSystemMail, webhookDisabledMail } from '../../mail/system-mail';
import { ownerEmails } from '../projects/owners';

const DISABLE = `
update webhook_endpoints w set "enabled" = false, "disabled_reason" = ?, "updated_at" = now()
from projects p where w."id" = ? and w."enabled" and p."id" = w."project_id"
returning w."url", p."name" as project_name, p."id" as project_id`;

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
    for (const email of await ownerEmails(tx, row.project_id)) {
      await sendSystemMail(
        deps.mailer,
        deps.config,
        webhookDisabledMail(deps.config, email, { projectName: row.project_name, url: row.url, reason }),
      );
    }
    return true;
  });
}
