import { Migration } from '@mikro-orm/migrations';

/**
 * Turns the events table into a dispatchable outbox: insertion order, per-event retry state, an index over
 * what is due, and a NOTIFY on insert so dispatchers wake at once instead of polling.
 */
export class Migration0004EventsOutbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "events"
  add column "seq" bigint generated always as identity,
  add column "dispatch_attempts" integer not null default 0,
  add column "next_dispatch_at" timestamptz not null default now(),
  add column "dispatch_error" text null;

drop index if exists "events_undispatched_index";
create index "events_due_index" on "events" ("next_dispatch_at", "seq") where "dispatched_at" is null;

-- One notification per inserting statement; PostgreSQL folds identical ones within a transaction and
-- delivers them at commit, so listeners never see an event before it is visible.
create function "events_outbox_notify"() returns trigger language plpgsql as $fn$
begin
  perform pg_notify('events_outbox', '');
  return null;
end
$fn$;
create trigger "events_outbox_notify" after insert on "events"
  for each statement execute function "events_outbox_notify"();
`);
  }
}
