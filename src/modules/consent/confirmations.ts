import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { newId } from '../../db/columns';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { settleConfirmation, startConfirmation } from '../../temporal/consent';
import { callTemporal } from '../../temporal/unavailable';
import { CONFIRMATION_TTL_MS } from '../../../workflows/consent/ids';
import { updateContact } from '../contacts/write';
import { recordEvents } from '../outbox/record';
import type { RecipientContact } from '../templates/render';
import { changeTopics } from '../topics/memberships';
import { queueConfirmationEmail } from './confirmation-email';

/**
 * Double opt-in (docs/consent.md "Double opt-in"): a signup that asks for it records what it wants (its
 * intent) in a pending confirmation and mails the link; following the link applies the intent. One pending
 * confirmation per contact: a second signup adds its intent to it and mails the link again at most once an
 * hour. Its workflow reminds once after a day and expires it after a week.
 */

/** What confirming applies. */
export interface ConfirmationIntent {
  subscribe: boolean;
  topicIds: string[];
  data: Record<string, unknown>;
}

export interface ConfirmationRequest {
  projectId: string;
  contact: RecipientContact;
  formId: string | null;
  templateId: string;
  intent: ConfirmationIntent;
}

/** Whether this signup mailed the link: a new confirmation, one extended and mailed again, or one mailed within the hour. */
export const CONFIRMATION_SENDS = ['SENT', 'RESENT', 'NOT_RESENT'] as const;
export type ConfirmationSend = (typeof CONFIRMATION_SENDS)[number];

export interface RequestedConfirmation {
  status: ConfirmationSend;
  expiresAt: string;
}

interface PendingRow {
  id: string;
  intent: ConfirmationIntent;
  expires_at: string;
  due: boolean;
}

const mergeIntents = (a: ConfirmationIntent, b: ConfirmationIntent): ConfirmationIntent => ({
  subscribe: a.subscribe || b.subscribe,
  topicIds: [...new Set([...a.topicIds, ...b.topicIds])],
  data: { ...a.data, ...b.data },
});

/**
 * Records a signup that must be confirmed, in the caller's transaction: a contact that may not receive
 * marketing yet (not subscribed) is marked unconfirmed, and the link is mailed (see above). A new
 * confirmation's workflow is started in the transaction, so that a Temporal that cannot be reached leaves
 * nothing stored (503).
 */
export async function requestConfirmation(
  em: EntityManager,
  deps: { config: Config; temporal: TemporalGateway },
  req: ConfirmationRequest,
): Promise<RequestedConfirmation> {
  return em.transactional(
    async (tx) => {
      const contactId = req.contact.id;
      await tx.execute('select 1 from contacts where "id" = ? for update', [contactId]);
      if (!req.contact.subscribed) {
        await tx.execute(
          `insert into contact_consent ("contact_id", "unconfirmed") values (?, true)
           on conflict ("contact_id") do update set "unconfirmed" = true`,
          [contactId],
        );
      }
      // A confirmation whose week is over counts as expired even if its workflow has not said so yet.
      await tx.execute(
        `update confirmations set "status" = 'EXPIRED', "updated_at" = now() where "contact_id" = ? and "status" = 'PENDING' and "expires_at" <= now()`,
        [contactId],
      );
      const mail = (confirmationId: string) => ({
        confirmationId,
        projectId: req.projectId,
        templateId: req.templateId,
        contact: req.contact,
        reminder: false,
      });
      const [pending] = await tx.execute<PendingRow[]>(
        `select "id", "intent", "expires_at", "last_sent_at" <= now() - interval '1 hour' as "due"
         from confirmations where "contact_id" = ? and "status" = 'PENDING' for update`,
        [contactId],
      );
      if (pending) {
        await tx.execute(
          `update confirmations set "intent" = ?, "form_id" = coalesce(?, "form_id"), "template_id" = ?, "updated_at" = now(),
             "last_sent_at" = case when ? then now() else "last_sent_at" end, "sent_count" = "sent_count" + case when ? then 1 else 0 end
           where "id" = ?`,
          [JSON.stringify(mergeIntents(pending.intent, req.intent)), req.formId, req.templateId, pending.due, pending.due, pending.id],
        );
        if (pending.due) await queueConfirmationEmail(tx, deps.config, mail(pending.id));
        return { status: pending.due ? 'RESENT' : 'NOT_RESENT', expiresAt: new Date(pending.expires_at).toISOString() };
      }
      const id = newId();
      const expiresAt = new Date(Date.now() + CONFIRMATION_TTL_MS);
      await tx.execute(
        `insert into confirmations ("id", "created_at", "updated_at", "project_id", "contact_id", "form_id", "template_id", "status",
           "intent", "expires_at", "last_sent_at")
         values (?, now(), now(), ?, ?, ?, ?, 'PENDING', ?, ?, now())`,
        [id, req.projectId, contactId, req.formId, req.templateId, JSON.stringify(req.intent), expiresAt],
      );
      await queueConfirmationEmail(tx, deps.config, mail(id));
      await callTemporal('the signup was not recorded', () =>
        startConfirmation(deps.temporal, { id, projectId: req.projectId, contactId }),
      );
      return { status: 'SENT', expiresAt: expiresAt.toISOString() };
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}

/** Where a confirmation stands, as its page shows it. */
export interface ConfirmationState {
  status: 'PENDING' | 'CONFIRMED' | 'EXPIRED';
  projectId: string;
  contactId: string;
  email: string;
  projectName: string;
}

interface StateRow {
  id: string;
  status: ConfirmationState['status'];
  overdue: boolean;
  project_id: string;
  contact_id: string;
  form_id: string | null;
  intent: ConfirmationIntent;
  email: string;
  project_name: string;
}

const STATE = `
select f."id", f."status", f."expires_at" <= now() as "overdue", f."project_id", f."contact_id", f."form_id", f."intent",
  c."email", p."name" as "project_name"
from confirmations f join contacts c on c."id" = f."contact_id" join projects p on p."id" = f."project_id" where f."id" = ?`;

const stateOf = (row: StateRow): ConfirmationState => ({
  status: row.status === 'PENDING' && row.overdue ? 'EXPIRED' : row.status,
  projectId: row.project_id,
  contactId: row.contact_id,
  email: row.email,
  projectName: row.project_name,
});

/** The confirmation `id` names, or null when there is none (its contact was deleted). */
export async function confirmationState(em: EntityManager, id: string): Promise<ConfirmationState | null> {
  const [row] = await em.execute<StateRow[]>(STATE, [id]);
  return row ? stateOf(row) : null;
}

/**
 * Confirms: applies the intent (subscribes, joins the topics, stores the data, each recording its events with
 * reason `confirmation`), marks the contact confirmed and records contact.confirmed `{ confirmationId, formId }`,
 * all in one transaction; then ends the confirmation's workflow. Confirming again changes nothing. Answers the
 * state after, or null for a confirmation that is gone.
 */
export async function confirm(
  em: EntityManager,
  deps: { temporal: TemporalGateway; logger: Logger },
  id: string,
): Promise<ConfirmationState | null> {
  const outcome = await em.transactional(async (tx) => {
    const [row] = await tx.execute<StateRow[]>(`${STATE} for update of f`, [id]);
    if (!row) return null;
    const state = stateOf(row);
    if (state.status !== 'PENDING') return { state, confirmed: false };
    const { intent } = row;
    const ref = { projectId: row.project_id, contactId: row.contact_id };
    await updateContact(
      tx,
      ref.projectId,
      ref.contactId,
      { ...(intent.subscribe ? { subscribed: true } : {}), data: intent.data },
      { reason: 'confirmation' },
    );
    await changeTopics(
      tx,
      ref.projectId,
      ref.contactId,
      intent.topicIds.map((topicId) => ({ topicId, member: true })),
      'confirmation',
    );
    await tx.execute(
      `insert into contact_consent ("contact_id", "unconfirmed", "confirmed_at") values (?, false, now())
       on conflict ("contact_id") do update set "unconfirmed" = false, "confirmed_at" = now()`,
      [ref.contactId],
    );
    await tx.execute(`update confirmations set "status" = 'CONFIRMED', "confirmed_at" = now(), "updated_at" = now() where "id" = ?`, [id]);
    recordEvents(tx, [{ ...ref, name: 'contact.confirmed', data: { confirmationId: id, formId: row.form_id } }]);
    return { state: { ...state, status: 'CONFIRMED' as const }, confirmed: true };
  });
  if (outcome?.confirmed) {
    await settleConfirmation(deps.temporal, id).catch((err: unknown) =>
      deps.logger.warn({ err, confirmationId: id }, 'could not end the confirmation workflow; its activities will find it confirmed'),
    );
  }
  return outcome?.state ?? null;
}
