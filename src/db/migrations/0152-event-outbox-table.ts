import { Migration } from '@mikro-orm/migrations';

/**
 * The events outbox as a table of its own (docs/architecture.md "Events: the outbox"): a narrow row per event not
 * yet handed to its consumers, written with the event by a statement trigger and deleted once handed over.
 * The events table had been the outbox: marking an event dispatched rewrote its wide row and every index entry
 * it has (the two due indexes named the mark, so no update was HOT), at every event's dispatch. Now events are
 * written once; the outbox's rows come and go, like the email queue's.
 * A statement trigger deletes the rows of deleted events (a project's, a deleted event name's) rather than a
 * foreign key, whose check would cost every event's insert a lookup.
 */
export class Migration0152EventOutboxTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "event_outbox" (
  "event_id" uuid primary key,
  "project_id" uuid not null,
  "seq" bigint not null,
  "next_dispatch_at" timestamptz not null,
  "attempts" integer not null default 0,
  "error" text null);
create index "event_outbox_due_index" on "event_outbox" ("next_dispatch_at", "seq");
create index "event_outbox_due_by_project_index" on "event_outbox" ("project_id", "next_dispatch_at", "seq");
-- Vacuumed after every few thousand, so that claims do not walk dead index entries (as email_queue).
alter table "event_outbox" set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_cost_delay = 0,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000);

insert into "event_outbox" ("event_id", "project_id", "seq", "next_dispatch_at", "attempts", "error")
select "id", "project_id", "seq", "next_dispatch_at", "dispatch_attempts", "dispatch_error" from "events" where "dispatched_at" is null;

create function "event_outbox_insert"() returns trigger language plpgsql as $fn$
begin
  insert into "event_outbox" ("event_id", "project_id", "seq", "next_dispatch_at")
  select "id", "project_id", "seq", now() from new_rows;
  return null;
end
$fn$;
create trigger "event_outbox_insert" after insert on "events" referencing new table as new_rows
  for each statement execute function "event_outbox_insert"();
create function "event_outbox_delete"() returns trigger language plpgsql as $fn$
begin
  delete from "event_outbox" o using old_rows d where o."event_id" = d."id";
  return null;
end
$fn$;
create trigger "event_outbox_delete" after delete on "events" referencing old table as old_rows
  for each statement execute function "event_outbox_delete"();

alter table "events" drop column "dispatched_at", drop column "dispatch_attempts", drop column "next_dispatch_at",
  drop column "dispatch_error";
`);
  }
}
