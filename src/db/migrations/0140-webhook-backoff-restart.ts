import { Migration } from '@mikro-orm/migrations';

/**
 * Enabling a webhook endpoint again starts each queued delivery's backoff anew (docs/webhooks.md "Retries"):
 * `backoff_attempts` counts a delivery's failed attempts since its endpoint was last enabled and sets the wait
 * before the next one, while `attempts` keeps counting every attempt. Not indexed, so its updates stay HOT.
 */
export class Migration0140WebhookBackoffRestart extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "webhook_deliveries" add column "backoff_attempts" integer not null default 0;
update "webhook_deliveries" set "backoff_attempts" = "attempts" where "status" = 'PENDING' and "attempts" > 0;
`);
  }
}
