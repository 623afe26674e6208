import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError, type FieldError } from '../../http/errors';
import type { CapStanding } from '../billing/caps';
import { assertRecentlyVerifiedSender } from '../domains/verified-senders';
import type { Project } from '../projects/entities';
import type { Template } from '../templates/entities';
import { templateSyntaxProblems } from '../templates/render';
import { findTemplate } from '../templates/service';
import type { Mailbox, OutgoingAttachment } from '../emails/outgoing';
import type { DraftContent } from '../emails/draft';
import { assertSendableRecipients } from '../sandbox/addresses';
import type { SendBody } from './schemas';
import type { SendBatcher } from './send-batcher';
import { templateFailure, writeSends, type CheckedSend, type SendingDeps, type SentEmail, type WrittenSend } from './write';

/** A `sendAt` this close (or past) means now (docs/sending.md "Scheduled sends"). */
const NOW_WITHIN_MS = 5_000;

/** When a send is due: null (now) for no `sendAt`, a past one, or one within 5 s. */
export const scheduledTime = (sendAt: Date | undefined, now = Date.now()): Date | null =>
  sendAt && sendAt.getTime() - now > NOW_WITHIN_MS ? sendAt : null;

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
 * The per-recipient send pipeline of POST /v1/send: the checks, then in one transaction the contacts, the
 * rendered emails, the billing cap and the emails recorded (each scheduled one on its timer; write.ts), a
 * transaction that concurrent requests share (send-batcher.ts). A request that fails part-way records and
 * sends nothing.
 */
export async function sendEmails(
  em: EntityManager,
  config: Config,
  batcher: SendBatcher,
  project: Project,
  body: SendBody,
): Promise<WrittenSend> {
  const send = await check(em, config, project.id, body, Date.now(), (id) => findTemplate(em, project.id, id));
  return batcher.write({ project, send });
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
    const written = await writeSends(
      tx,
      deps,
      checked.map((send) => ({ project, send })),
      (i, err) => errors.push(...itemErrors(i, err)),
    );
    if (!written) throw invalidBatch(errors);
    // The cap is the project's, the same for every item.
    return { batch: written.map((w) => w.emails), cap: written[0]?.cap ?? null };
  });
}
