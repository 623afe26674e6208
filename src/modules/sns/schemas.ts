import { z } from 'zod';

/** An Amazon SNS HTTP(S) delivery: the JSON document SNS posts (with Content-Type text/plain). */
export const SnsMessage = z.object({
  Type: z.enum(['SubscriptionConfirmation', 'Notification', 'UnsubscribeConfirmation']),
  MessageId: z.string(),
  TopicArn: z.string(),
  Subject: z.string().optional(),
  Message: z.string().describe('For notifications of Amazon SES, its own JSON document'),
  Timestamp: z.string(),
  SignatureVersion: z.string().describe('1 (SHA1withRSA) or 2 (SHA256withRSA)'),
  Signature: z.string(),
  SigningCertURL: z.string(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
export type SnsMessage = z.infer<typeof SnsMessage>;

const Timestamped = z.looseObject({ timestamp: z.string().optional() });
/** The recipients a bounce or complaint is about (SES `bouncedRecipients`, `complainedRecipients`). */
const Recipients = z.array(z.looseObject({ emailAddress: z.string() })).optional();

/**
 * The Amazon SES notification in a Notification's Message: feedback notifications name their kind in
 * `notificationType`, event publishing in `eventType`. Only what the service reads is checked.
 */
export const SesNotification = z.looseObject({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  mail: z.looseObject({
    messageId: z.string(),
    commonHeaders: z.looseObject({ messageId: z.string().optional() }).optional(),
    headers: z.array(z.looseObject({ name: z.string(), value: z.string() })).optional(),
  }),
  bounce: Timestamped.extend({ bounceType: z.string(), bouncedRecipients: Recipients }).optional(),
  complaint: Timestamped.extend({ complainedRecipients: Recipients }).optional(),
  delivery: Timestamped.optional(),
});
export type SesNotification = z.infer<typeof SesNotification>;

export const SNS_RESULTS = ['confirmed', 'recorded', 'duplicate', 'unmatched', 'ignored'] as const;
export type SnsResult = (typeof SNS_RESULTS)[number];

export const SnsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    type: SnsMessage.shape.Type,
    result: z
      .enum(SNS_RESULTS)
      .describe(
        'confirmed: subscription confirmed; recorded: the email was updated; duplicate: already recorded; unmatched: no email of ours; ignored: nothing to do',
      ),
    emailId: z.uuid().optional().describe('The email the notification is about'),
  }),
});
export type SnsResponse = z.infer<typeof SnsResponse>;
