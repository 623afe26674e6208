import type { DataInput } from '../contacts/custom-fields';
import { renderEmail, templateVariables, type EmailContent, type RecipientContact } from '../templates/render';
import type { Mailbox } from './outgoing';
import type { SourceType } from './entities';
import type { EmailDraft } from './enqueue';
import { plainTextOf, textTemplateOf } from './plain-text';
import type { EmailTags } from './tags';
import { subscriptionLinks, type LinkSettings } from '../links/subscription';

/** What a producer sends before rendering: a template's or a campaign's fields, or a request's. */
export interface DraftContent extends EmailContent {
  from: Mailbox;
  replyTo?: string | null;
  /** From a MARKETING template or campaign. */
  marketing: boolean;
  templateId?: string | null;
  /** Kept on the email and echoed by its events. */
  tags?: EmailTags;
  /** The topic the email is about (docs/consent.md): its unsubscribe links leave that topic only. */
  topicId?: string | null;
}

export interface DraftRecipient {
  projectId: string;
  contact: RecipientContact;
  sourceType: SourceType;
  /** The contact's address unless given. */
  to?: Mailbox;
  /** The request's or the execution's data, as template variables over the contact's own. */
  data?: DataInput;
}

/**
 * The email of one recipient, for every producer (/v1/send, campaigns, automations): the content rendered
 * with the contact's variables and subscription links, and its plain-text part, the content's own or made
 * from the HTML. A template that does not render throws TemplateError, which each producer answers in its
 * own way.
 */
export async function draftFor(config: LinkSettings, content: DraftContent, recipient: DraftRecipient): Promise<EmailDraft> {
  const { contact } = recipient;
  const scope = templateVariables({
    contact,
    links: subscriptionLinks(config, contact.id, content.topicId ?? null),
    requestData: recipient.data,
  });
  // Without a text of its own, the text made once from the HTML template is rendered like the subject, or (when
  // it cannot be: plain-text.ts) made from this recipient's rendered HTML.
  const text = content.text || textTemplateOf(content.body);
  const rendered = await renderEmail({ subject: content.subject, body: content.body, text }, scope);
  return {
    projectId: recipient.projectId,
    contactId: contact.id,
    to: recipient.to ?? { email: contact.email },
    from: content.from,
    replyTo: content.replyTo,
    // A value with a line break would otherwise end the Subject field early.
    subject: rendered.subject.replace(/[\r\n]+/g, ' '),
    html: rendered.body,
    text: text ? rendered.text : plainTextOf(rendered.body),
    tags: content.tags ?? {},
    sourceType: recipient.sourceType,
    marketing: content.marketing,
    templateId: content.templateId ?? null,
    topicId: content.topicId ?? null,
  };
}
