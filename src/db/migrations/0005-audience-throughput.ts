import { Migration } from '@mikro-orm/migrations';

/**
 * The events insert trigger of 0004 made every inserting transaction NOTIFY, and PostgreSQL serialises the
 * commits of such transactions. The application notifies after the commit instead (src/db/commit-notifier.ts).
 */
export class Migration0005EventsNotifyAfterCommit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
drop trigger "events_outbox_notify" on "events";
drop function "events_outbox_notify"();
`);
  }
}
