import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { requestConfirmation, type RequestedConfirmation } from '../consent/confirmations';
import { normalizeEmail } from '../contacts/email';
import { Contact } from '../contacts/entities';
import { upsertContact } from '../contacts/write';
import { recordEvents } from '../outbox/record';
import { changeTopics } from '../topics/memberships';
import type { SignupForm } from './entities';
import { parseSubmission, type FieldValue } from './fields';
import { overAddressLimit, overClientLimit } from './guard';
import { HONEYPOT_FIELD, START_FIELD } from './markup';
import { checkStart } from './start-token';

export interface SubmitDeps {
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
}

/** What a submission came to (docs/consent.md "Signup forms"); only `done` stored anything. */
export type SubmitOutcome =
  /** The honeypot was filled: a bot. */
  | { kind: 'refused' }
  /** Over a limit: wait this many seconds. */
  | { kind: 'limited'; retryAfter: number }
  /** Not taken: the form comes back with the values typed, a fresh start token, the notice and each field's error. */
  | { kind: 'again'; notice: string; values: Record<string, FieldValue> }
  | { kind: 'done'; email: string; confirmation: RequestedConfirmation | null };

const NOTICES = {
  missing: 'Please submit the form again.',
  too_old: 'The form was open for a long time: please submit it again.',
  too_fast: 'That was quick! Please check the form and submit it again.',
  invalid: 'Please correct the fields marked below.',
} as const;

/**
 * A submission of `form` from `client`, checked in this order: the client's limit, the honeypot, the start
 * token (shown long enough ago, not too long), the fields, the address's limit. Only then is anything written,
 * in one transaction: the contact and its topics, or with double opt-in a pending confirmation and its email;
 * and `form.submitted`. Every write is scoped to the form's own project.
 */
export async function submitForm(
  em: EntityManager,
  deps: SubmitDeps,
  form: SignupForm,
  body: Record<string, string>,
  client: string,
): Promise<SubmitOutcome> {
  const clientWait = await overClientLimit(em, deps, form.projectId, client);
  if (clientWait !== null) return { kind: 'limited', retryAfter: clientWait };
  if ((body[HONEYPOT_FIELD] ?? '') !== '') return { kind: 'refused' };
  const parsed = parseSubmission(form.fields, body);
  const start = checkStart(deps.config, form.id, body[START_FIELD], Date.now(), deps.config.SIGNUP_MIN_FILL_SECONDS * 1000);
  if (start !== 'ok') return { kind: 'again', notice: NOTICES[start], values: parsed.values };
  if (!parsed.valid) return { kind: 'again', notice: NOTICES.invalid, values: parsed.values };
  const email = normalizeEmail(parsed.email!);
  const addressWait = await overAddressLimit(em, deps, form.projectId, email);
  if (addressWait !== null) return { kind: 'limited', retryAfter: addressWait };
  const confirmation = await em.transactional((tx) =>
    form.doubleOptIn ? signUpToConfirm(tx, deps, form, email, parsed.data) : signUp(tx, form, email, parsed.data),
  );
  return { kind: 'done', email, confirmation };
}

const submitted = (tx: EntityManager, form: SignupForm, contactId: string) =>
  recordEvents(tx, [
    {
      projectId: form.projectId,
      contactId,
      name: 'form.submitted',
      data: { formId: form.id, formName: form.name, doubleOptIn: form.doubleOptIn },
    },
  ]);

/** Single opt-in: the signup subscribes the contact and joins the form's topics at once. */
async function signUp(tx: EntityManager, form: SignupForm, email: string, data: Record<string, unknown>): Promise<null> {
  const { contact } = await upsertContact(tx, form.projectId, { email, subscribed: true, data }, { defaultSubscribed: true });
  await changeTopics(
    tx,
    form.projectId,
    contact.id,
    form.topicIds.map((topicId) => ({ topicId, member: true })),
    'form',
  );
  submitted(tx, form, contact.id);
  return null;
}

/**
 * Double opt-in: a new contact is created unsubscribed with the form's data; an existing one is left as it is
 * (whoever typed the address may not own it). Subscribing, the topics and the data wait for the link.
 */
async function signUpToConfirm(
  tx: EntityManager,
  deps: SubmitDeps,
  form: SignupForm,
  email: string,
  data: Record<string, unknown>,
): Promise<RequestedConfirmation> {
  if (!form.confirmationTemplateId) {
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This form cannot take signups now: its confirmation email is missing');
  }
  const existing = await tx.findOne(Contact, { projectId: form.projectId, email });
  const contact =
    existing ?? (await upsertContact(tx, form.projectId, { email, subscribed: false, data }, { defaultSubscribed: false })).contact;
  const confirmation = await requestConfirmation(tx, deps, {
    projectId: form.projectId,
    contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
    formId: form.id,
    templateId: form.confirmationTemplateId,
    intent: { subscribe: true, topicIds: form.topicIds, data },
  });
  submitted(tx, form, contact.id);
  return confirmation;
}
