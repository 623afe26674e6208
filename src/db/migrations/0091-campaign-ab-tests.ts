import { Migration } from '@mikro-orm/migrations';

/**
 * A/B tests (docs/campaigns.md "A/B tests"). `ab_test` holds the variants (2 to 4, each overriding the
 * campaign's subject, body or sender), the test share in percent, the waiting time and how the winner is
 * chosen; `ab_winner` is the variant sent to the rest, decided once (`ab_decided_by`: OPENS, CLICKS or
 * MANUAL, at `ab_decided_at`). A recipient of the test share carries its variant; the rest have none.
 */
export class Migration0091CampaignAbTests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "campaigns"
  add column "ab_test" jsonb null,
  add column "ab_winner" smallint null check ("ab_winner" between 0 and 3),
  add column "ab_decided_by" text null check ("ab_decided_by" in ('OPENS', 'CLICKS', 'MANUAL')),
  add column "ab_decided_at" timestamptz null;
alter table "campaign_recipients" add column "variant" smallint null check ("variant" between 0 and 3);
`);
  }
}
