import { Migration } from '@mikro-orm/migrations';

/**
 * A send's recipients stay after it ends, so that `GET /campaigns/{id}/recipients` can answer who was sent,
 * delivered, bounced, suppressed, skipped or never attempted (docs/campaigns.md "Who did not get it").
 * `skip_reason` (and its `skip_detail`) records why a recipient fixed by the send got no email; it is
 * written only for those, so the common path writes nothing more. Campaigns that ended before this keep
 * their emails' recipients, renumbered in contact-id order: their skipped and never-attempted recipients
 * had already been let go and stay unknown.
 */
export class Migration0090CampaignRecipientOutcomes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "campaign_recipients"
  add column "skip_reason" text null check ("skip_reason" in ('UNSUBSCRIBED', 'UNCONFIRMED', 'SNOOZED', 'NOT_IN_TOPIC', 'RENDER_FAILED', 'ADDRESS_REFUSED')),
  add column "skip_detail" text null;
insert into "campaign_recipients" ("campaign_id", "seq", "contact_id")
select e."campaign_id", (row_number() over (partition by e."campaign_id" order by e."contact_id") - 1)::int, e."contact_id"
from "emails" e join "campaigns" c on c."id" = e."campaign_id"
where c."status" in ('SENT', 'CANCELLED') and e."contact_id" is not null
  and not exists (select 1 from "campaign_recipients" r where r."campaign_id" = c."id");
`);
  }
}
