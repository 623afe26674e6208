import { Migration } from '@mikro-orm/migrations';

/**
 * As 0005 did for events: the emails insert trigger of 0012 made every /v1/send transaction NOTIFY, which
 * serialises commits. enqueueEmails notifies after the commit instead (src/db/commit-notifier.ts).
 */
export class Migration0013EmailsNotifyAfterCommit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
drop trigger "emails_enqueued_notify" on "emails";
drop function "emails_enqueued_notify"();
`);
  }
}
