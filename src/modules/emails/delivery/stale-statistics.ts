import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The tables every pump statement reads by primary key, whose planner statistics can say "empty" while they
 * hold a campaign: the queue empties after every campaign, and an ANALYZE (or VACUUM) of an emptied table
 * records no rows over pages that are still there, so that PostgreSQL then estimates a row or so however many
 * the pages hold. With that estimate it reads whole tables per statement (the claim joined a batch against
 * every email, 66 ms a claim at 5,000 emails) until autovacuum analyzes again, a minute or more later: a
 * campaign's PostgreSQL CPU per email was 4 times its steady figure (docs/contributors/campaigns.md).
 */
const TABLES = ['email_queue', 'emails'] as const;

// Only tables this role may analyze (PostgreSQL 17's MAINTAIN: the owner's, or granted): for any other, ANALYZE
// only warns and leaves the estimate as it was, so every full claim would ask again.
const STALE = `select c."relname" from pg_class c
where c."oid" in (${TABLES.map((t) => `'${t}'::regclass`).join(', ')}) and c."reltuples" < ?
  and has_table_privilege(c."oid", 'MAINTAIN')`;

/**
 * Analyzes those of the tables whose statistics estimate fewer rows than `due` (emails just found due, each
 * with its queue row and its email row): the names of the tables analyzed. A catalog lookup when they are
 * fresh; an ANALYZE, a sample of at most 30,000 rows, when not.
 */
export async function analyzeStaleTables(em: EntityManager, due: number): Promise<string[]> {
  const stale = await em.execute<{ relname: (typeof TABLES)[number] }[]>(STALE, [due]);
  for (const { relname } of stale) await em.execute(`analyze "${relname}"`);
  return stale.map((t) => t.relname);
}
