import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { validationError } from '../../http/errors';
import { draftFor } from '../emails/draft';
import { enqueueEmails } from '../emails/enqueue';
import { confirmationUrl } from '../links/confirmation';
import { Template } from '../templates/entities';
import { TemplateError, type RecipientContact } from '../templates/render';

/** The template variable the confirmation link is given to the email as. */
export const CONFIRM_URL_VARIABLE = 'confirmUrl';

/**
 * A double opt-in needs a template of the project that shows the link: otherwise the contact could never
 * confirm. 422 naming `field` when it is not the project's or never uses `{{ confirmUrl }}`.
 */
export async function assertConfirmationTemplate(em: EntityManager, projectId: string, templateId: string, field: string): Promise<void> {
  const template = await em.findOne(Template, { id: templateId, projectId });
  if (!template)
    throw validationError(
      [{ field, message: 'No such template in this project', code: 'not_found' }],
      `${field}: No such template in this project`,
    );
  if (!template.body.includes(CONFIRM_URL_VARIABLE)) {
    const message = `The confirmation template must show the link: put {{ ${CONFIRM_URL_VARIABLE} }} in its body`;
    throw validationError([{ field, message, code: 'missing_confirm_url' }], `${field}: ${message}`);
  }
}

export interface ConfirmationMail {
  confirmationId: string;
  projectId: string;
  templateId: string | null;
  contact: RecipientContact;
  /** The reminder a day later; the template sees `reminder: true`. */
  reminder: boolean;
}

/**
 * Queues the confirmation email in the caller's transaction: the template rendered for the contact with
 * `confirmUrl` and `reminder`, sent as transactional mail (the person asked for it, subscribed or not).
 * False when the template is gone; a template that no longer renders is a 422 naming `confirmationTemplateId`.
 */
export async function queueConfirmationEmail(em: EntityManager, config: Config, mail: ConfirmationMail): Promise<boolean> {
  if (mail.templateId === null) return false;
  const template = await em.findOne(Template, { id: mail.templateId, projectId: mail.projectId });
  if (!template) return false;
  const content = {
    subject: template.subject,
    body: template.body,
    from: { email: template.from, name: template.fromName },
    replyTo: template.replyTo,
    marketing: false,
    templateId: template.id,
  };
  const variables = { [CONFIRM_URL_VARIABLE]: confirmationUrl(config, mail.confirmationId), reminder: mail.reminder };
  try {
    const draft = await draftFor(config, content, {
      projectId: mail.projectId,
      contact: mail.contact,
      sourceType: 'TRANSACTIONAL',
      data: variables,
    });
    await enqueueEmails(em, [draft]);
    return true;
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    const message = `The confirmation template does not render: ${err.message}`;
    throw validationError([{ field: 'confirmationTemplateId', message, code: 'invalid_template' }], message);
  }
}
