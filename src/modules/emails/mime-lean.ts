import { foldLines } from 'nodemailer/lib/mime-funcs';
import { finalLineBreak } from './mime-in-memory';
import { hasAsciiText, type Mailbox, type OutgoingEmail } from './outgoing';
import { qpEncode, qpEncodeAscii, qpWrap } from './quoted-printable';

/**
 * The message nodemailer's MailComposer would build, byte for byte, written directly for the common case: an
 * HTML body with or without its plain-text alternative, no attachments and no Cc, header values in printable
 * ASCII. Campaign mail is nearly all of this shape, and MailComposer spends more CPU per message on it than
 * the DKIM signature's hashing (a tree of nodes whose every header lookup normalizes its key, a random
 * boundary, quoted-printable one character at a time). Anything else returns null and is left to nodemailer;
 * test/emails/mime-lean.unit.test.ts compares the two.
 */

const PRINTABLE = /^[\x20-\x7e]*$/;
// nodemailer encodes any word with a double quote in it as an RFC 2047 word: left to it.
const PLAIN_VALUE = /^[\x20\x21\x23-\x7e]*$/;
// What nodemailer leaves as it is, apart from lowercasing the domain.
const SIMPLE_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;
// Header names nodemailer gives no meaning of their own (List-Unsubscribe and its kin, X- headers).
const FREE_HEADER = /^(List|X)-[A-Za-z0-9-]+$/;
// Text nodemailer sends unencoded ("7bit") when no line is longer than 76 characters.
const NOT_PLAIN = /[\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uffff]/;
const LINE_LENGTH = 76;
// nodemailer assumes long lines in text over 128 kB rather than look.
const LONGEST_CHECKED = 128 * 1024;

/** nodemailer's spelling of a header name: words capitalised, some acronyms in capitals. */
const headerName = (key: string) =>
  key
    .trim()
    .toLowerCase()
    .replace(/^X-SMTPAPI$|^(MIME|DKIM|ARC|BIMI)\b|^[a-z]|-(SPF|FBL|ID|MD5)$|-[a-z]/gi, (c) => c.toUpperCase());

const plainValue = (value: string) => PLAIN_VALUE.test(value) && value.trim() !== '';

function eligible(email: OutgoingEmail): boolean {
  if (email.attachments?.length || email.cc?.length || !email.html) return false;
  if (!plainValue(email.subject) || !SIMPLE_ADDRESS.test(email.from.email) || !SIMPLE_ADDRESS.test(email.to.email)) return false;
  if (!PRINTABLE.test(email.from.name ?? '') || !PRINTABLE.test(email.to.name ?? '')) return false;
  if (email.replyTo && !SIMPLE_ADDRESS.test(email.replyTo)) return false;
  return Object.entries(email.headers ?? {}).every(([key, value]) => FREE_HEADER.test(headerName(key)) && plainValue(value));
}

const normalizedAddress = (address: string) => {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
};

/** An address with its display name, quoted when it holds more than letters, digits and spaces. */
function mailboxValue({ email, name }: Mailbox): string {
  if (!name) return normalizedAddress(email);
  const shown = /^[\w ]*$/.test(name) ? name : `"${name.replace(/([\\"])/g, '\\$1')}"`;
  return `${shown} <${normalizedAddress(email)}>`;
}

/** Whether text[from, to), a line between line feeds, runs past LINE_LENGTH as nodemailer measures lines. */
function runsLong(text: string, from: number, to: number): boolean {
  let run = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // A regular expression's "." stops at these too, and nodemailer measures lines with one.
    if (c === 0x0d || c === 0x2028 || c === 0x2029) run = 0;
    else if (++run > LINE_LENGTH) return true;
  }
  return false;
}

/** Whether any line is longer than LINE_LENGTH: only lines longer than that between line feeds are read. */
function hasLongLines(text: string): boolean {
  if (text.length > LONGEST_CHECKED) return true;
  for (let from = 0; from < text.length;) {
    const lf = text.indexOf('\n', from);
    const to = lf < 0 ? text.length : lf;
    if (to - from > LINE_LENGTH && runsLong(text, from, to)) return true;
    from = to + 1;
  }
  return false;
}

/** Whether nodemailer would pick quoted-printable over base64: more Latin letters than other characters. */
function prefersQuotedPrintable(text: string): boolean {
  let latin = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) latin++;
    else if (c > 0x7f || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)) other++;
  }
  return other < latin;
}

interface Part {
  headers: string[];
  body: string;
}

/** A text part as nodemailer encodes it, or null when it would be base64 (left to nodemailer). */
function textPart(contentType: string, content: string, allAscii: boolean): Part | null {
  if (!NOT_PLAIN.test(content) && !hasLongLines(content)) {
    return { headers: [`Content-Type: ${contentType}`, 'Content-Transfer-Encoding: 7bit'], body: content };
  }
  // compose.ts names quoted-printable for all-ASCII mail; other text is measured as nodemailer measures it.
  if (!allAscii && !prefersQuotedPrintable(content)) return null;
  return {
    headers: [`Content-Type: ${contentType}`, 'Content-Transfer-Encoding: quoted-printable'],
    body: qpWrap(allAscii ? qpEncodeAscii(content) : qpEncode(content)),
  };
}

/** The part of the multipart boundary that differs per message: the email's id, which its content cannot know. */
export const boundaryBaseOf = (emailId: string) => emailId.replaceAll('-', '');

/**
 * A built message in its two parts: the header fields, folded, and the body. nodemailer's bytes are `fields`
 * joined by CRLF, an empty line, and `body`. All of it is ASCII: the shape admits only printable ASCII header
 * values, and the parts are 7bit or quoted-printable.
 */
export interface LeanMessage {
  fields: string[];
  body: string;
}

/** The built message, or null when nodemailer has to build it. */
export function leanMessage(email: OutgoingEmail, messageId: string, date: Date): LeanMessage | null {
  if (!eligible(email)) return null;
  const allAscii = hasAsciiText(email);
  const html = textPart('text/html; charset=utf-8', email.html, allAscii);
  const text = email.text ? textPart('text/plain; charset=utf-8', email.text, allAscii) : null;
  if (!html || (email.text && !text)) return null;

  const headers = Object.entries(email.headers ?? {}).map(([key, value]) => `${headerName(key)}: ${value}`);
  headers.push(`From: ${mailboxValue(email.from)}`, `To: ${mailboxValue(email.to)}`);
  if (email.replyTo) headers.push(`Reply-To: ${normalizedAddress(email.replyTo)}`);
  headers.push(`Subject: ${email.subject}`, `Message-ID: ${messageId}`);
  const dateHeader = `Date: ${date.toUTCString().replace(/GMT/, '+0000')}`;
  let body: string;
  if (text) {
    const boundary = `--_NmP-${boundaryBaseOf(email.id)}-Part_1`;
    headers.push(dateHeader, 'MIME-Version: 1.0', `Content-Type: multipart/alternative; boundary="${boundary}"`);
    const part = (p: Part) => `${p.headers.join('\r\n')}\r\n\r\n${p.body}`;
    body = `--${boundary}\r\n${part(text)}\r\n--${boundary}\r\n${part(html)}\r\n--${boundary}--\r\n`;
  } else {
    // nodemailer adds the transfer encoding before the date, and moves the content type last.
    headers.push(html.headers[1]!, dateHeader, 'MIME-Version: 1.0', html.headers[0]!);
    body = html.body;
  }
  // A lean body is never empty, so its final line break is the whole message's.
  return { fields: headers.map((h) => foldLines(h, LINE_LENGTH)), body: body + finalLineBreak(body.charCodeAt(body.length - 1)) };
}
