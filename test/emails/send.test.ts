import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { startStack, type TestStack } from '../helpers/stack';
import { parseMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { bearer } from '../domains/helpers';
import { emailRow, recipient, send, settled } from './helpers';
import { senderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pdf = Buffer.from('%PDF-1.4 a small report\n');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);

async function contactOf(id: string) {
  const [row] = await sql<{ email: string; subscribed: boolean; data: Record<string, unknown> }>(
    stack,
    'select * from contacts where id = ?',
    [id],
  );
  return row!;
}

describe('POST /v1/send', () => {
  it('records one email per recipient and answers with the envelope of docs/sending.md "Response"', async () => {
    const { project, from } = await senderTenant(stack);
    const to = recipient();
    const res = await send(stack, project, { to, from, subject: 'Hi', body: '<p>Hello</p>' }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        emails: [{ contact: { id: expect.stringMatching(UUID), email: to }, email: expect.stringMatching(UUID), scheduledAt: null }],
        timestamp: expect.any(String),
      },
    });
    expect(new Date(res.body.data.timestamp).toISOString()).toBe(res.body.data.timestamp);
    const email = await emailRow(stack, res.body.data.emails[0].email);
    expect(email).toMatchObject({ contact_id: res.body.data.emails[0].contact.id, to_address: to });
  });

  it('delivers the rendered message with its headers and attachments, DKIM-signed, under a Message-ID from the email id', async () => {
    const { project, from, domain } = await senderTenant(stack);
    const to = recipient();
    const reply = recipient('replies');
    const res = await send(stack, project, {
      to: { name: 'Ada Lovelace', email: to },
      from: { name: 'Postwire Team', email: from },
      reply,
      subject: 'Hello {{ name }}',
      body: '<p>Plan: {{ plan }}</p><p>Code {{ code }}</p><p>{{ unsubscribeUrl }}</p><img src="cid:logo">',
      headers: { 'X-Campaign-Tag': 'spring', 'X-Entity-Ref-ID': 'ticket 42' },
      attachments: [
        { filename: 'report.pdf', content: pdf.toString('base64'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: png.toString('base64'), contentType: 'image/png', contentId: 'logo', disposition: 'inline' },
      ],
      data: { plan: 'pro', code: { value: '1234', persistent: false } },
    }).expect(200);
    const [{ email: emailId, contact }] = res.body.data.emails;

    const raw = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(raw.from).toBe(from);
    const mail = await parseMail(raw);
    expect(mail.subject).toBe('Hello Ada Lovelace');
    expect(mail.html).toContain('<p>Plan: pro</p><p>Code 1234</p>');
    expect(mail.html).toContain(`/unsubscribe/${contact.id}`);
    expect(mail.from).toEqual({ name: 'Postwire Team', address: from });
    expect(mail.to).toEqual([{ name: 'Ada Lovelace', address: to }]);
    expect(mail.replyTo).toEqual([{ name: '', address: reply }]);
    expect(mail.messageId).toBe(`<${emailId}@${domain}>`);
    const header = (key: string) => mail.headers.find((h) => h.key === key)?.value;
    expect(header('x-campaign-tag')).toBe('spring');
    expect(header('x-entity-ref-id')).toBe('ticket 42');
    // The inline image travels in a multipart/related part, ahead of the other attachment.
    const files = [...mail.attachments].sort((x, y) => (x.filename! < y.filename! ? -1 : 1));
    expect(files.map((a) => [a.filename, a.mimeType, a.disposition, a.contentId ?? null])).toEqual([
      ['logo.png', 'image/png', 'inline', '<logo>'],
      ['report.pdf', 'application/pdf', 'attachment', null],
    ]);
    expect(Buffer.from(files[0]!.content as ArrayBuffer).equals(png)).toBe(true);
    expect(Buffer.from(files[1]!.content as ArrayBuffer).equals(pdf)).toBe(true);

    const dkim = await dkimVerify(Buffer.from(raw.raw), { resolver: (name: string) => stack.deps.dns.resolveTxt(name) });
    expect(dkim.results.map((r) => [r.signingDomain, r.status.result])).toEqual([[domain, 'pass']]);

    // The contact: created unsubscribed, with the recipient's name and the stored data only.
    expect(await contactOf(contact.id)).toMatchObject({ subscribed: false, data: { name: 'Ada Lovelace', plan: 'pro' } });
    const row = await settled(stack, emailId);
    expect(row).toMatchObject({ status: 'SENT', attempts: 1, error: null });
    const events = await sql<{ name: string; data: Record<string, unknown> }>(stack, 'select name, data from events where contact_id = ?', [
      contact.id,
    ]);
    expect(events).toEqual([
      { name: 'email.sent', data: { emailId, subject: 'Hello Ada Lovelace', from, sourceType: 'TRANSACTIONAL', tags: {} } },
    ]);
  });

  it('sends a template, with the request overriding its subject and sender name, and marks MARKETING templates', async () => {
    const { project, from } = await senderTenant(stack);
    const template = await stack
      .http()
      .post('/templates')
      .set('Authorization', bearer(project))
      .send({
        name: 'Welcome',
        subject: 'Welcome, {{ name ?? "friend" }}',
        body: '<h1>Welcome {{ name ?? "friend" }}</h1>',
        from,
        fromName: 'The Team',
        replyTo: 'support@example.test',
        type: 'MARKETING',
      })
      .expect(201);
    const to = recipient();
    const res = await send(stack, project, {
      to,
      template: template.body.id,
      subject: 'Overridden for {{ email }}',
      name: 'Ignored',
    }).expect(200);
    const emailId = res.body.data.emails[0].email;
    const mail = await parseMail(await stack.smtp.waitFor((m) => m.to.includes(to)));
    expect(mail.subject).toBe(`Overridden for ${to}`);
    expect(mail.html).toContain('<h1>Welcome friend</h1>');
    // `name` is only a fallback for a plain-address `from`; here the template's sender and name apply.
    expect(mail.from).toEqual({ name: 'The Team', address: from });
    expect(mail.replyTo).toEqual([{ name: '', address: 'support@example.test' }]);
    const [row] = await sql<{ template_id: string; marketing: boolean; source_type: string }>(stack, 'select * from emails where id = ?', [
      emailId,
    ]);
    expect(row).toMatchObject({ template_id: template.body.id, marketing: true, source_type: 'TRANSACTIONAL' });
    await settled(stack, emailId);
    const [event] = await sql<{ data: Record<string, unknown> }>(
      stack,
      `select data from events where name = 'email.sent' and data->>'emailId' = ?`,
      [emailId],
    );
    expect(event!.data).toMatchObject({ templateId: template.body.id, sourceType: 'TRANSACTIONAL' });
  });

  it('uses the deprecated name as the display name of a plain from address', async () => {
    const { project, from } = await senderTenant(stack);
    const to = recipient();
    await send(stack, project, { to, from, name: 'Legacy Name', subject: 'S', body: 'B' }).expect(200);
    const mail = await parseMail(await stack.smtp.waitFor((m) => m.to.includes(to)));
    expect(mail.from).toEqual({ name: 'Legacy Name', address: from });
  });

  it('processes each recipient with its own contact and rendering', async () => {
    const { project, from } = await senderTenant(stack);
    const [a, b] = [recipient('a'), recipient('b')];
    const res = await send(stack, project, {
      to: [a.toUpperCase(), { name: 'Bea', email: b }],
      from,
      subject: 'For {{ email }}',
      body: 'Hi {{ name ?? "there" }}, you are on {{ plan }}',
      data: { plan: 'team' },
    }).expect(200);
    expect(res.body.data.emails.map((e: { contact: { email: string } }) => e.contact.email)).toEqual([a, b]);
    const [mailA, mailB] = await Promise.all([a, b].map(async (to) => parseMail(await stack.smtp.waitFor((m) => m.to.includes(to)))));
    // Each body is followed by its open pixel (docs/tracking.md).
    const bodyOf = (html = '') => html.replace(/<img src="[^"]*\/t\/o\/[^>]*>\s*$/, '').trim();
    expect([mailA!.subject, bodyOf(mailA!.html)]).toEqual([`For ${a}`, 'Hi there, you are on team']);
    expect([mailB!.subject, bodyOf(mailB!.html)]).toEqual([`For ${b}`, 'Hi Bea, you are on team']);
    expect(new Set(res.body.data.emails.map((e: { email: string }) => e.email)).size).toBe(2);
  });

  it('keeps an existing contact subscription unless told, and a change emits its event', async () => {
    const { project, from } = await senderTenant(stack);
    const to = recipient();
    const created = await stack
      .http()
      .post('/contacts')
      .set('Authorization', bearer(project))
      .send({ email: to, data: { plan: 'free' } })
      .expect(201);
    await send(stack, project, { to, from, subject: 'S', body: 'B' }).expect(200);
    expect(await contactOf(created.body.id)).toMatchObject({ subscribed: true, data: { plan: 'free' } });
    await send(stack, project, { to, from, subject: 'S', body: 'B', subscribed: false, data: { plan: null } }).expect(200);
    expect(await contactOf(created.body.id)).toMatchObject({ subscribed: false, data: {} });
    const flips = await sql(stack, `select name from events where contact_id = ? and name like 'contact.%'`, [created.body.id]);
    expect(flips).toEqual([{ name: 'contact.unsubscribed' }]);

    const fresh = recipient();
    const res = await send(stack, project, { to: fresh, from, subject: 'S', body: 'B', subscribed: true }).expect(200);
    expect(await contactOf(res.body.data.emails[0].contact.id)).toMatchObject({ subscribed: true });
  });
});
