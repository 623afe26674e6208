import { generateKeyPairSync } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { composeMessage, messageIdOf } from '../../src/modules/emails/compose';
import type { OutgoingEmail } from '../../src/modules/emails/outgoing';
import { buildInMemory } from '../../src/modules/emails/mime-in-memory';
import { crlfLineEnds } from '../../src/mail/smtp/smtp-data';
import { signMessage, signParts } from '../../src/modules/emails/dkim-signature';
import { boundaryBaseOf, leanMessage, type LeanMessage } from '../../src/modules/emails/mime-lean';

const DATE = new Date('2026-11-29T10:00:00Z');

/** nodemailer's bytes for the email, with the boundary and the date the lean builder uses. */
async function nodemailers(email: OutgoingEmail): Promise<string> {
  const root = new MailComposer(composeMessage(email)).compile();
  root.baseBoundary = boundaryBaseOf(email.id);
  root.date = DATE;
  return (buildInMemory(root) ?? (await root.build())).toString('latin1');
}

const lean = (email: OutgoingEmail) => leanMessage(email, messageIdOf(email.id, email.from.email), DATE);

/** The lean message's bytes, as nodemailer builds them (LeanMessage). */
const joined = (message: LeanMessage) => Buffer.from(`${message.fields.join('\r\n')}\r\n\r\n${message.body}`, 'latin1');

const base: OutgoingEmail = {
  id: '0193c7a1-7d7e-7c3a-9f00-1234567890ab',
  from: { email: 'hello@News.Example.test', name: 'News, "Weekly" \\ digest' },
  to: { email: 'reader@example.test', name: 'A Reader' },
  subject: 'Your weekly digest',
  html: `<html><body>${'<p style="a=b">Some  text, with <a href="https://example.test/a?x=1&amp;y=2">a link</a>.</p>\n.\n'.repeat(40)}</body></html>`,
  text: `Some text\n${'A line of text that goes on for quite a while, longer than seventy-six characters. '.repeat(3)}\n`,
  headers: {
    'list-unsubscribe': '<https://postwire.test/u/abc>, <mailto:unsubscribe@postwire.test?subject=abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'X-Campaign-Id': 'spring',
  },
};

const built: Record<string, OutgoingEmail> = {
  'HTML and text, quoted-printable': base,
  'HTML only': { ...base, text: null },
  'short lines: 7bit': { ...base, html: '<p>Hello</p>\r\n<p>there</p>', text: 'Hello\nthere' },
  'HTML only, 7bit, no final line break': { ...base, html: '<p>Hi</p>', text: null },
  'HTML only, ending in a carriage return': { ...base, html: '<p>Hi</p>\r', text: null },
  'names without punctuation, no names, a reply-to': {
    ...base,
    from: { email: 'a@example.test', name: 'Plain Name 2' },
    to: { email: 'b@EXAMPLE.test' },
    replyTo: 'Replies@Example.TEST',
  },
  'a subject long enough to fold': { ...base, subject: `A subject ${'that keeps going '.repeat(10)}` },
  'Latin text with accents (quoted-printable by measure)': {
    ...base,
    html: `<p>${'Déjà vu, naïve façade. '.repeat(30)}</p> `,
    text: 'Crème brûlée',
  },
  'HTML starting with a bare line feed, whitespace at line ends, blank lines at the end': {
    ...base,
    html: '\n<p>a</p>  \n\n<p>b</p>\t\r\n\n\n',
    text: null,
  },
  'control characters in ASCII text': { ...base, html: `<p>a\x0bb</p>`, text: 'tab\there\x01' },
  'no custom headers': { ...base, headers: {} },
};

const leftToNodemailer: Record<string, OutgoingEmail> = {
  'an attachment': {
    ...base,
    attachments: [{ filename: 'a.pdf', content: Buffer.alloc(10, 1), contentType: 'application/pdf', disposition: 'attachment' }],
  },
  'a Cc': { ...base, cc: [{ email: 'c@example.test' }] },
  'a non-ASCII subject': { ...base, subject: 'Café' },
  'a double quote in the subject': { ...base, subject: 'The "best" offer' },
  'a non-ASCII name': { ...base, to: { email: 'b@example.test', name: 'Zoë' } },
  'an address with a display name part': { ...base, replyTo: 'Replies <r@example.test>' },
  'a header nodemailer treats itself': { ...base, headers: { References: '<a@b>' } },
  'a blank header value': { ...base, headers: { 'X-Empty': ' ' } },
  'non-Latin text (base64)': { ...base, html: `<p>${'Привет, мир. '.repeat(50)}</p>` },
};

describe('leanMessage', () => {
  it.each(Object.entries(built))('builds the bytes nodemailer builds: %s', async (_name, email) => {
    const ours = lean(email);
    expect(ours).not.toBeNull();
    expect(joined(ours!).toString('latin1')).toBe(await nodemailers(email));
  });

  it.each(Object.entries(leftToNodemailer))('leaves %s to nodemailer', (_name, email) => {
    expect(lean(email)).toBeNull();
  });

  it('bounds every header line and uses the email id in the boundary', () => {
    const message = joined(lean({ ...base, subject: `A subject ${'that keeps going '.repeat(10)}` })!).toString();
    const head = message.slice(0, message.indexOf('\r\n\r\n'));
    expect(Math.max(...head.split('\r\n').map((l) => l.length))).toBeLessThanOrEqual(78);
    expect(head).toContain('boundary="--_NmP-0193c7a17d7e7c3a9f001234567890ab-Part_1"');
  });
});

describe('signParts', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const key = { domainName: 'news.example.test', keySelector: 'postwire', privateKey };

  it.each(Object.entries(built))('signs the bytes signMessage signs, as SMTP sends them: %s', (_name, email) => {
    const ours = lean(email)!;
    expect(signParts(ours, key).toString('latin1')).toBe(signMessage(crlfLineEnds(joined(ours)), key).toString('latin1'));
  });
});
