import { Migration } from '@mikro-orm/migrations';

/**
 * Versions of an automation's graph (docs/automations.md "Versions"): each graph that went live (enabling, or an
 * edit of an enabled automation) is numbered 1, 2, …; an execution runs the version it started with (its
 * definition carries the number) and may be moved to the latest one by a step mapping. Existing data: each
 * distinct graph that executions ran becomes a version, oldest first, and an enabled automation's current graph
 * the latest, when it differs from them; each execution's definition is given its version's number.
 */
export class Migration0130AutomationVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "automation_versions" (
  "id" uuid primary key,
  "automation_id" uuid not null references "automations" ("id") on delete cascade,
  "number" int not null check ("number" >= 1),
  "graph" jsonb not null,
  "created_at" timestamptz not null default now(),
  constraint "automation_versions_number_unique" unique ("automation_id", "number"));
alter table "automations" add column "version" int not null default 0;

insert into "automation_versions" ("id", "automation_id", "number", "graph", "created_at")
select gen_random_uuid(), g."automation_id", row_number() over (partition by g."automation_id" order by g."first_at"),
  jsonb_build_object('steps', g."steps", 'transitions', g."transitions"), g."first_at"
from (select "automation_id", "definition" -> 'steps' as "steps", "definition" -> 'transitions' as "transitions", min("created_at") as "first_at"
      from "automation_executions" group by 1, 2, 3) g;

with "current" as (
  select a."id" as "automation_id",
    jsonb_build_object(
      'steps', coalesce((select jsonb_agg(jsonb_build_object('id', s."id", 'name', s."name", 'type', s."type", 'config', s."config")
                                          order by s."created_at", s."id")
                         from "automation_steps" s where s."automation_id" = a."id"), '[]'),
      'transitions', coalesce((select jsonb_agg(jsonb_build_object('fromStepId', t."from_step_id", 'toStepId', t."to_step_id",
                                                                   'branch', t."branch", 'outcome', t."outcome")
                                                order by t."created_at", t."id")
                               from "automation_transitions" t where t."automation_id" = a."id"), '[]')) as "graph"
  from "automations" a where a."enabled")
insert into "automation_versions" ("id", "automation_id", "number", "graph", "created_at")
select gen_random_uuid(), c."automation_id",
  coalesce((select max(v."number") from "automation_versions" v where v."automation_id" = c."automation_id"), 0) + 1, c."graph", now()
from "current" c
where not exists (select 1 from "automation_versions" v where v."automation_id" = c."automation_id" and v."graph" = c."graph"
                  and v."number" = (select max(w."number") from "automation_versions" w where w."automation_id" = c."automation_id"));

update "automations" a set "version" = v."latest"
from (select "automation_id", max("number") as "latest" from "automation_versions" group by 1) v where v."automation_id" = a."id";

update "automation_executions" x set "definition" = x."definition" || jsonb_build_object('version', v."number")
from "automation_versions" v
where v."automation_id" = x."automation_id" and v."graph" -> 'steps' = x."definition" -> 'steps'
  and v."graph" -> 'transitions' = x."definition" -> 'transitions';`);
  }
}
