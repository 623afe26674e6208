import PostalMime from 'postal-mime';
import { suspendProject } from '../../src/modules/reputation/suspension';
import { smtpDialog, plain } from '../helpers/smtp-dialog';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant } from '../helpers/tenants';
import { relay, relayPort } from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ smtpListeners: true, pump: true });
}, 60_000);
afterAll(() => stack.close());

const emailsOf = async (projectId: string) =>
  stack.deps.orm.em
    .fork()
    .execute<{ id: string; to_address: string; contact_id: string; status: string }[]>(
      `select "id", "to_address", "contact_id", "status" from emails where "project_id" = ? order by "to_address"`,
      [projectId],
    );

describe('SMTP relay', () => {
  it('sends each envelope recipient its own email, as given less Bcc, DKIM-signed, once even when the client sends it again', async () => {
    const t = await senderTenant(stack);
    const message = {
      from: `App <${t.from}>`,
      to: 'first@relay.example.test',
      bcc: 'hidden@relay.example.test',
      subject: 'Ticket #42 updated',
      text: 'Your ticket changed.',
      html: '<p>Your ticket <a href="https://example.test/42">changed</a>.</p>',
      messageId: `<ticket-42-${t.project.id}@app.example.test>`,
      headers: { 'X-Ticket': '42' },
    };
    const info = await relay(stack, t.project.secret, message);
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as [0-9a-f-]{36}$/);
    const queueId = info.response.split(' ').at(-1)!;

    const first = await stack.smtp.waitFor((m) => m.to.includes('first@relay.example.test'), 30_000);
    const hidden = await stack.smtp.waitFor((m) => m.to.includes('hidden@relay.example.test'), 30_000);
    expect(first.to).toEqual(['first@relay.example.test']);
    expect(hidden.to).toEqual(['hidden@relay.example.test']);
    for (const mail of [first, hidden]) {
      expect(mail.raw).toMatch(/^DKIM-Signature: /);
      expect(mail.raw).not.toMatch(/^Bcc:/im);
      expect(mail.raw).not.toContain('/t/c/'); // no link rewritten for tracking
      const parsed = await PostalMime.parse(mail.raw);
      expect(parsed.messageId).toBe(message.messageId);
      expect(parsed.subject).toBe('Ticket #42 updated');
      expect(parsed.headers.find((h) => h.key === 'x-ticket')?.value).toBe('42');
      expect(parsed.html).toContain('href="https://example.test/42"');
    }

    const emails = await emailsOf(t.project.id);
    expect(emails.map((e) => e.to_address)).toEqual(['first@relay.example.test', 'hidden@relay.example.test']);
    expect(emails.map((e) => e.id)).toContain(queueId);
    const email = await t.c.get(`/v1/emails/${queueId}`).expect(200);
    expect(email.body.data.subject).toBe('Ticket #42 updated');
    const contact = await t.c.get(`/contacts/${emails[1]!.contact_id}`).expect(200);
    expect(JSON.stringify(contact.body)).toContain('"subscribed":false');

    // The application retries after a timeout: the same Message-ID is answered 250 and not sent again.
    const again = await relay(stack, t.project.secret, message);
    expect(again.response).toBe(`250 2.0.0 Ok: already queued as ${queueId}`);
    expect(await emailsOf(t.project.id)).toHaveLength(2);
  });

  it('queues a message sent twice at once exactly once', async () => {
    const t = await senderTenant(stack);
    const message = {
      from: t.from,
      to: ['p@relay.example.test', 'q@relay.example.test'],
      subject: 'Twice',
      text: 'Hi',
      messageId: `<twice-${t.project.id}@app.example.test>`,
    };
    const answers = await Promise.all([relay(stack, t.project.secret, message), relay(stack, t.project.secret, message)]);
    const ids = answers.map((info) => info.response.split(' ').at(-1));
    expect(ids[0]).toBe(ids[1]);
    expect(answers.filter((info) => info.response.includes('already'))).toHaveLength(1);
    expect((await emailsOf(t.project.id)).map((e) => e.to_address)).toEqual(['p@relay.example.test', 'q@relay.example.test']);
  });

  it('gives each email its own Message-ID when the client gives none', async () => {
    const t = await senderTenant(stack);
    const port = relayPort(stack);
    const body = `From: ${t.from}\r\nTo: a@relay.example.test\r\nSubject: No id\r\n\r\nHello\r\n.`;
    const answers = await smtpDialog(port, [
      'EHLO app.example.test',
      `AUTH PLAIN ${plain('app', t.project.secret)}`,
      `MAIL FROM:<${t.from}>`,
      'RCPT TO:<a@relay.example.test>',
      'RCPT TO:<b@relay.example.test>',
      'DATA',
      body,
      'QUIT',
    ]);
    expect(answers[7]).toMatch(/^250 2\.0\.0 Ok: queued as /);
    const emails = await emailsOf(t.project.id);
    const a = await stack.smtp.waitFor((m) => m.to.includes('a@relay.example.test') && m.raw.includes('Subject: No id'), 30_000);
    const b = await stack.smtp.waitFor((m) => m.to.includes('b@relay.example.test') && m.raw.includes('Subject: No id'), 30_000);
    const idOf = async (raw: string) => (await PostalMime.parse(raw)).messageId;
    expect(await idOf(a.raw)).toBe(`<${emails[0]!.id}@${t.domain}>`);
    expect(await idOf(b.raw)).toBe(`<${emails[1]!.id}@${t.domain}>`);
  });

  it('answers every refusal with its SMTP code and queues nothing', async () => {
    const t = await senderTenant(stack);
    const other = await senderTenant(stack);
    const port = relayPort(stack);
    const say = (commands: string[]) => smtpDialog(port, ['EHLO app.example.test', ...commands, 'QUIT']);

    // No AUTH: MAIL is 530 5.7.0.
    expect((await say([`MAIL FROM:<${t.from}>`]))[2]).toMatch(/^530 5\.7\.0 /);
    // A public key, a wrong key: 535 5.7.8.
    expect((await say([`AUTH PLAIN ${plain('app', t.project.public)}`]))[2]).toMatch(/^535 5\.7\.8 /);
    expect((await say([`AUTH PLAIN ${plain('app', 'sk_wrong')}`]))[2]).toMatch(/^535 5\.7\.8 /);
    // Another project's key: its domains, not these.
    expect((await say([`AUTH PLAIN ${plain('app', other.project.secret)}`, `MAIL FROM:<${t.from}>`]))[3]).toMatch(/^550 5\.7\.1 /);
    // An envelope sender off the project's domains, at MAIL.
    expect((await say([`AUTH PLAIN ${plain('app', t.project.secret)}`, 'MAIL FROM:<someone@elsewhere.example.test>']))[3]).toMatch(
      /^550 5\.7\.1 /,
    );
    // A From header off them, at the end of DATA.
    const forged = await say([
      `AUTH PLAIN ${plain('app', t.project.secret)}`,
      `MAIL FROM:<${t.from}>`,
      'RCPT TO:<x@relay.example.test>',
      'DATA',
      `From: ceo@${other.domain}\r\nSubject: Forged\r\n\r\nHi\r\n.`,
    ]);
    expect(forged[6]).toMatch(/^550 5\.7\.1 /);
    // The 51st recipient is 452 4.5.3.
    const many = await say([
      `AUTH PLAIN ${plain('app', t.project.secret)}`,
      `MAIL FROM:<${t.from}>`,
      ...Array.from({ length: 51 }, (_, i) => `RCPT TO:<r${i}@relay.example.test>`),
    ]);
    expect(many.slice(4, 54).every((a) => a.startsWith('250'))).toBe(true);
    expect(many[54]).toMatch(/^452 4\.5\.3 /);
    expect(await emailsOf(t.project.id)).toHaveLength(0);

    // A suspended project: 554 5.7.0 at MAIL.
    await suspendProject(stack.deps.orm.em.fork(), t.project.id, 'Abuse report', 'operator');
    const suspended = await say([`AUTH PLAIN ${plain('app', t.project.secret)}`, `MAIL FROM:<${t.from}>`]);
    expect(suspended[3]).toMatch(/^554 5\.7\.0 The project is suspended: Abuse report/);
    await expect(
      relay(stack, t.project.secret, { from: t.from, to: 'y@relay.example.test', subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({
      responseCode: 554,
    });
    expect(await emailsOf(t.project.id)).toHaveLength(0);
  });
});
