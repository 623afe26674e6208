import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError } from '../../http/errors';
import { getContact } from '../contacts/service';
import { subscriptionLinks, type LinkSettings } from '../links/subscription';
import { parseTemplate, variablesOf } from './engine';
import { TemplateError, renderEmail, templateVariables, type EmailContent, type TemplateScope } from './render';
import type { PreviewTemplateBody, PreviewTemplateResponse } from './schemas';
import { assertParses } from './service';

/** The variables subject and body read, each once, subject first. */
function usedVariables(content: EmailContent): string[] {
  const names = [
    ...variablesOf(parseTemplate(content.subject, 'text'), 'text'),
    ...variablesOf(parseTemplate(content.body, 'html'), 'html'),
  ];
  return [...new Set(names)];
}

/**
 * A subject and body rendered as the chosen contact would receive them (their data and subscription links),
 * with the variables they use; without a contact, rendered with no variables set. Nothing is saved or sent.
 */
export async function previewTemplate(
  em: EntityManager,
  config: LinkSettings,
  projectId: string,
  { subject, body, contactId }: PreviewTemplateBody,
): Promise<PreviewTemplateResponse> {
  const content = { subject, body };
  assertParses(content);
  let scope: TemplateScope = {};
  if (contactId) {
    const contact = await getContact(em, projectId, contactId);
    scope = templateVariables({ contact, links: subscriptionLinks(config, contact.id) });
  }
  try {
    const rendered = await renderEmail(content, scope);
    return { subject: rendered.subject, html: rendered.body, variables: usedVariables(content) };
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new ApiError(422, 'VALIDATION_ERROR', `Template does not render: ${err.message}`, {
      suggestion: 'Simplify the loops or data the template walks through; see docs/templates.md.',
    });
  }
}
