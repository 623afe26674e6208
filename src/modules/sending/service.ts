import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError, type FieldError } from '../../http/errors';
import type { TemporalGateway } from '../../temporal/client';
import { callTemporal } from '../../temporal/unavailable';
import { ensureScheduledRelease } from '../../temporal/scheduled-emails';
import { bucketOf } from '../../../workflows/scheduled-emails/ids';
import type { DataInput } from '../contacts/custom-fields';
import { assertWithinBillingCap, type CapStanding } from '../billing/caps';
import { upsertContact } from '../contacts/write';
import { assertRecentlyVerifiedSender } from '../domains/verified-senders';
import type { Project } from '../projects/entities';
import type { Template } from '../templates/entities';
import { TemplateError, templateSyntaxProblems } from '../templates/render';
import { findTemplate } from '../templates/service';
import { MAX_MESSAGE_BYTES, messageSize, type Mailbox, type OutgoingAttachment } from '../emails/compose';
import { draftFor, type DraftContent } from '../emails/draft';
import { enqueueEmails, type EmailDraft } from '../emails/enqueue';
import { assertSendableRecipients } from '../sandbox/addresses';
import type { SendBody } from './schemas';

/** What sending needs besides the request's entity manager; the SMTP relay passes the same. */
export interface SendingDeps {
  config: Config;
  temporal: TemporalGateway;
}

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
  /** ISO 8601 when the email waits for its time; null when it is sent now. */
  scheduledAt: string | null;
}

/** A `sendAt` this close (or past) means now (docs/sending.md "Scheduled sends"). */
const NOW_WITHIN_MS = 5_000;

/** When a send is due: null (now) for no `sendAt`, a past one, or one within 5 s. */
export const scheduledTime = (sendAt: Date | undefined, now = Date.now()): Date | null =>
  sendAt && sendAt.getTime() - now > NOW_WITHIN_MS ? sendAt : null;

/** A /v1/send body checked against the project, before anything is written. */
interface CheckedSend {
  body: SendBody;
  content: DraftContent;
  recipients: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  attachments: OutgoingAttachment[];
  scheduledAt: Date | null;
}

/** The template supplies subject, body, text, sender and reply-to; the request's fields override each. */
function contentOf(body: SendBody, template: Template | null): DraftContent {
  const from: Mailbox =
    typeof body.from === 'string'
      ? { email: body.from, name: body.name ?? template?.fromName ?? null }
      : body.from
        ? { email: body.from.email, name: body.from.name ?? null }
        : { email: template!.from, name: template!.fromName };
  return {
    subject: body.subject ?? template!.subject,
    body: body.body ?? template!.body,
    text: body.text ?? template?.text ?? null,
    from,
    replyTo: body.reply ?? template?.replyTo ?? null,
    templateId: template?.id ?? null,
    marketing: template?.type === 'MARKETING',
    tags: body.tags ?? {},
  };
}

const templateFailure = (problems: Array<{ field: string; message: string }>) =>
  new ApiError(422, 'VALIDATION_ERROR', `The email does not render: ${problems[0]!.field} ${problems[0]!.message}`, {
    errors: problems.map((p) => ({ field: p.field, message: p.message, code: 'invalid_template' })),
    suggestion: 'Fix the Liquid in the field named; see docs/templates.md for the notation.',
  });

const tooLarge = (size: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The message would be ${(size / 1024 / 1024).toFixed(1)} MB; at most 40 MB is accepted`, {
    details: { size, limit: MAX_MESSAGE_BYTES },
    suggestion: 'Send smaller attachments, or link to large files instead of attaching them.',
  });

const mailboxes = (value: SendBody['to'] | undefined): Mailbox[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((r) => (typeof r === 'string' ? { email: r } : r));

const decode = (attachments: SendBody['attachments'] = []): OutgoingAttachment[] =>
  attachments.map((a) => ({
    filename: a.filename,
    content: Buffer.from(a.content, 'base64'),
    contentType: a.contentType,
    contentId: a.contentId ?? null,
    disposition: a.disposition,
  }));

/** How a check reads a template of the project: a batch reads each template once, however many items name it. */
type TemplateReader = (id: string) => Promise<Template>;

function templateReader(em: EntityManager, projectId: string): TemplateReader {
  const read = new Map<string, Promise<Template>>();
  return (id) => {
    let template = read.get(id);
    if (!template) read.set(id, (template = findTemplate(em, projectId, id)));
    return template;
  };
}

/** The checks that read the project (template, sender domain, sandbox addresses), in the order a caller sees them. */
async function check(
  em: EntityManager,
  config: Config,
  projectId: string,
  body: SendBody,
  now: number,
  templateOf: TemplateReader,
): Promise<CheckedSend> {
  const template = body.template ? await templateOf(body.template) : null;
  const content = contentOf(body, template);
  const problems = templateSyntaxProblems(content);
  if (problems.length > 0) throw templateFailure(problems);
  await assertRecentlyVerifiedSender(em, projectId, content.from.email);
  const [recipients, cc, bcc] = [mailboxes(body.to), mailboxes(body.cc), mailboxes(body.bcc)];
  const fields = (name: string, value: unknown, list: Mailbox[]) =>
    list.map((r, i) => ({ field: Array.isArray(value) ? `${name}.${i}` : name, email: r.email }));
  assertSendableRecipients(config, [...fields('to', body.to, recipients), ...fields('cc', body.cc, cc), ...fields('bcc', body.bcc, bcc)]);
  return { body, content, recipients, cc, bcc, attachments: decode(body.attachments), scheduledAt: scheduledTime(body.sendAt, now) };
}

/**
 * The emails of one checked send, in the caller's transaction: each recipient in turn has its contact created
 * or updated (new contacts unsubscribed unless the request says otherwise) and its own email rendered. A
 * template that does not render is a 422, a message over 40 MB a 413.
 */
async function draftsOf(tx: EntityManager, config: Config, projectId: string, send: CheckedSend): Promise<EmailDraft[]> {
  const { body } = send;
  const drafts: EmailDraft[] = [];
  for (const recipient of send.recipients) {
    const data: DataInput | undefined = recipient.name ? { ...body.data, name: recipient.name } : body.data;
    const { contact } = await upsertContact(
      tx,
      projectId,
      { email: recipient.email, subscribed: body.subscribed, data },
      { defaultSubscribed: false },
    );
    let rendered: EmailDraft;
    try {
      rendered = await draftFor(config, send.content, {
        projectId,
        contact,
        sourceType: 'TRANSACTIONAL',
        to: { email: contact.email, name: recipient.name ?? null },
        data,
      });
    } catch (err) {
      if (err instanceof TemplateError) throw templateFailure([{ field: 'body', message: err.message }]);
      throw err;
    }
    const draft: EmailDraft = {
      ...rendered,
      cc: send.cc,
      bcc: send.bcc,
      headers: body.headers ?? {},
      attachments: send.attachments,
      scheduledAt: send.scheduledAt,
    };
    const size = messageSize(draft);
    if (size > MAX_MESSAGE_BYTES) throw tooLarge(size);
    drafts.push(draft);
  }
  return drafts;
}

/**
 * Queues the TRANSACTIONAL drafts of one request in its transaction, after the billing cap allowed all of
 * them (403 BILLING_LIMIT_EXCEEDED otherwise, nothing recorded), and makes sure of the timer of each second
 * that scheduled ones are due in, before the transaction commits: Temporal unreachable is a 503 that records
 * nothing. sendEmails and sendBatch end here; a producer that composes its drafts itself (the SMTP relay) too.
 */
export async function queueDrafts(
  tx: EntityManager,
  deps: SendingDeps,
  project: Project,
  drafts: EmailDraft[],
): Promise<{ sent: SentEmail[]; cap: CapStanding | null }> {
  const cap = await assertWithinBillingCap(
    tx,
    deps.config,
    project,
    'TRANSACTIONAL',
    drafts.map((d) => d.to.email),
  );
  const enqueued = await enqueueEmails(tx, drafts);
  const sent = drafts.map((draft, i): SentEmail => ({
    contact: { id: draft.contactId!, email: draft.to.email },
    email: enqueued[i]!.id,
    scheduledAt: draft.scheduledAt?.toISOString() ?? null,
  }));
  // One timer per second the emails are due in, however many emails share it.
  const seconds = new Map(drafts.flatMap((d) => (d.scheduledAt ? [[bucketOf(d.scheduledAt).getTime(), d.scheduledAt] as const] : [])));
  if (seconds.size) {
    await callTemporal('no email was recorded', () =>
      Promise.all([...seconds.values()].map((at) => ensureScheduledRelease(deps.temporal, project.id, at))),
    );
  }
  return { sent, cap };
}

/**
 * The per-recipient send pipeline of POST /v1/send, for every caller that has a validated send (the HTTP
 * route, the SMTP relay): checks, then in one transaction the contacts, the rendered emails, the billing cap
 * and the emails recorded (each scheduled one on its timer). A request that fails part-way records and sends
 * nothing. The delivery pump sends the emails once committed; the suppression list is asked there.
 */
export async function sendEmails(
  em: EntityManager,
  deps: SendingDeps,
  project: Project,
  body: SendBody,
): Promise<{ emails: SentEmail[]; cap: CapStanding | null }> {
  const checked = await check(em, deps.config, project.id, body, Date.now(), (id) => findTemplate(em, project.id, id));
  return em.transactional(async (tx) => {
    const { sent, cap } = await queueDrafts(tx, deps, project, await draftsOf(tx, deps.config, project.id, checked));
    return { emails: sent, cap };
  });
}

/** Where an item's failure is named when it has no field of its own. */
const FIELD_OF_CODE: Record<string, [field: string, code: string]> = {
  TEMPLATE_NOT_FOUND: ['template', 'not_found'],
  INTERNAL_SERVER_ERROR: ['from', 'unverified_domain'],
  PAYLOAD_TOO_LARGE: ['attachments', 'too_big'],
};

/** An item's refusal as field errors prefixed with its index (`[3].subject`); anything else passes through. */
function itemErrors(index: number, err: unknown): FieldError[] {
  if (!(err instanceof ApiError)) throw err;
  const prefix = (field: string) => `[${index}].${field}`;
  if (err.extra.errors?.length) return err.extra.errors.map((e) => ({ ...e, field: prefix(e.field) }));
  const named = FIELD_OF_CODE[err.code];
  if (!named) throw err;
  return [{ field: prefix(named[0]), message: err.message, code: named[1] }];
}

const invalidBatch = (errors: FieldError[]) =>
  new ApiError(
    422,
    'VALIDATION_ERROR',
    `${errors.length} problem(s) in the batch; nothing was sent: ${errors[0]!.field} ${errors[0]!.message}`,
    {
      errors,
      suggestion: 'Fix the items named by index in errors and send the whole batch again.',
    },
  );

/**
 * POST /v1/send/batch: every item is checked and rendered before anything is stored, and every item's
 * problems are reported at once (422, fields prefixed by the item's index). Then all emails are recorded in
 * one transaction under one billing check, so a batch that would pass the cap is refused whole.
 */
export async function sendBatch(
  em: EntityManager,
  deps: SendingDeps,
  project: Project,
  items: SendBody[],
): Promise<{ batch: SentEmail[][]; cap: CapStanding | null }> {
  const now = Date.now();
  const templateOf = templateReader(em, project.id);
  const errors: FieldError[] = [];
  const checked: CheckedSend[] = [];
  for (const [i, body] of items.entries()) {
    try {
      checked.push(await check(em, deps.config, project.id, body, now, templateOf));
    } catch (err) {
      errors.push(...itemErrors(i, err));
    }
  }
  if (errors.length) throw invalidBatch(errors);
  return em.transactional(async (tx) => {
    const drafts: EmailDraft[][] = [];
    for (const [i, send] of checked.entries()) {
      try {
        drafts.push(await draftsOf(tx, deps.config, project.id, send));
      } catch (err) {
        errors.push(...itemErrors(i, err));
      }
    }
    if (errors.length) throw invalidBatch(errors);
    const { sent, cap } = await queueDrafts(tx, deps, project, drafts.flat());
    let at = 0;
    return { batch: drafts.map((d) => sent.slice(at, (at += d.length))), cap };
  });
}
