import { createHash, type KeyObject } from 'node:crypto';
import signHeaders from 'nodemailer/lib/dkim/sign';
import { crlfLineEnds } from '../../mail/smtp/smtp-data';

/** A sender domain's DKIM key, parsed once: the domain, its selector and the private key. */
export interface SigningKey {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject;
}

/**
 * DKIM-signs a built message in one pass over a Buffer. nodemailer's `dkim` option does the same through a
 * chain of streams that then hands the message to the socket a few bytes at a time, one write (and one
 * event-loop turn) per chunk, a large share of the pump's CPU and garbage per email. The header field comes
 * from nodemailer's own signer, so the message is byte for byte the one its `dkim` option sends
 * (test/emails/dkim-signature.unit.test.ts compares them).
 */

/**
 * nodemailer's default list of signed header fields plus List-Unsubscribe-Post: RFC 8058 requires the DKIM
 * signature to cover both List-Unsubscribe fields, so that one-click unsubscription cannot be grafted on.
 */
export const DKIM_SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Resent-Date',
  'Resent-From',
  'Resent-Sender',
  'Resent-To',
  'Resent-Cc',
  'Resent-Message-ID',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
].join(':');

const CRLF = Buffer.from('\r\n');

/** Where the body starts: after the first empty line, as nodemailer's message parser finds it. */
export function bodyStart(message: Buffer): number {
  const crlf = message.indexOf('\r\n\r\n');
  const lf = message.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf + 2 <= lf)) return crlf + 4;
  return lf >= 0 ? lf + 2 : message.length;
}

/** Header fields with their folded lines, as nodemailer's message parser hands them to its signer. */
function parseHeaders(raw: string): { key: string; line: string }[] {
  const lines = raw.split(/\r?\n/);
  for (let i = lines.length - 1; i > 0; i--) {
    if (/^\s/.test(lines[i]!)) {
      lines[i - 1] += `\n${lines[i]!}`;
      lines.splice(i, 1);
    }
  }
  return lines.filter((line) => line.trim()).map((line) => ({ key: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line }));
}

// Whitespace that the relaxed body canonicalization (RFC 6376 3.4.4) changes; most bodies have none of it.
const UNCANONICAL = /\t| {2}| \r?\n|(^|[^\r])\n| $/;

/** The relaxed body hash: whitespace runs as one space, none at line ends, no empty lines at the end. */
function relaxedBodyHash(body: Buffer): string {
  const hash = createHash('sha256');
  let text = body.toString('latin1');
  if (UNCANONICAL.test(text)) {
    text = text
      .replace(/\r?\n/g, '\n')
      .replace(/[ \t]+$/gm, '')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n/g, '\r\n');
  }
  let end = text.length;
  while (end >= 2 && text.charCodeAt(end - 2) === 13 && text.charCodeAt(end - 1) === 10) end -= 2;
  if (end > 0) hash.update(text.slice(0, end), 'latin1').update(CRLF);
  return hash.digest('base64');
}

/** The DKIM-Signature field (without its line break) over the header fields and the body hash. */
function signatureField(fields: { key: string; line: string }[], bodyHash: string, key: SigningKey): string {
  const field = signHeaders(fields, 'sha256', bodyHash, {
    domainName: key.domainName,
    keySelector: key.keySelector,
    // crypto's sign() takes the parsed KeyObject; the types only name PEM text.
    privateKey: key.privateKey as unknown as string,
    headerFieldNames: DKIM_SIGNED_HEADERS,
  });
  // nodemailer would send it unsigned; a message that fails DKIM is worse than a retry.
  if (!field) throw new Error(`DKIM signing with the key of ${key.domainName} failed`);
  return field;
}

/** The message with its DKIM-Signature field in front. */
export function signMessage(message: Buffer, key: SigningKey): Buffer {
  const start = bodyStart(message);
  const field = signatureField(parseHeaders(message.subarray(0, start).toString()), relaxedBodyHash(message.subarray(start)), key);
  return Buffer.concat([Buffer.from(`${field}\r\n`), message]);
}

/**
 * A message built in its two parts (mime-lean.ts), as signMessage sends it after crlfLineEnds, byte for byte,
 * without the passes over the joined message that those take (joining it, finding the body again, splitting
 * the header fields again): test/emails/mime-lean.unit.test.ts compares the two.
 */
export function signParts(message: { fields: string[]; body: Buffer }, key: SigningKey): Buffer {
  const body = crlfLineEnds(message.body);
  const fields = message.fields.map((line) => ({ key: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line }));
  const field = signatureField(fields, relaxedBodyHash(body), key);
  return Buffer.concat([Buffer.from(`${field}\r\n${message.fields.join('\r\n')}\r\n\r\n`), body]);
}
