import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery queue apart from the emails (docs/delivery.md, "The queue"). A PENDING email has one narrow
 * row here, written with the email and deleted by the statement that records its outcome; the pump's claims,
 * leases, renewals, deferrals, gate and hand-over marks write only this row. So the wide email row (its
 * rendered content, nine indexes, the rollup triggers of migration 0024) is written twice in its life, at
 * enqueue and at its outcome, and that outcome is a HOT update: no index of emails covers a column it
 * changes (the pending and failed partial indexes, whose status predicate made every status change rewrite
 * all nine, go or change to a `failed_at` predicate). Before this, each email rewrote its row three times
 * and ran the update rollup trigger for each, changes or not.
 *
 * No foreign key: its check would be one more trigger per row, and its cascade would lock a queue row after
 * the email's, the reverse of the pump's order. A queue row whose email was deleted otherwise (with its
 * contact) is dropped by the next claim that meets it; a project's are deleted with its data.
 */
export class Migration0032EmailQueue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "email_queue" (
  "email_id" uuid primary key,
  "project_id" uuid not null,
  "source_type" text not null,
  -- Transactional mail first, then automations, then campaigns.
  "priority" smallint not null,
  "campaign_id" uuid null,
  "workflow_execution_id" uuid null,
  "due_at" timestamptz not null,
  "attempts" integer not null default 0,
  "lease_id" uuid null,
  "handed_over_at" timestamptz null,
  "slot_reserved" boolean not null default false);
create index "email_queue_due_index" on "email_queue" ("priority", "due_at");
-- A queue's rows come and go: vacuumed after every few thousand, so that claims do not walk dead index entries.
alter table "email_queue" set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_cost_delay = 0,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000);
create index "email_queue_campaign_index" on "email_queue" ("campaign_id") where "campaign_id" is not null;
create index "email_queue_execution_index" on "email_queue" ("workflow_execution_id") where "workflow_execution_id" is not null;

insert into "email_queue" ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at",
  "attempts", "lease_id", "handed_over_at", "slot_reserved")
select "id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "next_attempt_at",
  "attempts", "lease_id", "handed_over_at", "slot_reserved"
from "emails" where "status" = 'PENDING';

drop index "emails_due_index";
drop index "emails_campaign_pending_index";
drop index "emails_project_failed_index";
create index "emails_project_failed_index" on "emails" ("project_id", "failed_at" desc, "id" desc) where "failed_at" is not null;
alter table "emails" drop column "priority", drop column "next_attempt_at", drop column "lease_id", drop column "handed_over_at",
  drop column "slot_reserved";
-- Room on each page for the outcome's new row version, which a HOT update keeps on the same page.
alter table "emails" set (fillfactor = 80);
`);
  }
}
