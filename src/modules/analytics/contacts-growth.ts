import type { EntityManager } from '@mikro-orm/postgresql';
import { rangeView, type Range } from './range';
import { bucketsOf, type Interval } from './service';

/**
 * The project's contacts by the bucket they were created in, and how many there were at the end of each
 * bucket, counting the contacts that exist now (docs/contributors/analytics.md "Contacts"). One statement, so the counter
 * of migration 0005 and the rows are read in the same snapshot: the count before the range is the counter
 * less the contacts created since its start, which reads only the index range from `from` to now.
 */
export async function contactsGrowth(em: EntityManager, projectId: string, range: Range, interval: Interval) {
  const { unit, aligned, points } = bucketsOf(range, interval);
  const rows = await em.execute<Array<{ bucket: number | null; n: string }>>(
    `select null::float8 as "bucket",
       (select coalesce(sum(k."n"), 0) from contact_counts k where k."project_id" = ?)
         - (select count(*) from contacts c where c."project_id" = ? and c."created_at" >= ?) as "n"
     union all
     select (extract(epoch from date_bin(? * interval '1 millisecond', c."created_at", timestamptz 'epoch')) * 1000)::float8, count(*)
     from contacts c where c."project_id" = ? and c."created_at" >= ? and c."created_at" < ? group by 1`,
    [projectId, projectId, aligned.from, unit, projectId, aligned.from, aligned.to],
  );
  const before = Number(rows.find((r) => r.bucket === null)?.n ?? 0);
  const created = new Map(rows.filter((r) => r.bucket !== null).map((r) => [Number(r.bucket), Number(r.n)]));
  let total = before;
  const series = Array.from({ length: points }, (_, i) => {
    const at = aligned.from.getTime() + i * unit;
    const n = created.get(at) ?? 0;
    total += n;
    return { time: new Date(at).toISOString(), created: n, total };
  });
  return { interval, ...rangeView(aligned), before, points: series, totals: { created: total - before, total } };
}
