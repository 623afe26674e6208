import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { bearer } from '../domains/helpers';
import { emailRow, send, settled } from '../emails/helpers';
import { emailState, eventsOf } from '../tracking/helpers';

const SIM = 'simulator.postwire.test';

let stack: TestStack;
let sender: SenderTenant;
beforeAll(async () => {
  stack = await startStack({ pump: true, env: { SANDBOX_ENABLED: 'true' } });
  sender = await senderTenant(stack);
});
afterAll(() => stack?.close());

const subscribedOf = async (contactId: string) =>
  (await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where id = ?', [contactId]))[0]!.subscribed;

/** Sends one email to `to` and returns its id and contact. */
async function sendTo(to: string, html = '<p>Hi</p>', extra: object = {}) {
  const res = await send(stack, sender.project, { to, from: sender.from, subject: 'Hello', body: html, subscribed: true, ...extra }).expect(
    200,
  );
  const [{ email, contact }] = res.body.data.emails;
  return { emailId: email as string, contactId: contact.id as string };
}

/** Waits until the email's status is `status`, and returns the contact's event names (email.sent aside). */
async function outcome(sent: { emailId: string; contactId: string }, status: string, events: number) {
  await waitFor(`email ${sent.emailId} to be ${status}`, async () =>
    (await emailState(stack, sent.emailId)).status === status ? true : undefined,
  );
  return waitFor(`${events} events`, async () => {
    const rows = await eventsOf(stack, sent.contactId);
    return rows.length >= events ? rows : undefined;
  });
}

const byName = <T extends { name: string }>(rows: T[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));

const unique = (mailbox: string) => `${mailbox}+${Math.random().toString(36).slice(2, 10)}@${SIM}`;

describe('simulator addresses (SANDBOX_ENABLED)', () => {
  it('delivered@: sent over SMTP to the simulator, then DELIVERED with email.delivery; nothing reaches the relay', async () => {
    const to = unique('delivered');
    const sent = await sendTo(to);
    const events = await outcome(sent, 'DELIVERED', 1);
    expect(events.map((e) => e.name)).toEqual(['email.delivery']);
    expect(events[0]!.data).toMatchObject({ emailId: sent.emailId, subject: 'Hello', from: sender.from });
    expect(await emailRow(stack, sent.emailId)).toMatchObject({ attempts: 1, error: null });
    expect(stack.smtp.to(to)).toHaveLength(0);
  });

  it('bounce@: email.bounce Permanent, the contact unsubscribed, the address suppressed and later marketing held back', async () => {
    const to = unique('bounce');
    const sent = await sendTo(to);
    const events = await outcome(sent, 'BOUNCED', 3);
    // One transaction records them, so their order is not told.
    expect(byName(events)).toEqual([
      { name: 'contact.unsubscribed', data: { reason: 'bounce' } },
      { name: 'email.bounce', data: expect.objectContaining({ emailId: sent.emailId, bounceType: 'Permanent' }) },
      { name: 'suppression.added', data: { email: to, reason: 'BOUNCE', emailId: sent.emailId } },
    ]);
    expect(await subscribedOf(sent.contactId)).toBe(false);
    const [contact] = await sql<{ email: string }>(stack, 'select email from contacts where id = ?', [sent.contactId]);
    const template = await stack
      .http()
      .post('/templates')
      .set('Authorization', bearer(sender.project))
      .send({ name: 'News', subject: 'News', body: '<p>News</p>', from: sender.from, type: 'MARKETING' })
      .expect(201);
    const res = await send(stack, sender.project, { to: contact!.email, template: template.body.id }).expect(200);
    expect(await settled(stack, res.body.data.emails[0].email)).toMatchObject({ status: 'SUPPRESSED' });
  });

  it('softbounce@: refused for now (4xx), retried, then delivered', async () => {
    const sent = await sendTo(unique('softbounce'));
    const events = await outcome(sent, 'DELIVERED', 2);
    // The refusal shows as a deferral (docs/activity.md), then the retry is delivered.
    expect(events.map((e) => e.name)).toEqual(['email.deferred', 'email.delivery']);
    expect(events[0]!.data).toMatchObject({ emailId: sent.emailId, attempt: 1, reason: expect.stringMatching(/^451 4\.2\.0/) });
    expect(await emailRow(stack, sent.emailId)).toMatchObject({ attempts: 2 });
    expect(await subscribedOf(sent.contactId)).toBe(true);
  });

  it('complaint@: delivered, then email.complaint and the contact unsubscribed', async () => {
    const sent = await sendTo(unique('complaint'));
    const events = await outcome(sent, 'COMPLAINED', 4);
    expect(events[0]!.name).toBe('email.delivery');
    expect(byName(events.slice(1)).map((e) => [e.name, e.data.reason])).toEqual([
      ['contact.unsubscribed', 'complaint'],
      ['email.complaint', undefined],
      ['suppression.added', 'COMPLAINT'],
    ]);
    expect(await subscribedOf(sent.contactId)).toBe(false);
  });

  it('open@: delivered, then opened through its tracking pixel', async () => {
    const sent = await sendTo(unique('open'), '<p>Hi <a href="https://example.com/a">a</a></p>');
    const events = await outcome(sent, 'OPENED', 2);
    expect(events.map((e) => e.name)).toEqual(['email.delivery', 'email.open']);
    expect((await emailState(stack, sent.emailId)).clicked_at).toBeNull();
  });

  it('click@: delivered, opened, then its first tracked link clicked (in a multipart message too)', async () => {
    const attachment = {
      filename: 'a.txt',
      content: Buffer.from('see https://example.com/not-a-link').toString('base64'),
      contentType: 'text/plain',
    };
    const sent = await sendTo(
      unique('click'),
      '<p>Caf\u00e9 <a href="https://example.com/first?x=1&amp;y=2">one</a> <a href="https://example.com/second">two</a></p>',
      { attachments: [attachment] },
    );
    const events = await outcome(sent, 'CLICKED', 3);
    expect(events.map((e) => e.name)).toEqual(['email.delivery', 'email.open', 'email.click']);
    expect(events[2]!.data).toMatchObject({ link: 'https://example.com/first?x=1&y=2' });
  });

  it('an address at the simulator domain that is no simulator mailbox is 422, and nothing is queued', async () => {
    const res = await send(stack, sender.project, {
      to: [`someone@example.com`, `nobody@${SIM}`],
      from: sender.from,
      subject: 'x',
      body: 'x',
    }).expect(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'to.1', code: 'simulator_address' }] });
    const [{ n }] = await sql<{ n: string }>(stack, 'select count(*) as n from contacts where project_id = ? and email = ?', [
      sender.project.id,
      'someone@example.com',
    ]);
    expect(Number(n)).toBe(0);
  });
});

describe('with the sandbox off (the default outside npm start)', () => {
  let off: TestStack;
  beforeAll(async () => {
    off = await startStack({ pump: true });
  });
  afterAll(() => off?.close());

  it('refuses the simulator domain at /v1/send with 422 and queues nothing', async () => {
    const t = await senderTenant(off);
    for (const to of [`delivered@${SIM}`, [`a@example.com`, `Bounce+x@${SIM.toUpperCase()}`]]) {
      const res = await send(off, t.project, { to, from: t.from, subject: 'x', body: 'x' }).expect(422);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('SANDBOX_ENABLED') },
      });
    }
    const [{ n }] = await sql<{ n: string }>(off, 'select count(*) as n from emails where project_id = ?', [t.project.id]);
    expect(Number(n)).toBe(0);
  });
});
