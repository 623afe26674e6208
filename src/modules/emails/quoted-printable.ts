/**
 * Quoted-printable as nodemailer writes it (its qp module's encode() and wrap()), byte for byte, at a fraction
 * of the cost: nodemailer appends one character at a time and matches regular expressions against every
 * 76-character window, a large share of building a message. test/emails/quoted-printable.unit.test.ts
 * compares the two on random text.
 */

const LINE_LENGTH = 76;
const MARGIN = Math.floor(LINE_LENGTH / 3);

/** Bytes written as themselves (RFC 2045 6.7): tab, line breaks and printable ASCII but "=". */
const LITERAL = new Uint8Array(256);
for (const b of [0x09, 0x0a, 0x0d]) LITERAL[b] = 1;
for (let b = 0x20; b <= 0x7e; b++) LITERAL[b] = b === 0x3d ? 0 : 1;
const ESCAPED = Array.from({ length: 256 }, (_, b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`);

const isLineBreak = (b: number | undefined) => b === 0x0a || b === 0x0d;

/** The bytes (of text: UTF-8), quoted-printable encoded, without line length limits (see qpWrap). */
export function qpEncode(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const last = bytes.length - 1;
  let out = '';
  let start = 0;
  for (let i = 0; i <= last; i++) {
    const b = bytes[i]!;
    // Whitespace at the end of a line would be lost in transit, so it is escaped there.
    if (LITERAL[b] === 1 && !((b === 0x20 || b === 0x09) && (i === last || isLineBreak(bytes[i + 1])))) continue;
    out += bytes.toString('latin1', start, i) + ESCAPED[b]!;
    start = i + 1;
  }
  return out + bytes.toString('latin1', start);
}

// In ASCII text, what qpEncode escapes: controls, "=", DEL, and a space or tab before a line break or at the end.
const ESCAPED_IN_ASCII = /[^\t\n\r\x20-\x3c\x3e-\x7e]|[ \t](?=[\r\n]|$)/g;

/** qpEncode of text known to be ASCII (a character is its byte), in one pass of the engine's string replace. */
export const qpEncodeAscii = (text: string): string => text.replace(ESCAPED_IN_ASCII, (c) => ESCAPED[c.charCodeAt(0)]!);

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isBreakChar = (c: number) => c === 0x20 || c === 0x09 || c === 0x2e || c === 0x2c || c === 0x21 || c === 0x3f;

/** Whether s[from, to) ends with "=" followed by `min` to 2 hex digits. */
function endsInEscape(s: string, from: number, to: number, min: number): number {
  for (let digits = min; digits <= 2; digits++) {
    const eq = to - 1 - digits;
    if (eq < from || s.charCodeAt(eq) !== 0x3d) continue;
    let hex = true;
    for (let k = eq + 1; k < to; k++) hex &&= isHex(s.charCodeAt(k));
    if (hex) return digits + 1;
  }
  return 0;
}

/** Whether s[from, to) is nothing but one to four escapes ("=XX"). */
function allEscapes(s: string, from: number, to: number): boolean {
  const n = to - from;
  if (n < 3 || n > 12 || n % 3 !== 0) return false;
  for (let k = from; k < to; k += 3) if (endsInEscape(s, k, k + 3, 2) !== 3) return false;
  return true;
}

/**
 * Soft line breaks ("=\r\n") so that no line is longer than 76 characters, placed where nodemailer places
 * them: at a line break or after a space or punctuation near the end of the window when there is one, never
 * inside an escape or a UTF-8 sequence.
 */
export function qpWrap(s: string): string {
  const len = s.length;
  if (len <= LINE_LENGTH) return s;
  let out = '';
  let pos = 0;
  let crlf = s.indexOf('\r\n');
  while (pos < len) {
    const end = Math.min(pos + LINE_LENGTH, len);
    if (crlf >= 0 && crlf < pos) crlf = s.indexOf('\r\n', pos);
    if (crlf >= 0 && crlf + 2 <= end) {
      out += s.slice(pos, crlf + 2);
      pos = crlf + 2;
      continue;
    }
    if (s.charCodeAt(end - 1) === 0x0a) {
      out += s.slice(pos, end);
      pos = end;
      continue;
    }
    let cut = end;
    const tail = Math.max(pos, end - MARGIN);
    const lf = lastIn(s, tail, end, (c) => c === 0x0a);
    const breakChar = end - pos > LINE_LENGTH - MARGIN ? lastIn(s, tail, end, isBreakChar) : -1;
    // The last line feed of the window's tail, unless a carriage return follows it there.
    if (lf >= 0 && lastIn(s, lf, end, (c) => c === 0x0d) < 0) {
      cut = lf + 1;
    } else if (breakChar >= 0) {
      cut = breakChar + 1;
    } else if (endsInEscape(s, pos, end, 0)) {
      const partial = endsInEscape(s, pos, end, 0);
      if (partial < 3) cut -= partial;
      // A UTF-8 sequence stays on one line: move its bytes to the next one.
      while (cut - pos > 3 && cut - pos < len - pos && !allEscapes(s, pos, cut) && endsInEscape(s, pos, cut, 2) === 3) {
        const code = parseInt(s.slice(cut - 2, cut), 16);
        if (code < 0x80) break;
        cut -= 3;
        if (code >= 0xc0) break;
      }
    }
    if (cut < len && s.charCodeAt(cut - 1) !== 0x0a) {
      if (cut - pos === LINE_LENGTH) cut -= endsInEscape(s, pos, cut, 2) === 3 ? 3 : 1;
      out += `${s.slice(pos, cut)}=\r\n`;
    } else {
      out += s.slice(pos, cut);
    }
    pos = cut;
  }
  return out;
}

/** The last position in s[from, to) whose character passes `test`, or -1. */
function lastIn(s: string, from: number, to: number, test: (c: number) => boolean): number {
  for (let k = to - 1; k >= from; k--) if (test(s.charCodeAt(k))) return k;
  return -1;
}
