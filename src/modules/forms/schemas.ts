import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { oneLineText } from '../../http/one-line';
import { FIELD_INPUTS, FormFieldSchema, MAX_FIELDS, fieldsProblems } from './fields';

export const MAX_FORM_TOPICS = 20;

export const FormIdParams = z.object({ id: z.uuid() });

const Fields = z
  .array(FormFieldSchema)
  .min(1)
  .max(MAX_FIELDS)
  .superRefine((fields, ctx) => {
    for (const p of fieldsProblems(fields)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  })
  .describe('The inputs, in order: exactly one `email`, the others `data.<key>` custom fields');

const TopicIds = z
  .array(z.uuid())
  .max(MAX_FORM_TOPICS)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, 'Each topic once')
  .describe('Topics of the project a signup joins');

const RedirectUrl = z
  .url({ protocol: /^https?$/, error: 'An http(s) URL' })
  .max(2000)
  .nullish()
  .describe('Where the browser goes after a signup (303); without it, the thank-you text is shown');

const formFields = {
  name: oneLineText(100).describe('For the dashboard'),
  title: oneLineText(200).optional().describe('The heading of the hosted page; the name by default'),
  fields: Fields.optional(),
  topicIds: TopicIds.optional(),
  doubleOptIn: z.boolean().optional().describe('Signups must confirm by the link mailed to them before they get marketing'),
  confirmationTemplateId: z
    .uuid()
    .nullish()
    .describe('The template of the confirmation email (it must show {{ confirmUrl }}); required with doubleOptIn'),
  redirectUrl: RedirectUrl,
  successMessage: z.string().trim().min(1).max(2000).nullish().describe('The thank-you text shown after a signup'),
  submitLabel: oneLineText(50).optional().describe('The button; "Subscribe" by default'),
};

export const CreateFormBody = z.object(formFields);
export type CreateFormBody = z.infer<typeof CreateFormBody>;

export const UpdateFormBody = z.object({ ...formFields, name: formFields.name.optional() });
export type UpdateFormBody = z.infer<typeof UpdateFormBody>;

export const ListFormsQuery = z.object({ limit: PageLimit, cursor: z.string().max(500).optional() });
export type ListFormsQuery = z.infer<typeof ListFormsQuery>;

export const FormResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  title: z.string(),
  fields: z.array(z.object({ key: z.string(), label: z.string(), type: z.enum(FIELD_INPUTS), required: z.boolean() })),
  topicIds: z.array(z.uuid()),
  doubleOptIn: z.boolean(),
  confirmationTemplateId: z.uuid().nullable(),
  redirectUrl: z.string().nullable(),
  successMessage: z.string().nullable(),
  submitLabel: z.string(),
  url: z.url().describe('The hosted page'),
  embedHtml: z.string().describe('The snippet to paste into a page of your site'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type FormResponse = z.infer<typeof FormResponse>;

export const FormPage = cursorPage(FormResponse);
