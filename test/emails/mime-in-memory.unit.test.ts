import MailComposer from 'nodemailer/lib/mail-composer';
import { composeMessage } from '../../src/modules/emails/compose';
import type { OutgoingEmail } from '../../src/modules/emails/outgoing';
import { buildInMemory } from '../../src/modules/emails/mime-in-memory';

const base: OutgoingEmail = {
  id: '0193c7a1-7d7e-7c3a-9f00-1234567890ab',
  from: { email: 'hello@news.example.test', name: 'News, "Weekly"' },
  to: { email: 'reader@example.test', name: 'A Reader' },
  subject: 'Your weekly digest',
  html: `<html><body>${'<p style="a=b">Some  text, with <a href="https://example.test/a?x=1&amp;y=2">a link</a>.</p>\n.\n'.repeat(40)}</body></html>`,
  headers: {
    'List-Unsubscribe': '<https://postwire.test/u/abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'X-Campaign': 'spring',
  },
};

const inMemoryCases: Record<string, OutgoingEmail> = {
  'HTML only': base,
  'HTML and text (multipart/alternative) with a reply-to': {
    ...base,
    replyTo: 'replies@example.test',
    text: 'Hello there   \nsecond line\n',
  },
  'Latin text with accents, no line breaks, trailing space': {
    ...base,
    subject: 'Café crème',
    html: `<p>${'Déjà vu, naïve façade. '.repeat(30)}</p> `,
    text: 'x'.repeat(300),
  },
  'a one-character body': { ...base, html: 'x' },
};

const fallbackCases: Record<string, OutgoingEmail> = {
  'an attachment': {
    ...base,
    attachments: [{ filename: 'a.pdf', content: Buffer.alloc(100, 1), contentType: 'application/pdf', disposition: 'attachment' }],
  },
  'non-Latin text (base64)': { ...base, html: `<p>${'Привет, мир. '.repeat(50)}</p>` },
};

// Boundaries are random and the Date is the build's: both are fixed so that two builds can be compared.
const compile = (email: OutgoingEmail) => {
  const root = new MailComposer({ ...composeMessage(email), date: new Date('2026-11-22T10:00:00Z') }).compile();
  root.baseBoundary = 'fixed';
  return root;
};

describe('buildInMemory', () => {
  it.each(Object.entries(inMemoryCases))('builds the bytes nodemailer builds: %s', async (_name, email) => {
    const ours = buildInMemory(compile(email));
    expect(ours).not.toBeNull();
    expect(ours!.toString('latin1')).toBe((await compile(email).build()).toString('latin1'));
  });

  it.each(Object.entries(fallbackCases))('leaves %s to nodemailer', (_name, email) => {
    expect(buildInMemory(compile(email))).toBeNull();
  });
});
