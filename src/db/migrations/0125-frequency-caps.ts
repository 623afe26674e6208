import { Migration } from '@mikro-orm/migrations';

/**
 * Frequency caps (docs/projects.md "Frequency cap"): a project may allow at most `frequency_cap_max` marketing
 * emails per contact in any `frequency_cap_days` days, across campaigns and automations. The partial index
 * finds a contact's counted emails newest first; none of its columns is updated after the insert, so the
 * delivery's status updates stay HOT (migration 0032). A campaign recipient the cap held back is skipped with
 * its own reason.
 */
export class Migration0125FrequencyCaps extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "projects"
  add column "frequency_cap_max" integer null,
  add column "frequency_cap_days" integer null,
  add constraint "projects_frequency_cap_whole" check (("frequency_cap_max" is null) = ("frequency_cap_days" is null));
create index "emails_contact_marketing_index" on "emails" ("contact_id", "created_at" desc)
  where "marketing" and "source_type" <> 'TRANSACTIONAL' and "contact_id" is not null;
alter table "campaign_recipients" drop constraint "campaign_recipients_skip_reason_check";
alter table "campaign_recipients" add constraint "campaign_recipients_skip_reason_check" check ("skip_reason" in
  ('UNSUBSCRIBED', 'UNCONFIRMED', 'SNOOZED', 'NOT_IN_TOPIC', 'RENDER_FAILED', 'ADDRESS_REFUSED', 'FREQUENCY_CAPPED'));
`);
  }
}
