import type MimeNode from 'nodemailer/lib/mime-node';
import { qpEncode, qpWrap } from './quoted-printable';

/**
 * nodemailer's MimeNode.build() without its streams, for the messages that are all text in memory and not of
 * the shape mime-lean.ts builds: the headers are nodemailer's own, the quoted-printable encoding its encoding
 * (quoted-printable.ts), assembled in the order its stream() writes them. build() pipes every part through
 * several streams with an event-loop turn per step, half again the CPU of this for a typical email. Anything else (base64 parts such as attachments or
 * non-Latin text, streamed content) is left to build() (test/emails/mime-in-memory.unit.test.ts compares them).
 */

/** Content nodes whose bytes this module can produce exactly as build() would. */
function inMemory(node: MimeNode): boolean {
  const { content } = node;
  if (content) {
    if (typeof content !== 'string' && !Buffer.isBuffer(content)) return false;
    if (node.getTransferEncoding() === 'base64') return false;
  }
  return node.childNodes.every(inMemory);
}

function render(node: MimeNode, out: (string | Buffer)[]): void {
  out.push(`${node.buildHeaders()}\r\n\r\n`);
  const { content } = node;
  if (typeof content === 'string' || Buffer.isBuffer(content)) {
    if (content.length > 0) out.push(node.getTransferEncoding() === 'quoted-printable' ? qpWrap(qpEncode(content)) : content);
  }
  if (!node.multipart) return;
  node.childNodes.forEach((child, i) => {
    out.push(`${i > 0 ? '\r\n' : ''}--${String(node.boundary)}\r\n`);
    render(child, out);
  });
  out.push(`\r\n--${String(node.boundary)}--\r\n`);
}

/** The built message, or null when build() has to make it. */
export function buildInMemory(root: MimeNode): Buffer | null {
  if (!inMemory(root)) return null;
  const out: (string | Buffer)[] = [];
  render(root, out);
  return withFinalLineBreak(Buffer.concat(out.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))));
}

/** What a message whose last character is `last` needs to end in a line break, as nodemailer's build() ends every message. */
export const finalLineBreak = (last: number | undefined): string => (last === 0x0a ? '' : last === 0x0d ? '\n' : '\r\n');

function withFinalLineBreak(message: Buffer): Buffer {
  const missing = finalLineBreak(message.at(-1));
  return missing ? Buffer.concat([message, Buffer.from(missing)]) : message;
}
