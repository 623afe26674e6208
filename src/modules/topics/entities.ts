import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

/** Whether a contact that never chose is in a topic (docs/consent.md "Topics"). */
export const DEFAULT_MEMBERSHIPS = ['IN', 'OUT'] as const;
export type DefaultMembership = (typeof DEFAULT_MEMBERSHIPS)[number];

/** A subject a project mails about ("Product updates"); contacts are in or out of each. */
export const Topic = defineEntity({
  name: 'Topic',
  tableName: 'topics',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    name: p.text(),
    description: p.text().nullable(),
    defaultMembership: p.enum([...DEFAULT_MEMBERSHIPS]),
  },
});
export type Topic = InferEntity<typeof Topic>;

/** A choice a contact made about a topic; without one, the topic's default holds (migration 0110). */
export const ContactTopic = defineEntity({
  name: 'ContactTopic',
  tableName: 'contact_topics',
  properties: {
    topicId: p.uuid().primary(),
    contactId: p.uuid().primary(),
    member: p.boolean(),
    changedAt: p.datetime(),
  },
});
export type ContactTopic = InferEntity<typeof ContactTopic>;
