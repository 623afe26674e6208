import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { oneLineText } from '../../http/one-line';
import { DEFAULT_MEMBERSHIPS } from './entities';

export const MAX_TOPICS = 100;
export const MAX_TOPIC_NAME = 100;
export const MAX_TOPIC_DESCRIPTION = 500;

export const TopicIdParams = z.object({ id: z.uuid() });

const Name = oneLineText(MAX_TOPIC_NAME).describe('Shown to contacts on the preference page; unique in the project, ignoring case');
const Description = z.string().max(MAX_TOPIC_DESCRIPTION).nullish().describe('Shown under the name on the preference page');
const Default = z.enum(DEFAULT_MEMBERSHIPS).describe('Whether a contact who never chose is in the topic');

export const CreateTopicBody = z.object({
  name: Name,
  description: Description,
  defaultMembership: Default.default('OUT'),
});
export type CreateTopicBody = z.infer<typeof CreateTopicBody>;

export const UpdateTopicBody = z.object({ name: Name.optional(), description: Description, defaultMembership: Default.optional() });
export type UpdateTopicBody = z.infer<typeof UpdateTopicBody>;

export const ListTopicsQuery = z.object({ limit: PageLimit, cursor: z.string().max(500).optional() });
export type ListTopicsQuery = z.infer<typeof ListTopicsQuery>;

export const TopicResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  defaultMembership: z.enum(DEFAULT_MEMBERSHIPS),
  memberCount: z.number().int().describe('Contacts in the topic now: those who joined, and those who never chose when the default is IN'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TopicResponse = z.infer<typeof TopicResponse>;

export const TopicPage = cursorPage(TopicResponse);
