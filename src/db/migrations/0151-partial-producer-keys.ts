import { Migration } from '@mikro-orm/migrations';

/**
 * The producers' keys on emails (a campaign's contact, an automation's step: docs/delivery.md "For producers") hold
 * only the emails that have one. Their unique constraints had indexed every email, each null pair too, which
 * can never collide: a campaign's email wrote an entry under the automations' key, a /v1/send email under
 * both, at its insert and again at every update that moved its row (a SENT mark among them). The same
 * uniqueness, as partial unique indexes; `on conflict do nothing` without a target still takes both as
 * arbiters.
 */
export class Migration0151PartialProducerKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "emails" drop constraint "emails_campaign_contact_unique";
create unique index "emails_campaign_contact_unique" on "emails" ("campaign_id", "contact_id") where "campaign_id" is not null;
alter table "emails" drop constraint "emails_workflow_step_unique";
create unique index "emails_workflow_step_unique" on "emails" ("workflow_execution_id", "workflow_step_id")
  where "workflow_execution_id" is not null;
`);
  }
}
