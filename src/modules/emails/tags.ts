import { z } from 'zod';

/** docs/sending.md "Tags": at most 10 per email. */
export const MAX_TAGS = 10;
const MAX_VALUE = 256;

export type EmailTags = Record<string, string>;

/**
 * An email's tags: the integrator's own labels (an order id, a flow name), kept on the email and echoed as
 * `data.tags` by every `email.*` event of it. The same schema serves /v1/send, batch items, campaigns and
 * SEND_EMAIL steps.
 */
export const Tags = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A tag key is 1 to 64 characters of A-Z, a-z, 0-9, _ and -')
      .describe('1-64 characters of A-Z a-z 0-9 _ -'),
    z.string().max(MAX_VALUE, `A tag value is at most ${MAX_VALUE} characters`),
  )
  .superRefine((tags, ctx) => {
    if (Object.keys(tags).length > MAX_TAGS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_TAGS} tags`, params: { code: 'too_big' } });
  })
  .meta({ maxProperties: MAX_TAGS })
  .describe(`At most ${MAX_TAGS} tags: keys of 1-64 characters of A-Z a-z 0-9 _ -, string values of at most ${MAX_VALUE} characters`);
