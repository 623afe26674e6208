import { parseTemplate, renderParsed } from './engine';
import { TemplateError } from './template-error';
import type { TemplateScope } from './variables';

export { TemplateError } from './template-error';
export { templateVariables, type RecipientContact, type SubscriptionLinks, type TemplateScope } from './variables';

export interface EmailContent {
  subject: string;
  /** HTML. */
  body: string;
  /** The plain-text part, Liquid like the subject; absent when it is to be generated from the HTML. */
  text?: string | null;
}

/** A part of a template that does not parse: which field, which line, and why. */
export interface TemplateSyntaxProblem {
  field: keyof EmailContent;
  line: number | null;
  reason: string;
  message: string;
}

/** Renders one part of an email (renderEmail's subject, body or text) for one recipient. */
export const renderPart = (source: string, output: 'text' | 'html', scope: TemplateScope): Promise<string> =>
  renderParsed(parseTemplate(source, output), output, scope);

/**
 * Renders an email for one recipient; the single renderer every sender uses. The body is HTML, so values are
 * HTML-escaped unless piped through `raw`; the subject is plain text. Throws TemplateError when the source
 * does not parse or a render exceeds its time or memory budget.
 */
export async function renderEmail(content: EmailContent, scope: TemplateScope): Promise<EmailContent> {
  const [subject, body, text] = await Promise.all([
    renderPart(content.subject, 'text', scope),
    renderPart(content.body, 'html', scope),
    content.text ? renderPart(content.text, 'text', scope) : null,
  ]);
  return { subject, body, text };
}

/** The parts of `content` that do not parse, so a template can be refused when it is saved. */
export function templateSyntaxProblems(content: Partial<EmailContent>): TemplateSyntaxProblem[] {
  const problems: TemplateSyntaxProblem[] = [];
  for (const [field, output] of [
    ['subject', 'text'],
    ['body', 'html'],
    ['text', 'text'],
  ] as const) {
    const source = content[field];
    if (source === undefined || source === null) continue;
    try {
      parseTemplate(source, output);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      problems.push({ field, line: err.line, reason: err.reason, message: err.message });
    }
  }
  return problems;
}
