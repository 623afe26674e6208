import { createHash, createSign, type KeyObject } from 'node:crypto';
import { foldLines } from 'nodemailer/lib/mime-funcs';
import { crlfLineEndsText } from '../../mail/smtp/smtp-data';
import type { LeanMessage } from './mime-lean';

/** A sender domain's DKIM key, parsed once: the domain, its selector and the private key. */
export interface SigningKey {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject;
}

/**
 * DKIM-signs a built message in one pass over a Buffer. nodemailer's `dkim` option does the same through a
 * chain of streams that then hands the message to the socket a few bytes at a time, one write (and one
 * event-loop turn) per chunk, a large share of the pump's CPU and garbage per email. The header field is
 * written as nodemailer's signer writes it, so the message is byte for byte the one its `dkim` option sends
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

/** A header field's folded line with its name as the signer looks it up: trimmed, lowercase. */
const headerField = (line: string) => ({ key: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line });

/** Header fields with their folded lines, as nodemailer's message parser hands them to its signer. */
function parseHeaders(raw: string): { key: string; line: string }[] {
  const lines = raw.split(/\r?\n/);
  for (let i = lines.length - 1; i > 0; i--) {
    if (/^\s/.test(lines[i]!)) {
      lines[i - 1] += `\n${lines[i]!}`;
      lines.splice(i, 1);
    }
  }
  return lines.filter((line) => line.trim()).map(headerField);
}

// Whitespace that the relaxed body canonicalization (RFC 6376 3.4.4) changes; most bodies have none of it. A bare
// line feed is found by a lookbehind: as a group before it, the test took twice as long over a body without any.
const UNCANONICAL = /\t| {2}| \r?\n|(?<!\r)\n| $/;

/**
 * The relaxed body hash of the body's bytes read as latin1 text: whitespace runs as one space, none at line ends,
 * no empty lines at the end.
 */
function relaxedBodyHash(body: string): string {
  const hash = createHash('sha256');
  let text = body;
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

/** The signed fields' names in the order the signature lists them, lowercase as in its `h=` tag. */
const SIGNED_NAMES = DKIM_SIGNED_HEADERS.toLowerCase().split(':');
const SIGNED_AT = new Map(SIGNED_NAMES.map((name, at) => [name, at]));

/**
 * A header field's value as the relaxed canonicalization reads it (RFC 6376 3.4.2): unfolded, whitespace runs as
 * one space, trimmed.
 */
const relaxedValue = (line: string) =>
  line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The DKIM-Signature field (without its line break) over the header fields and the body hash, as nodemailer's
 * signer (nodemailer/lib/dkim/sign.js) writes it: the last instance of each signed field, canonicalized and in
 * the list's order, then the field itself with an empty b= tag; the signature folded after 73 and then every 75
 * characters. Written here because the signer rebuilds its list of field names and folds the signature with a
 * regular expression for every message (docs/contributors/campaigns.md "The message's bytes written once"). The
 * domain is used as stored, already ASCII (src/modules/domains/hostname.ts), which the signer's punycode step
 * leaves as it is.
 */
function signatureField(fields: { key: string; line: string }[], bodyHash: string, key: SigningKey): string {
  const chosen: (string | undefined)[] = [];
  for (let i = fields.length - 1; i >= 0; i--) {
    const at = SIGNED_AT.get(fields[i]!.key);
    if (at !== undefined && chosen[at] === undefined) chosen[at] = fields[i]!.line;
  }
  const names: string[] = [];
  const canonical: string[] = [];
  for (let at = 0; at < SIGNED_NAMES.length; at++) {
    const line = chosen[at];
    if (line === undefined) continue;
    names.push(SIGNED_NAMES[at]!);
    canonical.push(`${SIGNED_NAMES[at]!}:${relaxedValue(line)}`);
  }
  const tags = `v=1; a=rsa-sha256; c=relaxed/relaxed; d=${key.domainName}; q=dns/txt; s=${key.keySelector}; bh=${bodyHash}; h=${names.join(':')}`;
  const field = `${foldLines(`DKIM-Signature: ${tags}`, 76)};\r\n b=`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256')
      .update(`${canonical.join('\r\n')}\r\ndkim-signature:${relaxedValue(field)}`)
      .sign(key.privateKey, 'base64');
  } catch (err) {
    // nodemailer would send it unsigned; a message that fails DKIM is worse than a retry.
    throw new Error(`DKIM signing with the key of ${key.domainName} failed`, { cause: err });
  }
  const lines = [signature.slice(0, 73)];
  for (let from = 73; from < signature.length; from += 75) lines.push(signature.slice(from, from + 75));
  return field + lines.join('\r\n ');
}

/** The message with its DKIM-Signature field in front. */
export function signMessage(message: Buffer, key: SigningKey): Buffer {
  const start = bodyStart(message);
  const field = signatureField(
    parseHeaders(message.subarray(0, start).toString()),
    relaxedBodyHash(message.toString('latin1', start)),
    key,
  );
  return Buffer.concat([Buffer.from(`${field}\r\n`), message]);
}

/**
 * A message built in its two parts (mime-lean.ts), as signMessage sends it after crlfLineEnds, byte for byte,
 * without the passes over the joined message that those take (joining it, finding the body again, splitting
 * the header fields again): test/emails/mime-lean.unit.test.ts compares the two.
 */
export function signParts(message: LeanMessage, key: SigningKey): Buffer {
  const body = crlfLineEndsText(message.body);
  const field = signatureField(message.fields.map(headerField), relaxedBodyHash(body), key);
  // One encoding of the whole message, in one Buffer; all ASCII (LeanMessage).
  return Buffer.from(`${field}\r\n${message.fields.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}
