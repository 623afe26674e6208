import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { bearer } from '../domains/helpers';
import { recipient, send, settled } from '../emails/helpers';
import { eventsOf, headerOf, hrefsOf, mailTo, pathOf } from '../tracking/helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { tamperedSignature } from '../helpers/fixtures';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const BODY = `<p>News</p>
<a href="{{ unsubscribeUrl }}">Unsubscribe</a> <a href="{{ subscribeUrl }}">Subscribe</a> <a href="{{ manageUrl }}">Preferences</a>`;

async function marketingTemplate(sender: SenderTenant): Promise<string> {
  const res = await stack
    .http()
    .post('/templates')
    .set('Authorization', bearer(sender.project))
    .send({ name: 'News', subject: 'News', body: BODY, from: sender.from, type: 'MARKETING' })
    .expect(201);
  return res.body.id;
}

/** A subscribed contact that got a MARKETING email, with the links and headers of what arrived. */
async function subscriber(sender = undefined as SenderTenant | undefined) {
  const s = sender ?? (await senderTenant(stack));
  const to = recipient();
  const res = await send(stack, s.project, { to, template: await marketingTemplate(s), subscribed: true }).expect(200);
  const [{ email: emailId, contact }] = res.body.data.emails;
  const raw = await stack.smtp.waitFor((m) => m.to.includes(to));
  const mail = await mailTo(stack, to);
  await settled(stack, emailId);
  const [unsubscribe, subscribe, manage] = hrefsOf(mail.html ?? '').map(pathOf);
  return {
    sender: s,
    to,
    contactId: contact.id as string,
    raw,
    mail,
    links: { unsubscribe: unsubscribe!, subscribe: subscribe!, manage: manage! },
  };
}

const subscribedOf = async (contactId: string) =>
  (await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where id = ?', [contactId]))[0]!.subscribed;

const flipsOf = async (contactId: string) => (await eventsOf(stack, contactId)).filter((e) => e.name.startsWith('contact.'));

describe('unsubscribeUrl, subscribeUrl and manageUrl', () => {
  it('point at pages of the service with a token signed for the contact', async () => {
    const { contactId, links } = await subscriber();
    for (const [page, path] of Object.entries(links)) expect(path).toMatch(new RegExp(`^/${page}/${contactId}\\.[A-Za-z0-9_-]{22}$`));
  });
});

describe('List-Unsubscribe', () => {
  it('MARKETING mail carries List-Unsubscribe and RFC 8058 one-click, both covered by the DKIM signature', async () => {
    const { raw, mail, links, sender } = await subscriber();
    expect(headerOf(mail, 'List-Unsubscribe')).toBe(`<http://localhost:3000${links.unsubscribe}>`);
    expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const dkim = await dkimVerify(Buffer.from(raw.raw), { resolver: (name: string) => stack.deps.dns.resolveTxt(name) });
    expect(dkim.results.map((r) => [r.signingDomain, r.status.result])).toEqual([[sender.domain, 'pass']]);
    const signed = (dkim.results[0]!.signingHeaders?.keys ?? '')
      .toLowerCase()
      .split(':')
      .map((k) => k.trim());
    expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));
  });

  it('replaces a List-Unsubscribe the sender gave on MARKETING mail, and is absent from other mail', async () => {
    const sender = await senderTenant(stack);
    const to = recipient();
    const headers = { 'List-Unsubscribe': '<https://elsewhere.example.test/u>', 'list-unsubscribe-post': 'x' };
    await send(stack, sender.project, { to, template: await marketingTemplate(sender), headers }).expect(200);
    const mail = await mailTo(stack, to);
    expect(mail.headers.filter((h) => h.key === 'list-unsubscribe').map((h) => h.value)).toEqual([
      expect.stringMatching(/^<http:\/\/localhost:3000\/unsubscribe\//),
    ]);
    expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    const plain = recipient();
    await send(stack, sender.project, { to: plain, from: sender.from, subject: 'Receipt', body: '<p>Thanks</p>' }).expect(200);
    const receipt = await mailTo(stack, plain);
    expect(headerOf(receipt, 'List-Unsubscribe')).toBeUndefined();
    expect(headerOf(receipt, 'List-Unsubscribe-Post')).toBeUndefined();
  });

  it('one-click POST unsubscribes at once, with reason one_click', async () => {
    const { contactId, mail } = await subscriber();
    const url = headerOf(mail, 'List-Unsubscribe')!.slice(1, -1);
    const res = await stack.http().post(pathOf(url)).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(await subscribedOf(contactId)).toBe(false);
    expect(await flipsOf(contactId)).toEqual([{ name: 'contact.unsubscribed', data: { reason: 'one_click' } }]);
  });
});

describe('subscription pages', () => {
  it('the unsubscribe page asks first (GET changes nothing) and unsubscribes on POST, once', async () => {
    const { contactId, to, links } = await subscriber();
    const page = await stack.http().get(links.unsubscribe).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain(to);
    expect(page.text).toContain('<form method="post"><button type="submit">Unsubscribe</button></form>');
    expect(await subscribedOf(contactId)).toBe(true);

    const done = await stack.http().post(links.unsubscribe).type('form').send('').expect(200);
    expect(done.text).toContain('You are unsubscribed');
    expect(done.text).toContain(`action="http://localhost:3000${links.subscribe}"`);
    await stack.http().post(links.unsubscribe).type('form').send('').expect(200);
    expect(await subscribedOf(contactId)).toBe(false);
    expect(await flipsOf(contactId)).toEqual([{ name: 'contact.unsubscribed', data: { reason: 'unsubscribe_page' } }]);
  });

  it('the subscribe page subscribes on POST with reason subscribe_page', async () => {
    const { contactId, links } = await subscriber();
    await stack.http().post(links.unsubscribe).type('form').send('').expect(200);
    expect((await stack.http().get(links.subscribe).expect(200)).text).toContain('<button type="submit">Subscribe</button>');
    expect(await subscribedOf(contactId)).toBe(false);
    expect((await stack.http().post(links.subscribe).type('form').send('').expect(200)).text).toContain('You are subscribed');
    expect(await subscribedOf(contactId)).toBe(true);
    expect((await flipsOf(contactId)).map((e) => [e.name, e.data])).toEqual([
      ['contact.unsubscribed', { reason: 'unsubscribe_page' }],
      ['contact.subscribed', { reason: 'subscribe_page' }],
    ]);
  });

  it('the preferences page shows the state and sets the one chosen', async () => {
    const { contactId, links } = await subscriber();
    expect((await stack.http().get(links.manage).expect(200)).text).toContain('is subscribed to marketing email from Test project');
    const saved = await stack.http().post(links.manage).type('form').send('subscribed=false').expect(200);
    expect(saved.text).toContain('Your preferences were saved.');
    expect(saved.text).toContain('is unsubscribed from marketing email');
    expect(await subscribedOf(contactId)).toBe(false);
    expect(await flipsOf(contactId)).toEqual([{ name: 'contact.unsubscribed', data: { reason: 'preferences_page' } }]);
  });

  it('escapes what it shows', async () => {
    const sender = await senderTenant(stack);
    await stack
      .http()
      .patch(`/users/@me/projects/${sender.project.id}`)
      .set('Cookie', sender.user.cookie)
      .send({ name: '<b>Shop</b> & "Co"' })
      .expect(200);
    const { links } = await subscriber(sender);
    const page = await stack.http().get(links.unsubscribe).expect(200);
    expect(page.text).toContain('&lt;b&gt;Shop&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(page.text).not.toContain('<b>Shop</b>');
  });

  it('refuses forged, tampered and malformed tokens with a 404 page, changing nothing', async () => {
    const a = await subscriber();
    const b = await subscriber(a.sender);
    const signature = a.links.unsubscribe.split('.')[1]!;
    const forged = [
      `/unsubscribe/${b.contactId}.${signature}`,
      `/unsubscribe/${a.contactId}.${tamperedSignature(signature)}`,
      `/unsubscribe/${a.contactId}`,
      `/unsubscribe/${a.contactId}.`,
      `/unsubscribe/not-a-token.${signature}`,
      `/unsubscribe/${a.contactId}.${signature}.${signature}`,
      `/manage/${b.contactId}.${signature}`,
      `/subscribe/${b.contactId}.${signature}`,
    ];
    for (const path of forged) {
      for (const res of [await stack.http().get(path), await stack.http().post(path).type('form').send('subscribed=false')]) {
        expect([path, res.status, res.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8']);
        expect(res.text).toContain('This link does not work');
      }
    }
    const overlong = await stack
      .http()
      .post(`/unsubscribe/${'a'.repeat(300)}`)
      .type('form')
      .send('');
    expect(overlong.status).toBe(404);
    for (const c of [a, b]) {
      expect(await subscribedOf(c.contactId)).toBe(true);
      expect(await flipsOf(c.contactId)).toEqual([]);
    }
  });

  it('answers 404 for a deleted contact, and refuses a bad preferences form, changing nothing', async () => {
    const { contactId, links, sender } = await subscriber();
    for (const form of ['', 'subscribed=maybe', 'subscribed=']) {
      const res = await stack.http().post(links.manage).type('form').send(form);
      expect([form, res.status, res.body.error?.code]).toEqual([form, 422, 'VALIDATION_ERROR']);
    }
    expect(await subscribedOf(contactId)).toBe(true);
    expect(await flipsOf(contactId)).toEqual([]);

    await stack.http().delete(`/contacts/${contactId}`).set('Authorization', bearer(sender.project)).expect(204);
    expect((await stack.http().get(links.manage)).status).toBe(404);
    expect((await stack.http().post(links.unsubscribe).type('form').send('List-Unsubscribe=One-Click')).status).toBe(404);
  });
});
