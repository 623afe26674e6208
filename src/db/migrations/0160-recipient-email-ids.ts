import { Migration } from '@mikro-orm/migrations';

/**
 * Each campaign recipient's email id, fixed when the recipient is (the snapshot's insert takes the default):
 * the enqueue creates the recipient's email under it, so the id exists before the email row does, the first
 * step of the compact per-recipient record (docs/contributors/campaigns.md "The compact record, step by step").
 * Recipients fixed before this migration take their email's id, or a new one when they have none yet.
 */
export class Migration0160RecipientEmailIds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "campaign_recipients" add column "email_id" uuid;
update "campaign_recipients" r set "email_id" = e."id" from "emails" e
  where e."campaign_id" = r."campaign_id" and e."contact_id" = r."contact_id";
update "campaign_recipients" set "email_id" = gen_random_uuid() where "email_id" is null;
alter table "campaign_recipients" alter column "email_id" set default gen_random_uuid(), alter column "email_id" set not null;`);
  }
}
