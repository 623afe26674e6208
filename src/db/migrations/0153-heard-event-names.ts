import { Migration } from '@mikro-orm/migrations';

/**
 * The names the project's automations name at the migration: their triggers and goals, their steps, every published
 * version's steps, and the definitions active executions run (goal and steps). Exported for its test.
 */
export const HEARD_NAMES_BACKFILL = `
insert into "heard_event_names" ("project_id", "name")
select distinct "project_id", "name" from (
  select "project_id", "trigger_config" ->> 'eventName' as "name" from "automations" where "trigger_type" = 'EVENT'
  union all select "project_id", "goal" ->> 'event' from "automations"
  union all select a."project_id", s."config" ->> 'eventName' from "automation_steps" s join "automations" a on a."id" = s."automation_id"
  union all select a."project_id", st -> 'config' ->> 'eventName' from "automation_versions" v
    join "automations" a on a."id" = v."automation_id" cross join jsonb_array_elements(v."graph" -> 'steps') st
  union all select "project_id", "definition" -> 'goal' ->> 'event' from "automation_executions" where "status" in ('RUNNING', 'WAITING')
  union all select x."project_id", st -> 'config' ->> 'eventName' from "automation_executions" x
    cross join jsonb_array_elements(x."definition" -> 'steps') st where x."status" in ('RUNNING', 'WAITING')
) n where "name" is not null
on conflict do nothing;`;

/** A statement trigger with a transition table names one event: the function runs after inserts and after updates, by two. */
const onInsertAndUpdate = (table: string, fn: string) =>
  (['insert', 'update'] as const)
    .map(
      (event) => `create trigger "${fn}_${event}" after ${event} on "${table}" referencing new table as new_rows
  for each statement execute function "${fn}"();`,
    )
    .join('\n');

/**
 * Only the events a consumer can act on enter the events outbox (docs/architecture.md "Events: the outbox"). Its two
 * consumers act on an event when an automation names it (a trigger, a WAIT_FOR_EVENT step, a goal) or when an
 * enabled webhook endpoint of the project selects it; every other event (most `email.sent` of a campaign) had been
 * claimed, asked about and deleted for nothing, about a tenth of a campaign email's CPU.
 *
 * `heard_event_names` holds every event name an automation of the project has named since it was saved, kept when the
 * automation changes or goes: executions run the definition they started with, so a name an older version waits
 * for must still be heard. Triggers on automations and their steps write it, so no path that saves one can miss it.
 * A step names an event by its config's `eventName` (WAIT_FOR_EVENT); any step's is taken, which can only add.
 *
 * `webhook_selects` is the endpoints' selection rule (names, or prefixes ending in `*`; none selects all), as
 * src/modules/webhooks/stream.ts writes it inline for its per-event scans; test/audience/heard-events.test.ts holds
 * the two to the same answers.
 */
export class Migration0153HeardEventNames extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "heard_event_names" (
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "name" text not null,
  primary key ("project_id", "name"));

${HEARD_NAMES_BACKFILL}

create function "automation_heard_names"() returns trigger language plpgsql as $fn$
begin
  insert into "heard_event_names" ("project_id", "name")
  select distinct n."project_id", x."name" from new_rows n
  cross join lateral (values (case when n."trigger_type" = 'EVENT' then n."trigger_config" ->> 'eventName' end), (n."goal" ->> 'event')) x ("name")
  where x."name" is not null
  on conflict do nothing;
  return null;
end
$fn$;
${onInsertAndUpdate('automations', 'automation_heard_names')}

create function "automation_step_heard_names"() returns trigger language plpgsql as $fn$
begin
  insert into "heard_event_names" ("project_id", "name")
  select distinct a."project_id", s."config" ->> 'eventName' from new_rows s join "automations" a on a."id" = s."automation_id"
  where s."config" ->> 'eventName' is not null
  on conflict do nothing;
  return null;
end
$fn$;
${onInsertAndUpdate('automation_steps', 'automation_step_heard_names')}

create function "webhook_selects"("patterns" jsonb, "name" text) returns boolean language sql immutable parallel safe as $fn$
  select jsonb_array_length("patterns") = 0 or exists (
    select 1 from jsonb_array_elements_text("patterns") p
    where case when right(p, 1) = '*' then starts_with("name", left(p, -1)) else "name" = p end)
$fn$;

-- Asked once per name and project of a statement's events, not per event.
create or replace function "event_outbox_insert"() returns trigger language plpgsql as $fn$
begin
  insert into "event_outbox" ("event_id", "project_id", "seq", "next_dispatch_at")
  select n."id", n."project_id", n."seq", now() from new_rows n
  join (
    select k."project_id", k."name" from (select distinct "project_id", "name" from new_rows) k
    where exists (select 1 from "heard_event_names" h where h."project_id" = k."project_id" and h."name" = k."name")
      or exists (select 1 from "webhook_endpoints" ep
                 where ep."project_id" = k."project_id" and ep."enabled" and "webhook_selects"(ep."events", k."name"))
  ) heard on heard."project_id" = n."project_id" and heard."name" = n."name";
  return null;
end
$fn$;
`);
  }
}
