import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { startSnooze, stopSnooze } from '../../temporal/consent';
import { callTemporal } from '../../temporal/unavailable';
import { recordEvents } from '../outbox/record';

/** The pauses a contact may choose (docs/consent.md "Snooze"); a month is 30 days. */
export const SNOOZE_PERIODS = ['TWO_WEEKS', 'ONE_MONTH', 'THREE_MONTHS'] as const;
export type SnoozePeriod = (typeof SNOOZE_PERIODS)[number];

const DAY = 86_400_000;
const PERIOD_DAYS: Record<SnoozePeriod, number> = { TWO_WEEKS: 14, ONE_MONTH: 30, THREE_MONTHS: 90 };

/** Words for a period on the pages. */
export const PERIOD_WORDS: Record<SnoozePeriod, string> = { TWO_WEEKS: '2 weeks', ONE_MONTH: '1 month', THREE_MONTHS: '3 months' };

export const snoozeEnd = (period: SnoozePeriod, from: Date) => new Date(from.getTime() + PERIOD_DAYS[period] * DAY);

/** Who snoozed or ended a snooze: the `reason` of contact.snoozed / contact.unsnoozed. */
export type SnoozeReason = 'api' | 'preferences_page';

interface ContactRef {
  projectId: string;
  contactId: string;
}

const lockContact = async (tx: EntityManager, ref: ContactRef) =>
  (
    await tx.execute<Array<{ id: string }>>('select "id" from contacts where "id" = ? and "project_id" = ? for update', [
      ref.contactId,
      ref.projectId,
    ])
  ).length > 0;

/**
 * Pauses marketing to the contact for `period`: the snooze is recorded with contact.snoozed `{ until, period,
 * reason }` and its workflow started (or moved, when the contact was snoozed already) in the same
 * transaction, so a Temporal that cannot be reached leaves nothing changed (503). Null for a contact that is
 * not the project's.
 */
export async function snoozeContact(
  em: EntityManager,
  temporal: TemporalGateway,
  ref: ContactRef,
  period: SnoozePeriod,
  reason: SnoozeReason,
): Promise<Date | null> {
  return em.transactional(
    async (tx) => {
      if (!(await lockContact(tx, ref))) return null;
      const now = new Date();
      const until = snoozeEnd(period, now);
      await tx.execute(
        `insert into contact_consent ("contact_id", "snoozed_until", "snoozed_at") values (?, ?, now())
         on conflict ("contact_id") do update set "snoozed_until" = excluded."snoozed_until", "snoozed_at" = excluded."snoozed_at"`,
        [ref.contactId, until],
      );
      recordEvents(tx, [{ ...ref, name: 'contact.snoozed', data: { until: until.toISOString(), period, reason } }]);
      await tx.flush();
      const end = { until: until.toISOString(), ms: until.getTime() - now.getTime() };
      await callTemporal('the contact was not snoozed', () => startSnooze(temporal, ref, end));
      return until;
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}

/**
 * Ends the contact's snooze now in the caller's transaction, recording contact.unsnoozed `{ reason,
 * snoozedUntil }`. The workflow is to be told after the commit (`tellSnoozeEnded`); it would otherwise find
 * nothing to end when its timer fires. False when the contact was not snoozed, null when it is not the project's.
 */
export async function clearSnooze(em: EntityManager, ref: ContactRef, reason: SnoozeReason): Promise<boolean | null> {
  return em.transactional(
    async (tx) => {
      if (!(await lockContact(tx, ref))) return null;
      const [row] = await tx.execute<Array<{ snoozed_until: string }>>(
        `update contact_consent h set "snoozed_until" = null, "snoozed_at" = null
         from (select "snoozed_until" from contact_consent where "contact_id" = ? and "snoozed_until" is not null) old
         where h."contact_id" = ? returning old."snoozed_until"`,
        [ref.contactId, ref.contactId],
      );
      if (!row) return false;
      recordEvents(tx, [{ ...ref, name: 'contact.unsnoozed', data: { reason, snoozedUntil: new Date(row.snoozed_until).toISOString() } }]);
      return true;
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}

/** Tells the snooze workflow that its snooze ended early, once that is committed; a failure is only logged. */
export async function tellSnoozeEnded(deps: { temporal: TemporalGateway; logger: Logger }, contactId: string): Promise<void> {
  await stopSnooze(deps.temporal, contactId).catch((err: unknown) =>
    deps.logger.warn({ err, contactId }, 'could not tell the snooze workflow it ended early; its timer will find nothing to end'),
  );
}

/** Ends the contact's snooze now (the preference page's "Resume now"); see `clearSnooze`. */
export async function resumeContact(
  em: EntityManager,
  deps: { temporal: TemporalGateway; logger: Logger },
  ref: ContactRef,
  reason: SnoozeReason,
): Promise<boolean | null> {
  const ended = await em.transactional((tx) => clearSnooze(tx, ref, reason));
  if (ended) await tellSnoozeEnded(deps, ref.contactId);
  return ended;
}
