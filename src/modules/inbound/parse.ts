import PostalMime, { type Address as ParsedAddress } from 'postal-mime';
import type { Address } from './stored';

/** Limits on what the parser reads: deeper or larger is refused as malformed (docs/smtp.md "Bad input"). */
const PARSER_LIMITS = { maxHeadersSize: 1024 * 1024, maxNestingDepth: 50, maxRfc822NestingDepth: 3 };

export interface ParsedAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
}

export interface ParsedMessage {
  from: Address | null;
  to: Address[];
  cc: Address[];
  subject: string;
  text: string | null;
  html: string | null;
  headers: Array<{ name: string; value: string }>;
  messageId: string | null;
  inReplyTo: string | null;
  /** Message-IDs of In-Reply-To and References, newest first: what a reply may answer. */
  answers: string[];
  attachments: ParsedAttachment[];
}

export class MalformedMessage extends Error {
  override name = 'MalformedMessage';
}

/**
 * Text PostgreSQL can store: no NUL, no lone surrogate (8-bit header bytes decode to U+FFFD already). Inbound
 * mail is anyone's bytes; what cannot be stored is dropped rather than the message refused.
 */
export const storable = (text: string): string => text.replace(/\u0000/g, '').toWellFormed();
const maybe = (text: string | undefined): string | null => (text === undefined ? null : storable(text));

function mailboxes(addresses: ParsedAddress[] | ParsedAddress | undefined): Address[] {
  const list = addresses === undefined ? [] : Array.isArray(addresses) ? addresses : [addresses];
  return list
    .flatMap((a) => (a.group ? a.group : [a]))
    .filter((m) => m.address)
    .map((m) => ({ email: storable(m.address!).toLowerCase(), name: m.name ? storable(m.name) : null }));
}

const MESSAGE_IDS = /<[^<>\s]+>/g;

/** Parses a message with postal-mime; a message with no header at all, or beyond the limits, is malformed. */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(raw, { ...PARSER_LIMITS, attachmentEncoding: 'arraybuffer' });
  } catch (err) {
    throw new MalformedMessage(err instanceof Error ? err.message : String(err));
  }
  if (email.headers.length === 0) throw new MalformedMessage('The message has no header fields');
  const answers = [...(email.inReplyTo ?? '').matchAll(MESSAGE_IDS), ...[...(email.references ?? '').matchAll(MESSAGE_IDS)].reverse()].map(
    (m) => m[0],
  );
  return {
    from: mailboxes(email.from)[0] ?? null,
    to: mailboxes(email.to),
    cc: mailboxes(email.cc),
    subject: storable(email.subject ?? ''),
    text: maybe(email.text),
    html: maybe(email.html),
    headers: email.headers.map((h) => ({ name: storable(h.originalKey), value: storable(h.value) })),
    messageId: maybe(email.messageId),
    inReplyTo: maybe(email.inReplyTo),
    answers: [...new Set(answers.map(storable))],
    attachments: email.attachments.map((a) => ({
      filename: a.filename === null ? null : storable(a.filename),
      contentType: storable(a.mimeType),
      content: Buffer.from(a.content as ArrayBuffer),
    })),
  };
}
