import { Migration } from '@mikro-orm/migrations';

/**
 * The events outbox's trigger (migration 0153) asks whether anyone hears each name once per name and project of
 * a statement's events, not once per event: the answers are a materialized CTE that the events are joined to.
 * As a subquery joined to the events, PL/pgSQL's plan made on a connection's first insert of one event kept a
 * nested loop that asked both questions again for every event of each later statement (400 index probes for a
 * SENT mark of 200 emails instead of 2; the plan read through auto_explain).
 */
export class Migration0157HeardNamesOnce extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create or replace function "event_outbox_insert"() returns trigger language plpgsql as $fn$
begin
  with "heard" as materialized (
    select k."project_id", k."name" from (select distinct "project_id", "name" from new_rows) k
    where exists (select 1 from "heard_event_names" h where h."project_id" = k."project_id" and h."name" = k."name")
      or exists (select 1 from "webhook_endpoints" ep
                 where ep."project_id" = k."project_id" and ep."enabled" and "webhook_selects"(ep."events", k."name")))
  insert into "event_outbox" ("event_id", "project_id", "seq", "next_dispatch_at")
  select n."id", n."project_id", n."seq", now() from new_rows n
  join "heard" on "heard"."project_id" = n."project_id" and "heard"."name" = n."name";
  return null;
end
$fn$;`);
  }
}
