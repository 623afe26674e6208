import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { bearer } from '../domains/helpers';
import { recipient, send, settled } from '../emails/helpers';
import { emailState, eventsOf, headerOf, hrefsOf, mailTo, pathOf, pixelOf, setTrackingMode } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { tamperedSignature } from '../helpers/fixtures';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const BODY = `<html><body>
<p>Read <a class="cta" href="https://shop.example.test/sale?utm=mail&amp;id=7">the sale</a></p>
<p><a href='mailto:help@example.test'>Write to us</a> <a href="#top">Top</a></p>
<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>
</body></html>`;

const TARGET = 'https://shop.example.test/sale?utm=mail&id=7';

/** Sends BODY to a fresh recipient and waits for it at the SMTP sink. */
async function sendOne(sender: SenderTenant, extra: Record<string, unknown> = {}) {
  const to = recipient();
  const res = await send(stack, sender.project, { to, from: sender.from, subject: 'Sale', body: BODY, ...extra }).expect(200);
  const [{ email: emailId, contact }] = res.body.data.emails;
  const mail = await mailTo(stack, to);
  await settled(stack, emailId);
  return { emailId, contactId: contact.id as string, mail, html: mail.html ?? '' };
}

const clickLink = (html: string) => hrefsOf(html).find((h) => h.includes('/t/c/'))!;

describe('tracking in sent email', () => {
  it('routes web links through a signed click redirect, adds a no-cache open pixel, and leaves other links alone', async () => {
    const sender = await senderTenant(stack);
    const { emailId, contactId, html, mail } = await sendOne(sender);

    const links = hrefsOf(html);
    const click = new URL(clickLink(html));
    expect(click.origin).toBe('http://localhost:3000');
    expect(click.pathname).toBe(`/t/c/${emailId}`);
    expect(click.searchParams.get('u')).toBe(TARGET);
    expect(html).toContain('class="cta" href="http://localhost:3000/t/c/');
    expect(links).toContain('mailto:help@example.test');
    expect(links).toContain('#top');
    // The subscription pages are the service's own, not clicks on the content.
    expect(links.find((h) => h.includes('/unsubscribe/'))).toMatch(new RegExp(`^http://localhost:3000/unsubscribe/${contactId}\\.`));
    const pixel = pixelOf(html)!;
    expect(new URL(pixel).pathname).toBe(`/t/o/${emailId}`);
    expect(html.indexOf(pixel.replace(/&/g, '&amp;'))).toBeLessThan(html.indexOf('</body>'));
    // Transactional mail without a MARKETING template carries no List-Unsubscribe.
    expect(headerOf(mail, 'List-Unsubscribe')).toBeUndefined();

    const opened = await stack.http().get(pathOf(pixel)).expect(200);
    expect(opened.headers['content-type']).toBe('image/gif');
    expect(opened.headers['cache-control']).toContain('no-store');
    expect(opened.headers['cache-control']).toContain('no-cache');
    expect(
      Buffer.from(opened.body as Buffer)
        .subarray(0, 6)
        .toString(),
    ).toBe('GIF89a');
    const afterOpen = await emailState(stack, emailId);
    expect(afterOpen.status).toBe('OPENED');
    expect(afterOpen.opened_at).not.toBeNull();

    const clicked = await stack.http().get(pathOf(click.toString())).redirects(0).expect(302);
    expect(clicked.headers.location).toBe(TARGET);
    expect(clicked.headers['cache-control']).toBe('no-store');
    expect(await emailState(stack, emailId)).toMatchObject({
      status: 'CLICKED',
      opened_at: afterOpen.opened_at,
      clicked_at: expect.any(String),
    });

    const data = { emailId, subject: 'Sale', from: sender.from, sourceType: 'TRANSACTIONAL', tags: {} };
    expect(await eventsOf(stack, contactId)).toEqual([
      { name: 'email.open', data },
      { name: 'email.click', data: { ...data, link: TARGET } },
    ]);
  });

  it('keeps the first open time and one email.open on repeated opens, never moves back from CLICKED, and counts each click, without rewriting the email for repeats', async () => {
    const { emailId, contactId, html } = await sendOne(await senderTenant(stack));
    const click = pathOf(clickLink(html));
    await stack.http().get(click).redirects(0).expect(302);
    await stack
      .http()
      .get(pathOf(pixelOf(html)!))
      .expect(200);
    const first = await emailState(stack, emailId);
    expect(first).toMatchObject({ status: 'CLICKED', opened_at: expect.any(String) });
    const rowVersion = async () => (await sql<{ v: string }>(stack, 'select xmin::text as v from emails where id = ?', [emailId]))[0]!.v;
    const version = await rowVersion();

    await stack
      .http()
      .get(pathOf(pixelOf(html)!))
      .expect(200);
    await stack.http().get(click).redirects(0).expect(302);
    // A HEAD request (a link checker) follows the link but is no click.
    await stack.http().head(click).redirects(0).expect(302);
    const again = await emailState(stack, emailId);
    expect(again).toEqual(first);
    expect(await rowVersion()).toBe(version);
    expect((await eventsOf(stack, contactId)).map((e) => e.name)).toEqual(['email.click', 'email.open', 'email.click']);
  });

  it('refuses tampered and unsigned links without redirecting or recording anything', async () => {
    const { emailId, contactId, html } = await sendOne(await senderTenant(stack));
    const other = await sendOne(await senderTenant(stack));
    const click = new URL(clickLink(html));
    const signature = click.searchParams.get('s')!;
    const pixel = new URL(pixelOf(html)!);
    const before = await emailState(stack, emailId);

    const tampered = [
      `/t/c/${emailId}?u=${encodeURIComponent('https://evil.example.test/')}&s=${signature}`,
      `/t/c/${emailId}?u=${encodeURIComponent(TARGET)}&s=${tamperedSignature(signature)}`,
      `/t/c/${emailId}?u=${encodeURIComponent(TARGET)}&s=`,
      `/t/c/${other.emailId}?u=${encodeURIComponent(TARGET)}&s=${signature}`,
      `/t/c/${emailId}?u=${encodeURIComponent(`${TARGET}#more`)}&s=${signature}`,
      `/t/o/${emailId}?s=${signature}`,
      `/t/o/${other.emailId}${pixel.search}`,
      `/t/c/not-an-id?u=${encodeURIComponent(TARGET)}&s=${signature}`,
    ];
    for (const path of tampered) {
      const res = await stack.http().get(path).redirects(0);
      expect([path, res.status, res.headers.location]).toEqual([path, 404, undefined]);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    for (const path of [`/t/c/${emailId}?s=${signature}`, `/t/c/${emailId}?u=${encodeURIComponent(TARGET)}`, `/t/o/${emailId}`]) {
      const res = await stack.http().get(path).redirects(0);
      expect([path, res.status, res.headers.location]).toEqual([path, 400, undefined]);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect(await emailState(stack, emailId)).toEqual(before);
    expect(await emailState(stack, other.emailId)).toMatchObject({ status: 'SENT', opened_at: null, clicked_at: null });
    expect(await eventsOf(stack, contactId)).toEqual([]);
    expect(await eventsOf(stack, other.contactId)).toEqual([]);
  });

  it('still redirects a signed link once its email is gone, recording nothing', async () => {
    const sender = await senderTenant(stack);
    const { emailId, html } = await sendOne(sender);
    await sql(stack, 'delete from emails where id = ?', [emailId]);
    const res = await stack
      .http()
      .get(pathOf(clickLink(html)))
      .redirects(0)
      .expect(302);
    expect(res.headers.location).toBe(TARGET);
    await stack
      .http()
      .get(pathOf(pixelOf(html)!))
      .expect(200);
    const events = await sql(stack, `select name from events where project_id = ? and name <> 'email.sent'`, [sender.project.id]);
    expect(events).toEqual([]);
  });
});

describe('tracking mode (PATCH /users/@me/projects/{id})', () => {
  async function marketingTemplate(sender: SenderTenant): Promise<string> {
    const res = await stack
      .http()
      .post('/templates')
      .set('Authorization', bearer(sender.project))
      .send({ name: 'News', subject: 'News', body: BODY, from: sender.from, type: 'MARKETING' })
      .expect(201);
    return res.body.id;
  }

  it('is ENABLED by default and shown on the project', async () => {
    const sender = await senderTenant(stack);
    const list = await stack.http().get('/users/@me/projects').set('Cookie', sender.user.cookie).expect(200);
    expect(list.body.find((p: { id: string }) => p.id === sender.project.id).trackingMode).toBe('ENABLED');
  });

  it('DISABLED sends links and body untouched', async () => {
    const sender = await senderTenant(stack);
    const res = await setTrackingMode(stack, sender.user, sender.project, 'DISABLED').expect(200);
    expect(res.body).toMatchObject({ id: sender.project.id, trackingMode: 'DISABLED', name: 'Test project' });
    const { html } = await sendOne(sender);
    expect(hrefsOf(html)).toContain(TARGET);
    expect(html).not.toContain('/t/c/');
    expect(pixelOf(html)).toBeUndefined();
  });

  it('MARKETING_ONLY tracks MARKETING mail only', async () => {
    const sender = await senderTenant(stack);
    await setTrackingMode(stack, sender.user, sender.project, 'MARKETING_ONLY').expect(200);
    const plain = await sendOne(sender);
    expect(plain.html).not.toContain('/t/c/');
    expect(pixelOf(plain.html)).toBeUndefined();
    const marketing = await sendOne(sender, { template: await marketingTemplate(sender), subject: undefined, body: undefined });
    expect(new URL(clickLink(marketing.html)).searchParams.get('u')).toBe(TARGET);
    expect(pixelOf(marketing.html)).toBeDefined();
  });

  it('refuses a bad mode, changing nothing', async () => {
    const sender = await senderTenant(stack);
    for (const trackingMode of ['enabled', 'NONE', 7, null]) {
      const res = await setTrackingMode(stack, sender.user, sender.project, trackingMode);
      expect(res.status).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'trackingMode' });
    }
    const [row] = await sql<{ tracking_mode: string }>(stack, 'select tracking_mode from projects where id = ?', [sender.project.id]);
    expect(row!.tracking_mode).toBe('ENABLED');
  });
});
