import { Migration } from '@mikro-orm/migrations';
import {
  SHAPE_0024,
  countersOf,
  emailDeltas,
  insertedEmails,
  sameKey,
  trigger,
  updatedEmails,
  upsertEmailDeltas,
  type RollupShape,
} from './0024-activity-rollups';

/**
 * Rollup slots by connection instead of by row (the slots of migration 0025). A statement that writes many
 * rows, such as the delivery pump's SENT marks for a batch, spread its rows over all 16 slots of a key, so
 * every such statement locked every slot until its commit and concurrent ones still ran one after another
 * (and a killed worker's unmarked messages piled up behind them). Now a statement adds to one slot per key,
 * its connection's, so concurrent connections rarely meet. Readers sum the slots as before.
 *
 * A deletion takes its counts away from the key's lowest existing slot: slots are summed, so any row of the
 * key will do, and one that exists means a project being deleted gets no rollup row back.
 */
export const CONNECTION_SLOT = () => 'pg_backend_pid() % 16';

export const connectionSlotDelete = (shape: RollupShape = SHAPE_0024) => `
update "email_stats" s set ${countersOf(shape)
  .map((c) => `"${c}" = s."${c}" - coalesce(d."${c}", 0)`)
  .join(', ')}
from (${emailDeltas(`select ${shape.columns.map((c) => `"${c}"`).join(', ')}, 1 as "sign" from "old_rows"`, false, shape)}) d
where s."project_id" = d."project_id" and s."hour" = d."hour" and ${sameKey(shape, 's', 'd')}
  and s."slot" = (select min(x."slot") from "email_stats" x where x."project_id" = d."project_id" and x."hour" = d."hour"
    and ${sameKey(shape, 'x', 'd')})`;

export class Migration0026RollupSlotPerConnection extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
${trigger('email_stats_insert', upsertEmailDeltas(insertedEmails(CONNECTION_SLOT), CONNECTION_SLOT), true)}
${trigger('email_stats_update', upsertEmailDeltas(updatedEmails(CONNECTION_SLOT), CONNECTION_SLOT), true)}
${trigger('email_stats_delete', connectionSlotDelete(), true)}
${trigger(
  'event_stats_insert',
  `
  insert into "event_stats" ("project_id", "hour", "name", "slot", "count")
  select "project_id", date_trunc('hour', "created_at", 'UTC'), "name", ${CONNECTION_SLOT()}, count(*) from "new_rows" group by 1, 2, 3 order by 1, 2, 3
  on conflict ("project_id", "hour", "name", "slot") do update set "count" = "event_stats"."count" + excluded."count"`,
  true,
)}
${trigger(
  'event_stats_delete',
  `
  update "event_stats" s set "count" = s."count" - d."n"
  from (select "project_id", date_trunc('hour', "created_at", 'UTC') as "hour", "name", count(*) as "n" from "old_rows" group by 1, 2, 3) d
  where s."project_id" = d."project_id" and s."hour" = d."hour" and s."name" = d."name"
    and s."slot" = (select min(x."slot") from "event_stats" x where x."project_id" = d."project_id" and x."hour" = d."hour" and x."name" = d."name")`,
  true,
)}
`);
  }
}
