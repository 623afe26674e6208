import { encode, wrap } from 'nodemailer/lib/qp';
import { qpEncode, qpEncodeAscii, qpWrap } from '../../src/modules/emails/quoted-printable';
import { randomText, seededRandom } from '../helpers/seeded-random';

// Weighted towards what moves soft line breaks: spaces, punctuation, line breaks, "=", hex digits, multi-byte text.
const ALPHABET = [
  'a',
  'b',
  'F',
  '3',
  'D',
  ' ',
  ' ',
  '\t',
  '.',
  ',',
  '!',
  '?',
  '\n',
  '\r\n',
  '\r',
  '=',
  '=3D',
  'é',
  '€',
  '😀',
  '<p>',
  'x'.repeat(80),
];

describe('quoted-printable', () => {
  it('encodes and wraps 3,000 random texts exactly as nodemailer does', () => {
    const differing: { seed: number; text: string; ours: string; theirs: string }[] = [];
    for (let seed = 1; seed <= 3_000; seed++) {
      const text = randomText(seededRandom(seed), ALPHABET, 400);
      const theirs = wrap(encode(text), 76);
      const ours = qpWrap(qpEncode(text));
      if (ours !== theirs) differing.push({ seed, text, ours, theirs });
    }
    expect(differing.slice(0, 1)).toEqual([]);
  });

  it('encodes 3,000 random ASCII texts, control characters among them, as it encodes their bytes', () => {
    const ascii = [...ALPHABET.filter((piece) => Buffer.byteLength(piece) === piece.length), '\x00', '\x01', '\x0b', '\x1f', '\x7f'];
    const differing: { seed: number; text: string }[] = [];
    for (let seed = 1; seed <= 3_000; seed++) {
      const text = randomText(seededRandom(seed), ascii, 300);
      if (qpEncodeAscii(text) !== qpEncode(text)) differing.push({ seed, text });
    }
    expect(differing.slice(0, 1)).toEqual([]);
  });

  it('escapes "=", whitespace before a line break and bytes outside ASCII', () => {
    expect(qpEncode('a=b \r\nc\t\nd é ')).toBe('a=3Db=20\r\nc=09\nd =C3=A9=20');
  });

  it('keeps every line within 76 characters and a UTF-8 sequence on one line', () => {
    const wrapped = qpWrap(qpEncode(`${'x'.repeat(70)}ééé${'y'.repeat(200)}`));
    const lines = wrapped.split('\r\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(76);
    expect(lines[0]).toBe(`${'x'.repeat(70)}=`);
    expect(lines[1]!.startsWith('=C3=A9=C3=A9=C3=A9')).toBe(true);
  });
});
