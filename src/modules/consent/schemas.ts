import { z } from 'zod';
import { SNOOZE_PERIODS } from './snooze';

export const ContactIdParams = z.object({ id: z.uuid() });

export const CONFIRMATION_STATES = ['NOT_REQUIRED', 'UNCONFIRMED', 'CONFIRMED'] as const;

export const TopicMembershipResponse = z.object({
  topicId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  member: z.boolean(),
  chosen: z.boolean().describe("Whether the contact chose; when false, the topic's default holds"),
  changedAt: z.iso.datetime().nullable().describe('When the contact last chose'),
});

export const ConsentResponse = z.object({
  contactId: z.uuid(),
  subscribed: z.boolean(),
  confirmation: z.object({
    state: z
      .enum(CONFIRMATION_STATES)
      .describe('NOT_REQUIRED: never asked to confirm; UNCONFIRMED: signed up with double opt-in and not confirmed (no marketing)'),
    confirmedAt: z.iso.datetime().nullable(),
    pending: z
      .object({
        expiresAt: z.iso.datetime(),
        lastSentAt: z.iso.datetime(),
        remindedAt: z.iso.datetime().nullable(),
        formId: z.uuid().nullable(),
      })
      .nullable()
      .describe('The confirmation waiting for its link to be followed'),
  }),
  snoozedUntil: z.iso.datetime().nullable().describe('Marketing is paused until then'),
  topics: z.array(TopicMembershipResponse),
});
export type ConsentResponse = z.infer<typeof ConsentResponse>;

export const MAX_TOPIC_CHANGES = 100;

export const UpdateConsentBody = z
  .object({
    topics: z
      .array(z.object({ topicId: z.uuid(), member: z.boolean() }))
      .min(1)
      .max(MAX_TOPIC_CHANGES)
      .optional()
      .describe('Topics to join (member true) or leave; others keep their state'),
    snooze: z
      .enum(SNOOZE_PERIODS)
      .nullable()
      .optional()
      .describe('Pause marketing for this long from now (a month is 30 days); null ends a snooze'),
  })
  .refine((b) => b.topics !== undefined || b.snooze !== undefined, { message: 'Give topics, snooze or both', path: ['topics'] });
export type UpdateConsentBody = z.infer<typeof UpdateConsentBody>;
