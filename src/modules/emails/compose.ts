import type Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Envelope } from '../../mail/smtp/connection';
import { crlfLineEnds } from '../../mail/smtp/smtp-data';
import { signMessage, signParts, type SigningKey } from './dkim-signature';
import { buildInMemory } from './mime-in-memory';
import { leanMessage } from './mime-lean';
import { hasAsciiText, type Mailbox, type OutgoingEmail } from './outgoing';

/**
 * How a stored email becomes the message handed to SMTP. What is added at sending time (tracking pixel,
 * rewritten links, List-Unsubscribe) is added by decorate.ts just before, so that it applies to every
 * producer alike.
 */

/** The largest message accepted (docs/sending.md "Size: 413 over 40 MB"), measured as messageSize does. */
export const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

/**
 * The message's size on the wire, near enough to enforce the 40 MB limit: content and header bytes, with
 * attachments at their base64 size. MIME boundaries and line breaks add well under 1%.
 */
export function messageSize(email: Omit<OutgoingEmail, 'id'>): number {
  const headers = Object.entries(email.headers ?? {}).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v) + 4, 0);
  const attachments = (email.attachments ?? []).reduce((n, a) => n + base64Length(a.content.length) + Buffer.byteLength(a.filename), 0);
  return Buffer.byteLength(email.subject) + Buffer.byteLength(email.html) + Buffer.byteLength(email.text ?? '') + headers + attachments;
}

/**
 * One Message-ID per email, whatever the attempt: receivers that see a retry of a message they already
 * accepted can tell it is the same one. The domain is the sender's, as RFC 5322 recommends.
 */
export function messageIdOf(emailId: string, fromAddress: string): string {
  return `<${emailId}@${fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase()}>`;
}

/**
 * nodemailer picks quoted-printable or base64 for text by counting characters with regular expressions that
 * collect every match, a large share of its work per message. Text that is all ASCII (most HTML) is
 * quoted-printable either way, so it is named up front; other text keeps the detection, which prefers base64
 * when most characters are outside Latin script.
 */
const textEncodingOf = (email: OutgoingEmail) => (hasAsciiText(email) ? { textEncoding: 'quoted-printable' as const } : {});

/** One SMTP transaction to every recipient: the To address, then Cc, then Bcc. */
const envelopeOf = (email: OutgoingEmail): Envelope => ({
  from: email.from.email,
  to: [email.to, ...(email.cc ?? []), ...(email.bcc ?? [])].map((m) => m.email),
});

const mailbox = (m: Mailbox): Mail.Address | string => (m.name ? { name: m.name, address: m.email } : m.email);

/** The nodemailer message for an email, unsigned (see signedMessage). */
export function composeMessage(email: OutgoingEmail): Mail.Options {
  return {
    messageId: messageIdOf(email.id, email.from.email),
    from: mailbox(email.from),
    to: mailbox(email.to),
    ...(email.cc?.length ? { cc: email.cc.map(mailbox) } : {}),
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    html: email.html,
    ...(email.text ? { text: email.text } : {}),
    ...textEncodingOf(email),
    headers: email.headers ?? {},
    attachments: (email.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      contentDisposition: a.disposition,
      ...(a.contentId ? { cid: a.contentId } : {}),
    })),
    envelope: envelopeOf(email),
    // Content is data: nothing in a message may make the sender read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * A message the SMTP relay accepted, as handed to SMTP (docs/smtp.md "Relay"): its bytes as given (Bcc was
 * removed on arrival), a Message-ID derived from the email's id in front when the client gave none, line ends
 * made CRLF, DKIM-signed with the sender domain's key; one recipient per email.
 */
export function signedRelayedMessage(
  email: { id: string; fromAddress: string; toAddress: string },
  relayed: { raw: Buffer; messageId: string | null },
  key: SigningKey,
): { envelope: Envelope; raw: Buffer } {
  const message = relayed.messageId
    ? relayed.raw
    : Buffer.concat([Buffer.from(`Message-ID: ${messageIdOf(email.id, email.fromAddress)}\r\n`), relayed.raw]);
  return { envelope: { from: email.fromAddress, to: [email.toAddress] }, raw: signMessage(crlfLineEnds(message), key) };
}

/** The message built by nodemailer: in memory when it can be (mime-in-memory.ts), else through its streams. */
async function builtByNodemailer(email: OutgoingEmail): Promise<Buffer> {
  const root = new MailComposer(composeMessage(email)).compile();
  return buildInMemory(root) ?? (await root.build());
}

/**
 * The message as handed to SMTP: built as nodemailer's `sendMail` would build it, line ends made CRLF as SMTP
 * sends them (so that the signature covers the bytes sent and the body hash finds the body canonical as it
 * is), DKIM-signed with the sender domain's key, in one Buffer that the delivery pump writes to its SMTP
 * connection at once. The common shape is built in its two parts and signed as they are (mime-lean.ts, signParts).
 */
export async function signedMessage(email: OutgoingEmail, key: SigningKey): Promise<{ envelope: Envelope; raw: Buffer }> {
  const lean = leanMessage(email, messageIdOf(email.id, email.from.email), new Date());
  const raw = lean ? signParts(lean, key) : signMessage(crlfLineEnds(await builtByNodemailer(email)), key);
  return { envelope: envelopeOf(email), raw };
}
