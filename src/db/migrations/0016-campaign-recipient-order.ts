import { Migration } from '@mikro-orm/migrations';

/**
 * Each recipient of a send gets its position in the audience (`seq`, from 0, dense): the emails of a range
 * of positions are then created by one activity, and several ranges at once. Sends under way when this
 * runs keep their recipients, numbered in contact-id order as they were walked.
 */
export class Migration0016CampaignRecipientOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "campaign_recipients" add column "seq" integer;
update "campaign_recipients" r set "seq" = n."seq"
from (select "campaign_id", "contact_id", (row_number() over (partition by "campaign_id" order by "contact_id") - 1)::int as "seq"
      from "campaign_recipients") n
where n."campaign_id" = r."campaign_id" and n."contact_id" = r."contact_id";
alter table "campaign_recipients" alter column "seq" set not null;
alter table "campaign_recipients" drop constraint "campaign_recipients_pkey";
alter table "campaign_recipients" add primary key ("campaign_id", "seq");
alter table "campaign_recipients" add constraint "campaign_recipients_contact_unique" unique ("campaign_id", "contact_id");
`);
  }
}
