import { z } from 'zod';
import { ContactData } from '../contacts/schemas';
import { MAX_TEMPLATE_LENGTH } from '../templates/engine';
import { Email } from '../users/schemas';
import { DISPOSITIONS, EMAIL_STATUSES } from '../emails/entities';
import { Tags } from '../emails/tags';

/** Recipients per /v1/send request, to, cc and bcc together (docs/sending.md). */
export const MAX_RECIPIENTS = 50;
/** Items per POST /v1/send/batch. */
export const MAX_BATCH = 100;
/** How far ahead `sendAt` may be. */
export const MAX_SCHEDULE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Custom header fields per email. */
export const MAX_HEADERS = 50;
/** RFC 5322's line length limit, which subjects and header values are held to (docs/sending.md "Body"). */
const MAX_LINE = 998;

// PostgreSQL text cannot hold U+0000, and in a header a line break would start a new field: both are refused.
const LINE = /^[^\r\n\u0000]*$/;
const oneLine = (max: number, what: string) => z.string().max(max).regex(LINE, `${what} must not contain CR, LF or NUL characters`);

const DisplayName = oneLine(255, 'A display name');

const Mailbox = z.object({ name: DisplayName.nullish(), email: Email });

/** The first problem zod finds in `value`, as a sentence. */
function problemOf(schema: z.ZodType, value: unknown): string | undefined {
  const issue = schema.safeParse(value).error?.issues[0];
  if (!issue) return undefined;
  const at = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${at}${issue.message}`;
}

const Address = z.union([Email, Mailbox], {
  error: (issue) => (typeof issue.input === 'string' ? 'Invalid email address' : 'Must be an email address or an object { name, email }'),
});

// A union hides which element of an array failed; the message names it.
const recipients = () =>
  z.union(
    [
      Address,
      z.array(Address).min(1, 'At least one recipient is required').max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients per request`),
    ],
    {
      error: ({ input }) => {
        if (!Array.isArray(input)) return problemOf(Address, input) ?? 'Invalid recipient';
        if (input.length === 0) return 'At least one recipient is required';
        if (input.length > MAX_RECIPIENTS) return `At most ${MAX_RECIPIENTS} recipients per request`;
        const bad = input.findIndex((r) => !Address.safeParse(r).success);
        return `Recipient ${bad + 1}: ${problemOf(Address, input[bad])}`;
      },
    },
  );

const SendAt = z.iso
  .datetime({ offset: true })
  .refine((at) => Date.parse(at) - Date.now() <= MAX_SCHEDULE_DAYS * DAY_MS, {
    message: `sendAt is at most ${MAX_SCHEDULE_DAYS} days ahead`,
    // A value that is no date-time was refused above; it is not "too far" as well.
    when: ({ issues }) => issues.length === 0,
  })
  .transform((s) => new Date(s))
  .describe(`ISO 8601 date-time with Z or an offset, at most ${MAX_SCHEDULE_DAYS} days ahead; in the past or within 5 s means now`);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (s: string) => s.length % 4 === 0 && BASE64.test(s);
/** Bytes that a valid base64 string decodes to. */
export const decodedLength = (b64: string) => (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

const Attachment = z
  .object({
    filename: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\r\n"\u0000]*$/, 'A filename must not contain CR, LF, NUL or double quotes'),
    content: z
      .string()
      .refine(isBase64, 'Must be base64 (A-Z, a-z, 0-9, +, / with = padding; no line breaks)')
      .describe('The file, base64'),
    contentType: z.string().max(255).regex(MIME_TYPE, 'Must be a MIME type such as application/pdf'),
    contentId: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[\x21-\x3b\x3d\x3f-\x7e]+$/, 'A contentId is printable ASCII without spaces or angle brackets')
      .optional()
      .describe('Referenced from the body as cid:<contentId>'),
    disposition: z.enum(DISPOSITIONS).default('attachment'),
  })
  .refine((a) => a.disposition !== 'inline' || a.contentId !== undefined, {
    path: ['contentId'],
    message: 'An inline attachment needs a contentId',
  });

/**
 * Header fields the service writes itself, or that would add recipients or change the sender: a custom value
 * would break the message or its DKIM signature, or leak it.
 */
const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'dkim-signature',
  'return-path',
]);
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

const Headers = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    const entries = Object.entries(headers);
    if (entries.length > MAX_HEADERS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_HEADERS} headers`, params: { code: 'too_big' } });
    for (const [name, value] of entries) {
      const path = [name];
      const fail = (message: string, code: string) => ctx.addIssue({ code: 'custom', path, message, input: value, params: { code } });
      if (/[\r\n]/.test(name)) fail('Header names must not contain CR or LF', 'invalid_string');
      else if (!FIELD_NAME.test(name)) fail('Header names are printable ASCII without spaces or colons', 'invalid_string');
      else if (RESERVED_HEADERS.has(name.toLowerCase())) fail(`${name} is set by the service and cannot be given`, 'reserved_header');
      if (!LINE.test(value)) fail('Header values must not contain CR, LF or NUL characters', 'invalid_string');
      else if (value.length > MAX_LINE) fail(`Header values are at most ${MAX_LINE} characters`, 'too_big');
    }
  })
  .describe('Extra header fields; names and values without CR or LF, values up to 998 characters');

export interface AttachmentLimits {
  /** MAX_ATTACHMENTS_COUNT. */
  maxCount: number;
  /** MAX_ATTACHMENT_SIZE_MB, in bytes of decoded content. */
  maxBytes: number;
}

const MB = 1024 * 1024;

/** An attachment's fields other than its content, at most: 255 characters of filename and of contentType at 3 bytes, contentId, keys. */
const ATTACHMENT_FIELDS_BYTES = 4096;

/**
 * The largest valid /v1/send body in bytes, so that a larger one is refused before it is read
 * (docs/sending.md "Size"): the attachments at their base64 size with their other fields, the body's
 * MAX_TEMPLATE_LENGTH characters at 3 bytes each (UTF-8's most for one UTF-16 unit left unescaped), and the
 * general body limit for all the rest (recipients, subject, headers, data), as on any other route.
 */
export function sendBodyLimit({ maxCount, maxBytes }: AttachmentLimits, generalLimit: number): number {
  return Math.ceil(maxBytes / 3) * 4 + maxCount * ATTACHMENT_FIELDS_BYTES + MAX_TEMPLATE_LENGTH * 3 + generalLimit;
}

function attachments({ maxCount, maxBytes }: AttachmentLimits) {
  return z
    .array(Attachment)
    .max(maxCount, `At most ${maxCount} attachments per email`)
    .superRefine((list, ctx) => {
      const total = list.reduce((n, a) => n + decodedLength(a.content), 0);
      if (total > maxBytes) {
        ctx.addIssue({
          code: 'custom',
          message: `Attachments total ${(total / MB).toFixed(1)} MB; at most ${maxBytes / MB} MB per email`,
          params: { code: 'too_big' },
        });
      }
    });
}

const isPresent = (v: unknown) => v !== undefined && v !== null;

/** How many addresses a `to`, `cc` or `bcc` value names, however well formed. */
const countOf = (v: unknown) => (Array.isArray(v) ? v.length : isPresent(v) ? 1 : 0);

/** The /v1/send body (docs/sending.md "Body"); attachment limits are deployment settings. */
export function sendBody(limits: AttachmentLimits) {
  return z
    .object({
      to: recipients().describe(
        'An email address, { name, email }, or an array of either; { name } is also stored as data.name. With cc or bcc, one recipient',
      ),
      cc: recipients()
        .optional()
        .describe('Copies: in the Cc header and the same SMTP transaction; recorded on the email, not made contacts'),
      bcc: recipients()
        .optional()
        .describe('Blind copies: in the same SMTP transaction, in no header; recorded on the email, not made contacts'),
      template: z.uuid().optional().describe('A template of the project; its subject, body, from and reply-to can be overridden'),
      subject: oneLine(MAX_LINE, 'A subject').min(1).optional().describe('Liquid; required unless a template is used'),
      body: z.string().min(1).max(MAX_TEMPLATE_LENGTH).optional().describe('HTML with Liquid; required unless a template is used'),
      text: z
        .string()
        .min(1)
        .max(MAX_TEMPLATE_LENGTH)
        .optional()
        .describe("The plain-text part, with Liquid; default: the template's, else made from the HTML"),
      from: Address.optional().describe('Sender; required unless the template has one; its domain must be verified'),
      name: DisplayName.optional().describe('Deprecated: sender display name when `from` is a plain address'),
      reply: Email.optional().describe('Reply-To address'),
      headers: Headers.optional(),
      attachments: attachments(limits).optional(),
      subscribed: z.boolean().optional().describe('Subscription state of the recipients; new contacts default to false'),
      data: ContactData.optional(),
      sendAt: SendAt.optional(),
      tags: Tags.optional(),
    })
    .superRefine(
      (body, ctx) => {
        // Runs even when fields failed, so every problem is reported at once; `body` may not match its type.
        const given = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
        const copies = countOf(given.cc) + countOf(given.bcc);
        if (copies > 0 && countOf(given.to) !== 1)
          ctx.addIssue({
            code: 'custom',
            path: ['to'],
            message: 'With cc or bcc, to must be one recipient',
            params: { code: 'too_many_recipients' },
          });
        const total = countOf(given.to) + copies;
        if (total > MAX_RECIPIENTS && copies > 0)
          ctx.addIssue({
            code: 'custom',
            path: [isPresent(given.bcc) ? 'bcc' : 'cc'],
            message: `to, cc and bcc together hold at most ${MAX_RECIPIENTS} addresses (${total} given)`,
            params: { code: 'too_big' },
          });
        if (isPresent(given.template)) return;
        for (const field of ['subject', 'body'] as const) {
          if (!isPresent(given[field]))
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${field} is required unless a template is used`,
              params: { code: 'invalid_type' },
            });
        }
        if (!isPresent(given.from))
          ctx.addIssue({
            code: 'custom',
            path: ['from'],
            message: 'from is required unless the template has a from address',
            params: { code: 'invalid_type' },
          });
      },
      { when: () => true },
    );
}
export type SendBody = z.infer<ReturnType<typeof sendBody>>;

/** POST /v1/send/batch: 1 to 100 /v1/send bodies, each validated as /v1/send validates it. */
export const batchBody = (limits: AttachmentLimits) =>
  z
    .array(sendBody(limits))
    .min(1, 'A batch holds at least one email')
    .max(MAX_BATCH, `A batch holds at most ${MAX_BATCH} emails`)
    .describe(`1 to ${MAX_BATCH} /v1/send bodies; errors name an item's field as [index].field`);

const SendData = z.object({
  emails: z.array(
    z.object({
      contact: z.object({ id: z.uuid(), email: z.string() }),
      email: z.uuid().describe('The email record'),
      scheduledAt: z.iso.datetime().nullable().describe('When a scheduled email leaves; null when it is sent now'),
    }),
  ),
  timestamp: z.iso.datetime(),
});

export const SendResponse = z.object({ success: z.literal(true), data: SendData });

export const BatchResponse = z.object({
  success: z.literal(true),
  data: z.object({ batch: z.array(SendData).describe('The /v1/send data of each item, in order'), timestamp: z.iso.datetime() }),
});

export const EmailIdParams = z.object({ id: z.uuid() });

export const RescheduleBody = z.object({ sendAt: SendAt });

export const EmailView = z.object({
  id: z.uuid(),
  status: z.enum(EMAIL_STATUSES),
  to: z.string(),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  from: z.string(),
  subject: z.string(),
  tags: z.record(z.string(), z.string()),
  scheduledAt: z.iso.datetime().nullable().describe('When a scheduled email leaves (or left); null for one sent at once'),
  sentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  contact: z
    .object({ id: z.uuid(), email: z.string() })
    .nullable()
    .describe('The recipient contact; null for mail to an address that is none'),
  campaignId: z.uuid().nullable(),
  executionId: z.uuid().nullable().describe('The automation execution that sent it'),
  nextAttemptAt: z.iso
    .datetime()
    .nullable()
    .describe(
      'When a PENDING email whose delivery was put off (a soft bounce, an unreachable server) is tried again: the retryAt of its latest DEFERRED activity; null otherwise',
    ),
});
export type EmailView = z.infer<typeof EmailView>;

export const EmailEnvelope = z.object({ success: z.literal(true), data: EmailView });
