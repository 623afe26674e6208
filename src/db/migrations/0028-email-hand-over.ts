import { Migration } from '@mikro-orm/migrations';

/**
 * When the delivery pump handed the email's message to the SMTP server: set in the transaction whose commit
 * goes out right behind the message's terminating dot (src/modules/emails/delivery/hand-over.ts). An email
 * still PENDING with this set belonged to a worker that died between the dot and the SENT mark: the server
 * has the message, so whoever claims the email next marks it SENT instead of sending it again. A retry clears it.
 */
export class Migration0028EmailHandOver extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "emails" add column "handed_over_at" timestamptz;`);
  }
}
