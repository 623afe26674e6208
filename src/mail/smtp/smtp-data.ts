const DOT = 0x2e;
const CR = 0x0d;
const LF = 0x0a;
const STUFFED_DOT = Buffer.from('.');

/**
 * The message with every line ending a CRLF (RFC 5322 2.3, RFC 5321 2.3.8): a bare LF made one (text and HTML
 * keep the line feeds they were written with). Strict receivers refuse bare line feeds or take them for line
 * ends (Postfix's smtpd_forbid_bare_newline); nodemailer's SMTP transport converted them the same way. A
 * message without bare line feeds is returned as it is.
 */
export function crlfLineEnds(message: Buffer): Buffer {
  const isBare = (i: number) => i === 0 || message[i - 1] !== CR;
  let bare = 0;
  for (let i = message.indexOf(LF); i !== -1; i = message.indexOf(LF, i + 1)) if (isBare(i)) bare++;
  if (bare === 0) return message;
  const out = Buffer.allocUnsafe(message.length + bare);
  let from = 0;
  let to = 0;
  for (let i = message.indexOf(LF); i !== -1; i = message.indexOf(LF, i + 1)) {
    if (!isBare(i)) continue;
    to += message.copy(out, to, from, i);
    out[to++] = CR;
    out[to++] = LF;
    from = i + 1;
  }
  message.copy(out, to, from);
  return out;
}

/** crlfLineEnds for a message held as text, before it is encoded: one pass of the engine's string replace. */
export const crlfLineEndsText = (message: string): string => message.replace(/(?<!\r)\n/g, '\r\n');

/**
 * The message as DATA carries it (RFC 5321 4.5.2): with CRLF line ends (crlfLineEnds), and a line that starts
 * with "." given another, so that no line of the message reads as the terminating dot. DKIM signatures made
 * over the message before stay valid: the relaxed body canonicalization reads a bare LF as a line end too.
 */
export function smtpData(message: Buffer): Buffer {
  const lines = crlfLineEnds(message);
  const parts: Buffer[] = [];
  let from = 0;
  if (lines[0] === DOT) parts.push(STUFFED_DOT);
  for (let i = lines.indexOf('\n.'); i !== -1; i = lines.indexOf('\n.', i + 2)) {
    parts.push(lines.subarray(from, i + 1), STUFFED_DOT);
    from = i + 1;
  }
  if (parts.length === 0) return lines;
  parts.push(lines.subarray(from));
  return Buffer.concat(parts);
}

/** What ends DATA after the message as smtpData gave it: CRLF, the dot, CRLF. */
export function dataTerminator(data: Buffer): Buffer {
  const last = data[data.length - 1];
  return Buffer.from(last === LF ? '.\r\n' : last === CR ? '\n.\r\n' : '\r\n.\r\n');
}
