import { Migration } from '@mikro-orm/migrations';

/**
 * The housekeeping sweep of scheduled emails (docs/sending.md "Scheduled sends") looks across projects for
 * SCHEDULED emails a minute overdue, every 30 s in every worker: by their time, so that it reads the few
 * overdue rows rather than every email scheduled up to 30 days ahead.
 */
export class Migration0051OverdueScheduledEmails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "emails_scheduled_due_index" on "emails" ("scheduled_at") where "status" = 'SCHEDULED';`);
  }
}
