import { z } from 'zod';
import { fallbackParam } from '../../http/fallback-param';
import { offsetPage, offsetPageFields } from '../../http/offset-page';
import { resourceId } from '../../http/resource-id';
import { PlainError } from '../../http/errors';
import { MAX_TEMPLATE_LENGTH } from './engine';
import { TEMPLATE_TYPES } from './entities';

export const MAX_NAME_LENGTH = 255;
export const TEMPLATE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;

const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n\u0000]*$/, 'Must not contain line breaks');

const Name = oneLine(MAX_NAME_LENGTH).trim().min(1);
const Description = z.string().max(5000);
const Subject = oneLine(998).min(1).describe('Liquid; rendered as plain text');
const Body = z.string().min(1).max(MAX_TEMPLATE_LENGTH).describe('HTML with Liquid; values are HTML-escaped unless piped through `raw`');
const Text = z
  .string()
  .min(1)
  .max(MAX_TEMPLATE_LENGTH)
  .describe('The plain-text part, with Liquid; when absent it is made from the rendered HTML, links as `label (url)`');
const Sender = z.email().max(320).describe('Sender address; its domain must be a verified domain of the project');
const FromName = oneLine(255);
const ReplyTo = z.email().max(320);
const Type = z.enum(TEMPLATE_TYPES);

/** The fields required on create (docs/templates.md "Choices"), in the order they are reported, with the platform's messages. */
const REQUIRED_ON_CREATE = [
  ['name', 'Name is required'],
  ['subject', 'Subject is required'],
  ['body', 'Body is required'],
  ['from', 'From address is required'],
] as const;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The contract answers a missing required field on template create with a plain `{ error }` 400, while other
 * schema failures keep the 422 envelope. The check runs even when other fields failed (`when`), and throws
 * past zod so that the error handler writes the plain body.
 */
function requirePresent(input: unknown): true {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const missing = REQUIRED_ON_CREATE.find(([field]) => isBlank(fields[field]));
  if (missing) throw new PlainError(missing[1]);
  return true;
}

export const CreateTemplateBody = z
  .object({
    name: Name,
    description: Description.nullish(),
    subject: Subject,
    body: Body,
    text: Text.nullish(),
    from: Sender,
    fromName: FromName.nullish(),
    replyTo: ReplyTo.nullish(),
    type: Type.default('MARKETING'),
  })
  .refine(requirePresent, { when: () => true });
export type CreateTemplateBody = z.infer<typeof CreateTemplateBody>;

export const UpdateTemplateBody = z.object({
  name: Name.optional(),
  description: Description.nullable().optional().describe('null clears it'),
  subject: Subject.optional(),
  body: Body.optional(),
  text: Text.nullable().optional().describe('null clears it: the text is then made from the HTML'),
  from: Sender.optional(),
  fromName: FromName.nullable().optional().describe('null clears it'),
  replyTo: ReplyTo.nullable().optional().describe('null clears it'),
  type: Type.optional(),
});
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBody>;

export const TemplateIdParams = z.object({ id: resourceId('TEMPLATE_NOT_FOUND') });

export const ListTemplatesQuery = z.object({
  ...offsetPageFields,
  type: Type.optional(),
  search: z.string().max(200).optional().describe('Case-insensitive substring of name, description or subject'),
  sort: fallbackParam(TEMPLATE_SORTS, 'createdAt'),
  dir: fallbackParam(['asc', 'desc'], 'desc'),
});
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuery>;

/** A template's message as responses show it; campaigns show their copy the same way. */
export const MessageResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  text: z.string().nullable().describe('null: made from the rendered HTML'),
  from: z.string(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  type: Type,
});
export type MessageResponse = z.infer<typeof MessageResponse>;

export const TemplateResponse = MessageResponse.extend({
  projectId: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TemplateResponse = z.infer<typeof TemplateResponse>;

export const TemplatePage = offsetPage(TemplateResponse);

const Reference = z.object({ id: z.uuid(), name: z.string() });

export const TemplateUsageResponse = z.object({
  campaigns: z.array(Reference).describe('Campaigns that reference the template'),
  workflows: z.array(Reference).describe('Workflows with a SEND_EMAIL step that uses the template'),
  forms: z.array(Reference).describe('Signup forms whose double opt-in confirmation email the template is'),
});

export const PreviewTemplateBody = z.object({
  subject: Subject,
  body: Body,
  contactId: z.uuid().optional().describe('The contact whose data and subscription links fill the variables; none leaves them unset'),
});
export type PreviewTemplateBody = z.infer<typeof PreviewTemplateBody>;

export const PreviewTemplateResponse = z.object({
  subject: z.string().describe('The rendered subject'),
  html: z.string().describe('The rendered HTML body'),
  variables: z
    .array(z.string())
    .describe('Variables the subject and body read (`plan`, `contact.email`), each once, in order of first use'),
});
export type PreviewTemplateResponse = z.infer<typeof PreviewTemplateResponse>;
