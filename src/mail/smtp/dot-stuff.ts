const DOT = 0x2e;
const CR = 0x0d;
const LF = 0x0a;
const STUFFED_DOT = Buffer.from('.');
const CRLF = Buffer.from('\r\n');

/**
 * The message as DATA carries it (RFC 5321 2.3.8 and 4.5.2): every line ending a CRLF, a bare LF (text and
 * HTML keep the line feeds they were written with) made one, and a line that starts with "." given another, so
 * that no line of the message reads as the terminating dot. Strict receivers refuse bare line feeds or take them for
 * line ends (Postfix's smtpd_forbid_bare_newline); nodemailer's SMTP transport converted them the same way. DKIM
 * signatures stay valid: the relaxed body canonicalization reads a bare LF as a line end too. A message with
 * CRLF line ends and no line starting with a dot is returned as it is.
 */
export function smtpData(message: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  if (message[0] === DOT) parts.push(STUFFED_DOT);
  for (let i = message.indexOf(LF); i !== -1; i = message.indexOf(LF, i + 1)) {
    const bare = i === 0 || message[i - 1] !== CR;
    const dotted = message[i + 1] === DOT;
    if (!bare && !dotted) continue;
    parts.push(message.subarray(from, bare ? i : i + 1));
    if (bare) parts.push(CRLF);
    if (dotted) parts.push(STUFFED_DOT);
    from = i + 1;
  }
  if (parts.length === 0) return message;
  parts.push(message.subarray(from));
  return Buffer.concat(parts);
}

/** What ends DATA after the message as smtpData gave it: CRLF, the dot, CRLF. */
export function dataTerminator(data: Buffer): Buffer {
  const last = data[data.length - 1];
  return Buffer.from(last === LF ? '.\r\n' : last === CR ? '\n.\r\n' : '\r\n.\r\n');
}
