import { Migration } from '@mikro-orm/migrations';

/**
 * An email's outcome is written in place (heap-only, no index entries), as migration 0032 meant when it left
 * room on each page: an update that changes a column an index names, its predicate included, writes a new entry
 * into every index of the table, and the two indexes of scheduled emails named `status` in their predicate, so
 * no SENT, SUPPRESSED or tracking update of any email had been heap-only (docs/contributors/campaigns.md
 * "Outcomes written in place"). They now name `release_at`, a SCHEDULED email's time to be released, null in
 * every other status (the check says so), so an outcome changes no indexed column. Pages are filled to half,
 * so that a mark of every email on a page finds room for their new versions beside the old.
 */
export class Migration0162SentMarksHeapOnly extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "emails" add column "release_at" timestamptz null;
update "emails" set "release_at" = "scheduled_at" where "status" = 'SCHEDULED';
alter table "emails" add constraint "emails_release_at_scheduled" check (("release_at" is not null) = ("status" = 'SCHEDULED'));
create index "emails_release_due_index" on "emails" ("release_at") where "release_at" is not null;
create index "emails_release_index" on "emails" ("project_id", "release_at", "id") where "release_at" is not null;
drop index "emails_scheduled_due_index";
drop index "emails_scheduled_index";
alter table "emails" set (fillfactor = 50);
`);
  }
}
