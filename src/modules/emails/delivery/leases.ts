import type { Orm } from '../../../db/orm';
import type { Logger } from '../../../logger';

// Rows locked in id order, as a withdrawal locks them (../withdraw.ts): no deadlock.
const RENEW = `
update email_queue q set "due_at" = clock_timestamp() + ? * interval '1 millisecond'
from (select m."email_id" from email_queue m join jsonb_to_recordset(?::jsonb) as h("id" uuid, "lease_id" uuid) on m."email_id" = h."id"
  where m."lease_id" = h."lease_id" order by m."email_id" for no key update of m) l
where q."email_id" = l."email_id"`;

/**
 * Renews the leases of the emails this worker is sending, three times per lease, so that a lease runs out
 * only when its worker stopped running (or cannot reach the database): however long an SMTP server takes to
 * accept a message, no other worker starts sending it meanwhile.
 */
export class LeaseKeeper {
  private readonly held = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
    private readonly leaseMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.renew(), this.leaseMs / 3);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  hold(emailId: string, leaseId: string): void {
    this.held.set(emailId, leaseId);
  }

  release(emailId: string): void {
    this.held.delete(emailId);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const leases = [...this.held].map(([id, lease_id]) => ({ id, lease_id }));
    try {
      await this.orm.em.fork().execute(RENEW, [this.leaseMs, JSON.stringify(leases)]);
    } catch (err) {
      this.logger.warn({ err, leases: leases.length }, 'could not renew delivery leases');
    }
  }
}
