import { z } from 'zod';
import { SNOOZE_PERIODS } from '../consent/snooze';

/** Mail clients post RFC 8058's one-click field; the page's own form posts nothing. Other fields are ignored. */
export const UnsubscribeForm = z.looseObject({
  'List-Unsubscribe': z.string().optional().describe('`One-Click` from a mail client (RFC 8058)'),
});

/** The unsubscribe link of mail about a topic names it; one that is not the contact's project's is ignored. */
export const UnsubscribeQuery = z.object({
  topic: z.string().max(100).optional().describe('The topic to leave (mail about a topic); without it, all marketing'),
});

export const ManageForm = z.object({ subscribed: z.enum(['true', 'false']).describe('The state chosen') });

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * The topics form of the preference page: `shown` lists the topic ids the page showed, space-separated; each
 * checked one comes as `topic_<id>=in`. A shown topic not checked is left.
 */
export const ManageTopicsForm = z
  .object({
    shown: z
      .string()
      .max(4000)
      .regex(new RegExp(`^ *(?:${UUID}(?: +${UUID})*)? *$`), 'A space-separated list of topic ids')
      .describe('The topic ids the page showed, space-separated'),
  })
  .catchall(z.literal('in').describe('`topic_<id>=in` for each checked topic'));

export const SnoozeForm = z.object({ period: z.enum(SNOOZE_PERIODS).describe('How long to pause marketing email (a month is 30 days)') });
