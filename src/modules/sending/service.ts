import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import type { DataInput } from '../contacts/custom-fields';
import { assertWithinBillingCap, type CapStanding } from '../billing/caps';
import { upsertContact } from '../contacts/write';
import { assertRecentlyVerifiedSender } from '../domains/verified-senders';
import type { Project } from '../projects/entities';
import type { Template } from '../templates/entities';
import { TemplateError, templateSyntaxProblems } from '../templates/render';
import { findTemplate } from '../templates/service';
import { MAX_MESSAGE_BYTES, messageSize, type Mailbox, type OutgoingAttachment } from '../emails/compose';
import { draftFor, type DraftContent, type DraftRecipient } from '../emails/draft';
import { enqueueEmails, type EmailDraft } from '../emails/enqueue';
import { assertSendableRecipients } from '../sandbox/addresses';
import type { SendBody } from './schemas';

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
}

/** The template supplies subject, body, sender and reply-to; the request's fields override each. */
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
    from,
    replyTo: body.reply ?? template?.replyTo ?? null,
    templateId: template?.id ?? null,
    marketing: template?.type === 'MARKETING',
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

/** The recipient's email; a template that does not render is the request's 422. */
async function draftOf(config: Config, content: DraftContent, recipient: DraftRecipient): Promise<EmailDraft> {
  try {
    return await draftFor(config, content, recipient);
  } catch (err) {
    if (err instanceof TemplateError) throw templateFailure([{ field: 'body', message: err.message }]);
    throw err;
  }
}

const recipientsOf = (to: SendBody['to']): Mailbox[] =>
  (Array.isArray(to) ? to : [to]).map((r) => (typeof r === 'string' ? { email: r } : r));

const decode = (attachments: SendBody['attachments'] = []): OutgoingAttachment[] =>
  attachments.map((a) => ({
    filename: a.filename,
    content: Buffer.from(a.content, 'base64'),
    contentType: a.contentType,
    contentId: a.contentId ?? null,
    disposition: a.disposition,
  }));

/**
 * POST /v1/send: each recipient in turn has its contact created or updated (new contacts unsubscribed unless
 * the request says otherwise) and its own email rendered and recorded. All of it commits together, so a
 * request that fails part-way (a render that fails, a message too large, the billing cap) records and sends nothing. The
 * delivery pump sends the emails once committed.
 */
export async function sendEmails(
  em: EntityManager,
  config: Config,
  project: Project,
  body: SendBody,
): Promise<{ emails: SentEmail[]; cap: CapStanding | null }> {
  const projectId = project.id;
  const template = body.template ? await findTemplate(em, projectId, body.template) : null;
  const content = contentOf(body, template);
  const problems = templateSyntaxProblems(content);
  if (problems.length > 0) throw templateFailure(problems);
  await assertRecentlyVerifiedSender(em, projectId, content.from.email);
  const attachments = decode(body.attachments);
  const recipients = recipientsOf(body.to);
  assertSendableRecipients(
    config,
    recipients.map((r, i) => ({ field: Array.isArray(body.to) ? `to.${i}` : 'to', email: r.email })),
  );

  return em.transactional(async (tx) => {
    const drafts: EmailDraft[] = [];
    for (const recipient of recipients) {
      const data: DataInput | undefined = recipient.name ? { ...body.data, name: recipient.name } : body.data;
      const { contact } = await upsertContact(
        tx,
        projectId,
        { email: recipient.email, subscribed: body.subscribed, data },
        {
          defaultSubscribed: false,
        },
      );
      const rendered = await draftOf(config, content, {
        projectId,
        contact,
        sourceType: 'TRANSACTIONAL',
        to: { email: contact.email, name: recipient.name ?? null },
        data,
      });
      const draft: EmailDraft = { ...rendered, headers: body.headers ?? {}, attachments };
      const size = messageSize(draft);
      if (size > MAX_MESSAGE_BYTES) throw tooLarge(size);
      drafts.push(draft);
    }
    const cap = await assertWithinBillingCap(
      tx,
      config,
      project,
      'TRANSACTIONAL',
      drafts.map((d) => d.to.email),
    );
    const enqueued = await enqueueEmails(tx, drafts);
    return {
      emails: drafts.map((draft, i) => ({ contact: { id: draft.contactId!, email: draft.to.email }, email: enqueued[i]!.id })),
      cap,
    };
  });
}
