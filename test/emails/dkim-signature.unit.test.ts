import { generateKeyPairSync } from 'node:crypto';
import type { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';
import { crlfLineEnds } from '../../src/mail/smtp/smtp-data';
import { composeMessage } from '../../src/modules/emails/compose';
import type { OutgoingEmail } from '../../src/modules/emails/outgoing';
import type { SigningKey } from '../../src/modules/emails/dkim-signature';
import { DKIM_SIGNED_HEADERS, signMessage } from '../../src/modules/emails/dkim-signature';
import { randomText, seededRandom } from '../helpers/seeded-random';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key: SigningKey = { domainName: 'news.example.test', keySelector: 'postwire', privateKey };

const base: OutgoingEmail = {
  id: '0193c7a1-7d7e-7c3a-9f00-1234567890ab',
  from: { email: 'hello@news.example.test', name: 'News' },
  to: { email: 'reader@example.test', name: 'A Reader' },
  subject: 'Your weekly digest',
  html: `<html><body>${'<p>Some  text, with <a href="https://example.test/a">a link</a>.</p>\n'.repeat(40)}</body></html>`,
  headers: { 'List-Unsubscribe': '<https://postwire.test/u/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
};

const cases: Record<string, OutgoingEmail> = {
  'ASCII HTML with list headers': base,
  'HTML and text with tabs, trailing spaces and blank lines at the end': {
    ...base,
    replyTo: 'replies@example.test',
    text: 'Hello\tthere   \r\nsecond line \n\n\n\n',
    html: `${base.html}   \n\n\n`,
  },
  'non-Latin text (base64) and a folded long subject': {
    ...base,
    subject: `Ежемесячный обзор ${'новостей '.repeat(12)}`,
    html: `<p>${'Привет, мир. '.repeat(200)}</p>`,
  },
  'attachments, one inline': {
    ...base,
    attachments: [
      { filename: 'report.pdf', content: Buffer.alloc(5_000, 7), contentType: 'application/pdf', disposition: 'attachment' },
      { filename: 'logo.png', content: Buffer.alloc(300, 1), contentType: 'image/png', contentId: 'logo', disposition: 'inline' },
    ],
  },
};

const collect = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

describe('signMessage', () => {
  it.each(Object.entries(cases))('sends the bytes nodemailer’s dkim option sends: %s', async (_name, email) => {
    const built = await new MailComposer(composeMessage(email)).compile().build();
    const theirs = await collect(
      new DKIM({ ...key, privateKey: privateKey as unknown as string, headerFieldNames: DKIM_SIGNED_HEADERS }).sign(built),
    );
    expect(theirs.toString()).toMatch(/^DKIM-Signature: /);
    expect(signMessage(built, key).toString('latin1')).toBe(theirs.toString('latin1'));
  });
});

describe('the relaxed body hash', () => {
  // Bodies as signMessage gets them (CRLF line ends, ending in a line with content) made of the characters the
  // canonicalization looks at, in every arrangement a few hundred draws reach.
  const alphabet = [' ', '\t', '\n', '\r\n', 'a', '.'];
  const next = seededRandom(7);
  const bodies = Array.from({ length: 300 }, () => `${randomText(next, alphabet, 14)}a\r\n`);

  it('is the one nodemailer’s dkim option computes, whatever the whitespace', async () => {
    const key1024: SigningKey = { ...key, privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey };
    const signer = new DKIM({ ...key1024, privateKey: key1024.privateKey as unknown as string, headerFieldNames: DKIM_SIGNED_HEADERS });
    for (const body of bodies) {
      const message = crlfLineEnds(Buffer.from(`Subject: whitespace\r\n\r\n${body}`));
      const theirs = await collect(signer.sign(message));
      expect([body, signMessage(message, key1024).toString('latin1')]).toEqual([body, theirs.toString('latin1')]);
    }
  });
});
