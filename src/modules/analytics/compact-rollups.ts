import type { EntityManager } from '@mikro-orm/postgresql';
import { STAGES } from './stages';

/**
 * Folds the slots of past hours into slot 0. Slots (migration 0025) keep the concurrent writers of the
 * current hour apart; once an hour is over, nobody needs that, and a reader over a year would otherwise read
 * up to 16 rows per hour and key. What still reaches a folded hour later (an email that fails counts out of
 * the hour it was recorded in) lands in a slot again and is folded at the next pass.
 */
const FOLD_EVENTS = `
with moved as (
  delete from event_stats where "slot" <> 0 and "hour" < ? returning "project_id", "hour", "name", "count")
insert into event_stats ("project_id", "hour", "name", "slot", "count")
select "project_id", "hour", "name", 0, sum("count") from moved group by 1, 2, 3 order by 1, 2, 3
on conflict ("project_id", "hour", "name", "slot") do update set "count" = event_stats."count" + excluded."count"`;

/**
 * email_stats' key and counters (migrations 0024, 0040): the fold deletes whole rows and writes these back, so a
 * column missing here would be lost (test/analytics/compaction.test.ts compares the lists with the table).
 */
export const EMAIL_KEY = ['project_id', 'hour', 'source_type', 'campaign_id', 'simulated'];
export const EMAIL_COUNTERS = ['billable', ...STAGES, 'failed', 'hard_bounced'];
const KEY_POSITIONS = EMAIL_KEY.map((_, i) => i + 1).join(', ');
const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');
const FOLD_EMAILS = `
with moved as (
  delete from email_stats where "slot" <> 0 and "hour" < ? returning ${quoted(EMAIL_KEY)}, ${quoted(EMAIL_COUNTERS)})
insert into email_stats (${quoted(EMAIL_KEY)}, "slot", ${quoted(EMAIL_COUNTERS)})
select ${quoted(EMAIL_KEY)}, 0, ${EMAIL_COUNTERS.map((c) => `sum("${c}")`).join(', ')} from moved group by ${KEY_POSITIONS} order by ${KEY_POSITIONS}
on conflict (${quoted(EMAIL_KEY)}, "slot") do update set ${EMAIL_COUNTERS.map((c) => `"${c}" = email_stats."${c}" + excluded."${c}"`).join(', ')}`;

/** One pass at a time across workers: two would only wait on each other's rows. */
const LOCK = `select pg_try_advisory_xact_lock(hashtext('postwire:compact-rollups')) as "locked"`;

/** Folds every hour before `before`: the slot-0 rows written, or null when another pass holds the lock. */
export async function compactRollups(em: EntityManager, before: Date): Promise<{ emailRows: number; eventRows: number } | null> {
  return em.transactional(async (tx) => {
    const [lock] = await tx.execute<Array<{ locked: boolean }>>(LOCK);
    if (!lock?.locked) return null;
    const events = await tx.execute<{ affectedRows: number }>(FOLD_EVENTS, [before], 'run');
    const emails = await tx.execute<{ affectedRows: number }>(FOLD_EMAILS, [before], 'run');
    return { emailRows: emails.affectedRows, eventRows: events.affectedRows };
  });
}

/** Hours that ended at least this long ago are folded: writers have moved on from them. */
export const FOLD_AFTER_MS = 2 * 60 * 60_000;
