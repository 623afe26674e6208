import { Migration } from '@mikro-orm/migrations';
import { SLOT, deletedEmails, insertedEmails, trigger, updatedEmails, upsertEmailDeltas } from './0024-activity-rollups';

/**
 * Splits the rollups of migration 0024 into 16 slots by row id, as contact_counts is (migration 0005). With
 * one row per project, hour and name, every tracked event and every recorded email locked the same rollup
 * row until its commit, so the commits of one project ran one after another; spread over slots, concurrent
 * writers rarely meet and PostgreSQL flushes their commits together. Readers already sum the rows they read.
 */
export class Migration0025RollupSlots extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "email_stats" add column "slot" smallint not null default 0;
drop index "email_stats_key";
create unique index "email_stats_key" on "email_stats" ("project_id", "hour", "source_type", "campaign_id", "slot") nulls not distinct;

alter table "event_stats" add column "slot" smallint not null default 0;
alter table "event_stats" drop constraint "event_stats_pkey";
alter table "event_stats" add primary key ("project_id", "hour", "name", "slot");

${trigger('email_stats_insert', upsertEmailDeltas(insertedEmails(SLOT), SLOT), true)}
${trigger('email_stats_update', upsertEmailDeltas(updatedEmails(SLOT), SLOT), true)}
${trigger('email_stats_delete', deletedEmails(SLOT), true)}
${trigger(
  'event_stats_insert',
  `
  insert into "event_stats" ("project_id", "hour", "name", "slot", "count")
  select "project_id", date_trunc('hour', "created_at", 'UTC'), "name", ${SLOT('new_rows')}, count(*) from "new_rows" group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict ("project_id", "hour", "name", "slot") do update set "count" = "event_stats"."count" + excluded."count"`,
  true,
)}
${trigger(
  'event_stats_delete',
  `
  update "event_stats" s set "count" = s."count" - d."n"
  from (select "project_id", date_trunc('hour', "created_at", 'UTC') as "hour", "name", ${SLOT('old_rows')} as "slot", count(*) as "n"
        from "old_rows" group by 1, 2, 3, 4) d
  where s."project_id" = d."project_id" and s."hour" = d."hour" and s."name" = d."name" and s."slot" = d."slot"`,
  true,
)}
`);
  }
}
