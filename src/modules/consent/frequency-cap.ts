import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/prepared';
import type { SqlCondition } from '../filters/sql';

/**
 * The project's frequency cap (docs/projects.md "Frequency cap"): at most `maxEmails` marketing emails per
 * contact in any `windowDays` days, across campaigns and automations. It counts a contact's marketing emails
 * of campaigns and automations that went or are going out (not FAILED, CANCELLED or SUPPRESSED); /v1/send
 * and TRANSACTIONAL templates and campaigns are neither counted nor held back. Senders take the contact's row
 * lock (`lockForCap`) before they count and keep it until their email is inserted, so two sends to the same
 * contact at once are counted one after the other: a cap of 1 lets one of them through.
 */
export interface FrequencyCapSetting {
  maxEmails: number;
  windowDays: number;
}

/** The emails `emails e` that a cap counts (emails_contact_marketing_created_index, migration 0159, finds them by contact and `marketing`). */
const COUNTED = `e."marketing" and e."source_type" <> 'TRANSACTIONAL' and e."status" not in ('FAILED', 'CANCELLED', 'SUPPRESSED')`;

const CAP = 'select "frequency_cap_max" as "max", "frequency_cap_days" as "days" from projects where "id" = ?';

/** The project's cap; null when it has none. */
export async function frequencyCapOf(em: EntityManager, projectId: string): Promise<FrequencyCapSetting | null> {
  const [row] = await executePrepared<{ max: number | null; days: number | null }>(em, 'frequency_cap_of', CAP, [projectId]);
  return row?.max != null && row.days != null ? { maxEmails: row.max, windowDays: row.days } : null;
}

/**
 * Locks the contacts for counting, in id order (every sender takes them so, and an automation one at a time,
 * so no two wait for each other): FOR NO KEY UPDATE, which other senders wait for and foreign keys do not.
 * Run it as a statement of its own before the count: the count's snapshot must be taken once the lock is held.
 */
export async function lockForCap(tx: EntityManager, contactIds: SqlCondition): Promise<void> {
  await tx.execute(
    `select c."id" from contacts c where c."id" in (${contactIds.sql}) order by c."id" for no key update`,
    contactIds.params,
  );
}

/** SQL with its values, each placeholder's in order. */
const sql = (text: string, ...params: unknown[]): SqlCondition => ({ sql: text, params });

/**
 * As SQL: the instant the contact with id `contact` may next receive marketing, or null while it may now:
 * with `maxEmails` counted emails after `now` minus the window, when the oldest of the last `maxEmails` leaves
 * the window. `except` leaves out the sender's own email (a retried send decides the same again).
 */
export function cappedUntilSql(contact: SqlCondition, cap: FrequencyCapSetting, now: SqlCondition, except: SqlCondition): SqlCondition {
  return sql(
    `(select e."created_at" + make_interval(days => ?::int) from emails e
      where e."contact_id" = ${contact.sql} and ${COUNTED} and e."created_at" > ${now.sql} - make_interval(days => ?::int)
        and not coalesce(${except.sql}, false)
      order by e."created_at" desc offset ?::int limit 1)`,
    cap.windowDays,
    ...contact.params,
    ...now.params,
    cap.windowDays,
    ...except.params,
    cap.maxEmails - 1,
  );
}

/**
 * For an automation step's email to the contact, under `cap`, with the contact locked (`lockForCap`): when it
 * may go, or null when it may now, or when the step's email already exists (an activity that runs again).
 * `now` is the workflow's clock (time-skipped in tests).
 */
export async function stepCappedUntil(
  tx: EntityManager,
  cap: FrequencyCapSetting,
  contactId: string,
  now: Date,
  step: { executionId: string; stepId: string },
): Promise<Date | null> {
  const own = sql('e."workflow_execution_id" = ?::uuid and e."workflow_step_id" = ?::uuid', step.executionId, step.stepId);
  const until = cappedUntilSql(sql('?::uuid', contactId), cap, sql('?::timestamptz', now.toISOString()), own);
  const [row] = await executePrepared<{ sent: boolean; until: Date | null }>(
    tx,
    'frequency_cap_step',
    `select exists (select 1 from emails e where ${own.sql}) as "sent", ${until.sql} as "until"`,
    [...own.params, ...until.params],
  );
  return row && !row.sent && row.until ? new Date(row.until) : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** cappedUntilSql over instants in memory (ms), for a simulation: when a marketing email may go, or null for now. */
export function cappedUntil(sent: readonly number[], cap: FrequencyCapSetting, now: number): number | null {
  const windowMs = cap.windowDays * DAY_MS;
  const inWindow = sent.filter((t) => t > now - windowMs).sort((a, b) => b - a);
  return inWindow.length >= cap.maxEmails ? inWindow[cap.maxEmails - 1]! + windowMs : null;
}

/** The instants of the contact's emails a cap counts, in the last `days` days. */
export async function countedEmailTimes(em: EntityManager, contactId: string, days: number): Promise<number[]> {
  const rows = await em.execute<Array<{ created_at: Date }>>(
    `select e."created_at" from emails e where e."contact_id" = ? and ${COUNTED} and e."created_at" > now() - make_interval(days => ?::int)`,
    [contactId, days],
  );
  return rows.map((r) => new Date(r.created_at).getTime());
}
