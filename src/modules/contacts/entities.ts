import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

export type ContactData = Record<string, unknown>;

export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  uniques: [{ properties: ['projectId', 'email'] }],
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    email: p.string(),
    subscribed: p.boolean(),
    data: p.json<ContactData>(),
  },
});
export type Contact = InferEntity<typeof Contact>;

export const FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const ContactField = defineEntity({
  name: 'ContactField',
  tableName: 'contact_fields',
  properties: {
    projectId: p.uuid().primary(),
    key: p.string().primary(),
    type: p.enum([...FIELD_TYPES]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ContactField = InferEntity<typeof ContactField>;
