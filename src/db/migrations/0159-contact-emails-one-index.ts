import { Migration } from '@mikro-orm/migrations';

/**
 * One index of a contact's emails instead of two: (contact_id, marketing, created_at desc) serves what
 * `emails_contact_index` served (a contact's emails: its deletion's cascade, its counts) and what the frequency
 * cap's partial index served (a contact's marketing emails newest first, migration 0125: `marketing` is an index
 * condition, so the cap never visits transactional mail). A marketing email wrote an entry into each at its
 * insert and again at its SENT mark, which is not heap-only: a campaign's WAL falls by two records per email
 * (docs/contributors/campaigns.md "One index of a contact's emails").
 */
export class Migration0159ContactEmailsOneIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create index "emails_contact_marketing_created_index" on "emails" ("contact_id", "marketing", "created_at" desc);
drop index "emails_contact_index";
drop index "emails_contact_marketing_index";`);
  }
}
