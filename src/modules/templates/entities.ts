import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

export const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** What a template holds and a campaign keeps its own copy of: the message, its sender and its type. */
export const messageColumns = () => ({
  name: p.string(),
  description: p.text().nullable(),
  subject: p.text(),
  /** HTML with Liquid, rendered per recipient; see render.ts. */
  body: p.text(),
  /** The plain-text part with Liquid; null: made from the rendered HTML (docs/sending.md "Plain text"). */
  text: p.text().nullable(),
  from: p.string().fieldName('from_address'),
  fromName: p.string().nullable(),
  replyTo: p.string().nullable(),
  type: p.enum([...TEMPLATE_TYPES]),
});

export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    ...messageColumns(),
  },
});
export type Template = InferEntity<typeof Template>;
