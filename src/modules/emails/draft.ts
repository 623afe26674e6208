import type { DataInput } from '../contacts/custom-fields';
import { renderPart, templateVariables, type EmailContent, type RecipientContact, type TemplateScope } from '../templates/render';
import type { Mailbox } from './outgoing';
import type { SourceType } from './entities';
import type { EmailDraft, RenderedDraft } from './enqueue';
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

/** What a recipient's templates see: the contact's variables, its subscription links, the request's data. */
const scopeOf = (config: LinkSettings, content: DraftContent, recipient: DraftRecipient) =>
  templateVariables({
    contact: recipient.contact,
    links: subscriptionLinks(config, recipient.contact.id, content.topicId ?? null),
    requestData: recipient.data,
  });

/** The draft's fields besides its body, with the subject rendered. */
function headOf(content: DraftContent, recipient: DraftRecipient, subject: string): Omit<EmailDraft, 'html' | 'text'> {
  return {
    projectId: recipient.projectId,
    contactId: recipient.contact.id,
    to: recipient.to ?? { email: recipient.contact.email },
    from: content.from,
    replyTo: content.replyTo,
    // A value with a line break would otherwise end the Subject field early.
    subject: subject.replace(/[\r\n]+/g, ' '),
    tags: content.tags ?? {},
    sourceType: recipient.sourceType,
    marketing: content.marketing,
    templateId: content.templateId ?? null,
    topicId: content.topicId ?? null,
  };
}

// Without a text of its own, the text made once from the HTML template is rendered like the subject, or (when
// it cannot be: plain-text.ts) made from this recipient's rendered HTML.
async function bodyIn(content: DraftContent, scope: TemplateScope): Promise<{ html: string; text: string }> {
  const text = content.text || textTemplateOf(content.body);
  const [html, plain] = await Promise.all([renderPart(content.body, 'html', scope), text ? renderPart(text, 'text', scope) : null]);
  return { html, text: plain ?? plainTextOf(html) };
}

/**
 * The email of one recipient, for every producer (/v1/send, campaigns, automations): the content rendered
 * with the contact's variables and subscription links, and its plain-text part, the content's own or made
 * from the HTML. A template that does not render throws TemplateError, which each producer answers in its
 * own way.
 */
export async function draftFor(config: LinkSettings, content: DraftContent, recipient: DraftRecipient): Promise<RenderedDraft> {
  const scope = scopeOf(config, content, recipient);
  const [subject, body] = await Promise.all([renderPart(content.subject, 'text', scope), bodyIn(content, scope)]);
  return { ...headOf(content, recipient, subject), ...body };
}

/**
 * The email of one recipient with only its subject rendered: its body is rendered when it is sent, by bodyFor
 * with the same content and the contact as it is then (a campaign's emails: docs/campaigns.md).
 */
export async function headFor(config: LinkSettings, content: DraftContent, recipient: DraftRecipient): Promise<EmailDraft> {
  const subject = await renderPart(content.subject, 'text', scopeOf(config, content, recipient));
  return { ...headOf(content, recipient, subject), html: null, text: null };
}

/** The HTML and plain-text parts of the email headFor left without them. Throws TemplateError as draftFor does. */
export const bodyFor = (config: LinkSettings, content: DraftContent, recipient: DraftRecipient): Promise<{ html: string; text: string }> =>
  bodyIn(content, scopeOf(config, content, recipient));
