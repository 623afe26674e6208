import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { resourceId } from '../../http/resource-id';

const Address = z.object({ email: z.string(), name: z.string().nullable() });

export const AuthResult = z
  .string()
  .describe("The verifier's result: pass, fail, softfail, neutral, none, temperror, permerror (or policy for DKIM)");

export const InboundAttachment = z.object({
  filename: z.string().nullable(),
  contentType: z.string(),
  size: z.number().int().describe('Bytes, decoded'),
  url: z.url().describe("The attachment's bytes; takes the project's secret key"),
});

export const RepliedEmail = z
  .object({ id: z.uuid(), campaignId: z.uuid().nullable(), executionId: z.uuid().nullable() })
  .describe('The email Postwire sent that this message answers (In-Reply-To or References), or null');

const common = {
  id: z.uuid(),
  from: Address.describe("The From header's mailbox (the envelope sender when there is none)"),
  to: z.array(Address).describe('The To header'),
  cc: z.array(Address).describe('The Cc header'),
  subject: z.string(),
  messageId: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  attachments: z.array(InboundAttachment),
  auth: z.object({ spf: AuthResult, dkim: AuthResult, dmarc: AuthResult }).describe('SPF, DKIM and DMARC as checked on arrival'),
  inReplyToEmail: RepliedEmail.nullable(),
  contactId: z.uuid().nullable().describe("The sender's contact"),
  size: z.number().int().describe('Bytes of the message as received'),
  receivedAt: z.iso.datetime(),
};

export const InboundSummary = z.object(common);
export const InboundEmail = z.object({
  ...common,
  text: z.string().nullable(),
  html: z.string().nullable(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })).describe('Every header field in order, decoded'),
});
export type InboundEmail = z.infer<typeof InboundEmail>;

export const InboundPage = cursorPage(InboundSummary);
export const InboundEnvelope = z.object({ success: z.literal(true), data: InboundEmail });

export const ListInboundQuery = z.object({
  limit: PageLimit,
  cursor: z.string().optional(),
  search: z.string().max(320).optional().describe("Case-insensitive substring of the sender's address or the subject"),
  contactId: z.uuid().optional().describe("Only the mail of this contact (the sender's)"),
  campaignId: z.uuid().optional().describe("Only replies to this campaign's emails"),
});

export const InboundIdParams = z.object({ id: resourceId('NOT_FOUND') });
export const AttachmentParams = z.object({
  id: resourceId('NOT_FOUND'),
  index: z.coerce.number().int().min(0).max(10_000).describe('Position of the attachment in `attachments`, from 0'),
});

export const RawMessage = z.string().describe("The message as received, with Postwire's Received and Authentication-Results lines on top");
export const AttachmentBytes = z.string().meta({ format: 'binary' });
