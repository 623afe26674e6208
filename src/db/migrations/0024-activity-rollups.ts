import { Migration } from '@mikro-orm/migrations';

/**
 * Rollups for analytics, the activity feed's totals and billing caps
 * (docs/contributors/analytics.md "Rollups (migrations 0024, 0040)"). Each is a mirror of its table, kept by
 * statement-level triggers in the same transaction as the change: a counter always equals the aggregate it stands
 * for, so readers never scan millions of rows and never see a count drift.
 *
 * email_stats: per project, UTC hour, category and campaign, the emails that reached each stage in that
 * hour (by the stage's timestamp), and `billable`, the emails recorded in that hour that have not FAILED
 * (billing caps count those). event_stats: per project, UTC hour and name, the events recorded. And the
 * indexes the activity feed and its upcoming list read.
 */

export const EMAIL_COLUMNS = [
  'project_id',
  'source_type',
  'campaign_id',
  'status',
  'created_at',
  'sent_at',
  'delivered_at',
  'opened_at',
  'clicked_at',
  'bounced_at',
  'complained_at',
  'failed_at',
];
const STAGES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed'];
export const COUNTERS = ['billable', ...STAGES];

/**
 * What email_stats counts, as the trigger functions below are written for it: the emails' columns a delta
 * reads, the stages (a stage `s` counts the emails whose `s_at` falls in the hour) and the key's columns
 * besides the hour. Later migrations that widen the rollup (0040) pass their own.
 */
export interface RollupShape {
  columns: string[];
  stages: string[];
  /** The key's columns after `project_id` and `hour`. */
  key: string[];
  /** The statuses of emails `billable` does not count: FAILED unless a later migration (0050) says more. */
  unbilled?: string[];
}
export const SHAPE_0024: RollupShape = { columns: EMAIL_COLUMNS, stages: STAGES, key: ['source_type', 'campaign_id'] };
export const countersOf = (shape: RollupShape) => ['billable', ...shape.stages];

/**
 * How rollup rows are split (migrations 0025, 0026): not at all (`false`), or into the slot an SQL expression
 * gives for the source row aliased `alias`.
 */
export type Slotting = false | ((alias: string) => string);

/** The timestamp that dates the `billable` counter of the email aliased `alias`: its creation, unless its status is unbilled. */
export const billableAt = (shape: RollupShape, alias: string) =>
  `case when ${alias}."status" not in (${(shape.unbilled ?? ['FAILED']).map((s) => `'${s}'`).join(', ')}) then ${alias}."created_at" end`;

/**
 * Aggregated counter changes of `source`, rows of emails' columns with a `sign` (+1 counts a row in, -1 out):
 * one line per counter occurrence, at the hour of the timestamp that dates it. `slotted` also splits each
 * line by its slot; `source` then carries the email's id.
 */
export const emailDeltas = (source: string, slotted: Slotting = false, shape: RollupShape = SHAPE_0024) => `
select r."project_id", date_trunc('hour', m."at", 'UTC') as "hour", ${shape.key.map((k) => `r."${k}"`).join(', ')},${slotted ? ` ${slotted('r')} as "slot",` : ''}
  ${countersOf(shape)
    .map((c) => `sum(r."sign") filter (where m."counter" = '${c}') as "${c}"`)
    .join(',\n  ')}
from (${source}) r
cross join lateral (values
  ('billable', ${billableAt(shape, 'r')}),
  ${shape.stages.map((s) => `('${s}', r."${s}_at")`).join(', ')}) as m("counter", "at")
where m."at" is not null
group by ${keyPositions(slotted, shape)}
having ${countersOf(shape)
  .map((c) => `coalesce(sum(r."sign") filter (where m."counter" = '${c}'), 0) <> 0`)
  .join(' or ')}
-- Rows are locked in key order, so concurrent statements cannot deadlock on them.
order by ${keyPositions(slotted, shape)}`;

/** The counter slot of a row: the last byte of a UUID v4 is random, so concurrent writers spread over the slots. */
export const SLOT = (alias: string) => `get_byte(uuid_send(${alias}."id"), 15) % 16`;
const keyPositions = (slotted: Slotting, shape: RollupShape) =>
  Array.from({ length: 2 + shape.key.length + (slotted ? 1 : 0) }, (_, i) => i + 1).join(', ');
const emailKey = (slotted: Slotting, shape: RollupShape) =>
  ['project_id', 'hour', ...shape.key, ...(slotted ? ['slot'] : [])].map((c) => `"${c}"`).join(', ');
/** The emails' columns a delta reads, as a select list of `alias` (or bare). */
const emailColumns = (slotted: Slotting, shape: RollupShape, alias?: string) =>
  (slotted ? ['id', ...shape.columns] : shape.columns).map((c) => (alias ? `${alias}."${c}"` : `"${c}"`)).join(', ');

export const upsertEmailDeltas = (source: string, slotted: Slotting = false, shape: RollupShape = SHAPE_0024) => `
insert into "email_stats" (${emailKey(slotted, shape)}, ${countersOf(shape)
  .map((c) => `"${c}"`)
  .join(', ')})
select ${emailKey(slotted, shape)}, ${countersOf(shape)
  .map((c) => `coalesce("${c}", 0)`)
  .join(', ')}
from (${emailDeltas(source, slotted, shape)}) d
on conflict (${emailKey(slotted, shape)}) do update set
  ${countersOf(shape)
    .map((c) => `"${c}" = "email_stats"."${c}" + excluded."${c}"`)
    .join(', ')}`;

export const insertedEmails = (slotted: Slotting = false, shape: RollupShape = SHAPE_0024) =>
  `select ${emailColumns(slotted, shape)}, 1 as "sign" from "new_rows"`;

/** Every row of emails as counted in (+1): what fills email_stats from scratch. */
export const allEmails = (shape: RollupShape = SHAPE_0024, slotted: Slotting = false) =>
  `select ${emailColumns(slotted, shape)}, 1 as "sign" from "emails"`;

export const updatedEmails = (slotted: Slotting = false, shape: RollupShape = SHAPE_0024) => `
select x.* from "new_rows" n join "old_rows" o on o."id" = n."id"
cross join lateral (values (${emailColumns(slotted, shape, 'n')}, 1), (${emailColumns(slotted, shape, 'o')}, -1)) as x(${emailColumns(slotted, shape)}, "sign")
where (${emailColumns(false, shape, 'n')}) is distinct from (${emailColumns(false, shape, 'o')})`;

/** The key's columns besides project and hour matched between email_stats `s` and deltas `d` (a null campaign too). */
export const sameKey = (shape: RollupShape, s: string, d: string) =>
  shape.key.map((k) => (k === 'campaign_id' ? `${s}."${k}" is not distinct from ${d}."${k}"` : `${s}."${k}" = ${d}."${k}"`)).join(' and ');

// A deleted email only takes counts away from rows that exist: when a project goes, its rollup rows may
// already be gone, and an upsert would recreate them for a project that no longer exists.
export const deletedEmails = (slotted: Slotting = false, shape: RollupShape = SHAPE_0024) => `
update "email_stats" s set ${countersOf(shape)
  .map((c) => `"${c}" = s."${c}" - coalesce(d."${c}", 0)`)
  .join(', ')}
from (${emailDeltas(`select ${emailColumns(slotted, shape)}, 1 as "sign" from "old_rows"`, slotted, shape)}) d
where s."project_id" = d."project_id" and s."hour" = d."hour" and ${sameKey(shape, 's', 'd')}${slotted ? ' and s."slot" = d."slot"' : ''}`;

export const trigger = (name: string, body: string, replace = false) => `
create ${replace ? 'or replace ' : ''}function "${name}"() returns trigger language plpgsql as $fn$
begin
${body};
  return null;
end
$fn$;`;

export class Migration0024ActivityRollups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "email_stats" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "hour" timestamptz not null,
  "source_type" text not null,
  "campaign_id" uuid null,
  ${COUNTERS.map((c) => `"${c}" integer not null default 0`).join(', ')});
create unique index "email_stats_key" on "email_stats" ("project_id", "hour", "source_type", "campaign_id") nulls not distinct;
create index "email_stats_campaign_index" on "email_stats" ("campaign_id", "hour") where "campaign_id" is not null;

create table "event_stats" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "hour" timestamptz not null,
  "name" varchar(255) not null,
  "count" integer not null,
  primary key ("project_id", "hour", "name"));

${upsertEmailDeltas(allEmails())};
insert into "event_stats" ("project_id", "hour", "name", "count")
select "project_id", date_trunc('hour', "created_at", 'UTC'), "name", count(*) from "events" group by 1, 2, 3;

${trigger('email_stats_insert', upsertEmailDeltas(insertedEmails()))}
${trigger('email_stats_update', upsertEmailDeltas(updatedEmails()))}
${trigger('email_stats_delete', deletedEmails())}
create trigger "email_stats_insert" after insert on "emails" referencing new table as "new_rows"
  for each statement execute function "email_stats_insert"();
create trigger "email_stats_update" after update on "emails" referencing old table as "old_rows" new table as "new_rows"
  for each statement execute function "email_stats_update"();
create trigger "email_stats_delete" after delete on "emails" referencing old table as "old_rows"
  for each statement execute function "email_stats_delete"();

-- Events are immutable but for their dispatch columns, so inserts and deletes are all that change counts.
${trigger(
  'event_stats_insert',
  `
  insert into "event_stats" ("project_id", "hour", "name", "count")
  select "project_id", date_trunc('hour', "created_at", 'UTC'), "name", count(*) from "new_rows" group by 1, 2, 3 order by 1, 2, 3
  on conflict ("project_id", "hour", "name") do update set "count" = "event_stats"."count" + excluded."count"`,
)}
${trigger(
  'event_stats_delete',
  `
  update "event_stats" s set "count" = s."count" - d."n"
  from (select "project_id", date_trunc('hour', "created_at", 'UTC') as "hour", "name", count(*) as "n" from "old_rows" group by 1, 2, 3) d
  where s."project_id" = d."project_id" and s."hour" = d."hour" and s."name" = d."name"`,
)}
create trigger "event_stats_insert" after insert on "events" referencing new table as "new_rows"
  for each statement execute function "event_stats_insert"();
create trigger "event_stats_delete" after delete on "events" referencing old table as "old_rows"
  for each statement execute function "event_stats_delete"();

-- The activity feed reads each type newest first, with the id breaking ties as its cursor does.
drop index "events_project_name_created_index";
create index "events_project_name_created_index" on "events" ("project_id", "name", "created_at" desc, "id" desc);
-- Failed emails are the feed's one type that has no event.
create index "emails_project_failed_index" on "emails" ("project_id", "failed_at" desc, "id" desc) where "status" = 'FAILED';
-- What GET /activity/upcoming lists.
create index "campaigns_scheduled_index" on "campaigns" ("project_id", "scheduled_for") where "status" = 'SCHEDULED';
create index "automation_executions_active_index" on "automation_executions" ("project_id", "step_started_at")
  where "status" in ('RUNNING', 'WAITING');
`);
  }
}
