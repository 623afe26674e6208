import { Migration } from '@mikro-orm/migrations';
import { billableAt, countersOf, trigger, type RollupShape } from './0024-activity-rollups';
import { CONNECTION_SLOT } from './0026-rollup-slot-per-connection';
import { SHAPE_0050 } from './0050-sending-surface';

/**
 * The rollup's update trigger counts only the counters an update changed (docs/contributors/analytics.md
 * "Rollups"). It had counted every email of the statement out with its old values and in with its new ones,
 * nine counters each, and let the sums cancel: a delivery pump's SENT mark of 200 emails unfolded 3,600 lines
 * through a lateral list per email to move 200 of them. A counter whose timestamp and key stayed as they were
 * adds +1 and -1 to the same rollup row, so leaving it out changes no sum; the pairs are read once and each
 * counter's changes taken from them by a plain filter. The counts, slots, locking order and upsert are as before.
 */

/** The timestamp that dates `counter` for the email aliased `alias`. */
const counterAt = (shape: RollupShape, counter: string, alias: string) =>
  counter === 'billable' ? billableAt(shape, alias) : `${alias}."${counter}_at"`;

const SIDES = [
  ['n', 1],
  ['o', -1],
] as const;

/** The rollup's changes from the transition tables of an update of emails, upserted into its connection's slot. */
export const upsertChangedCounters = (shape: RollupShape) => {
  const counters = countersOf(shape);
  const key = ['project_id', ...shape.key];
  const rollupKey = ['project_id', 'hour', ...shape.key, 'slot'].map((c) => `"${c}"`).join(', ');
  const positions = Array.from({ length: key.length + 2 }, (_, i) => i + 1).join(', ');
  const pairs = `select ${SIDES.flatMap(([side]) => [
    ...key.map((k) => `${side}."${k}" as "${side}_${k}"`),
    ...counters.map((c) => `${counterAt(shape, c, side)} as "${side}_${c}"`),
  ]).join(', ')},
    (${key.map((k) => `n."${k}" is distinct from o."${k}"`).join(' or ')}) as "rekeyed"
  from "new_rows" n join "old_rows" o on o."id" = n."id"`;
  const changes = counters.flatMap((c) =>
    SIDES.map(
      ([side, sign]) =>
        `select ${key.map((k) => `"${side}_${k}" as "${k}"`).join(', ')}, '${c}' as "counter", "${side}_${c}" as "at", ${sign} as "sign"
    from "pairs" where "${side}_${c}" is not null and ("n_${c}" is distinct from "o_${c}" or "rekeyed")`,
    ),
  );
  const sum = (c: string) => `coalesce(sum("sign") filter (where "counter" = '${c}'), 0)`;
  return `
with "pairs" as materialized (${pairs})
insert into "email_stats" (${rollupKey}, ${counters.map((c) => `"${c}"`).join(', ')})
select "project_id", date_trunc('hour', "at", 'UTC') as "hour", ${shape.key.map((k) => `"${k}"`).join(', ')}, ${CONNECTION_SLOT()} as "slot",
  ${counters.map(sum).join(', ')}
from (
  ${changes.join('\n  union all\n  ')}) r
group by ${positions}
having ${counters.map((c) => `${sum(c)} <> 0`).join(' or ')}
-- Rows are locked in key order, so concurrent statements cannot deadlock on them.
order by ${positions}
on conflict (${rollupKey}) do update set
  ${counters.map((c) => `"${c}" = "email_stats"."${c}" + excluded."${c}"`).join(', ')}`;
};

export class Migration0150RollupChangedCounters extends Migration {
  override async up(): Promise<void> {
    this.addSql(trigger('email_stats_update', upsertChangedCounters(SHAPE_0050), true));
  }
}
