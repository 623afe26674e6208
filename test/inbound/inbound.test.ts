import { randomBytes } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { enqueueEmails } from '../../src/modules/emails/enqueue';
import { createCampaign } from '../campaigns/helpers';
import { deliverInbound, inboundOn } from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ smtpListeners: true });
}, 60_000);
afterAll(() => stack.close());

describe('inbound mail', () => {
  it('lists the MX record while inbound is on, and refuses a non-boolean', async () => {
    const t = await senderTenant(stack);
    const on = await t.c.patch(`/domains/${t.domainBody.id}`).send({ inbound: true }).expect(200);
    expect(on.body.inbound).toBe(true);
    expect(on.body.records).toContainEqual({
      type: 'MX',
      name: t.domain,
      value: stack.deps.config.INBOUND_MX_HOST,
      priority: 10,
      purpose: 'inbound',
      status: 'PENDING',
    });
    stack.dns.set(t.domain, [{ type: 'MX', exchange: stack.deps.config.INBOUND_MX_HOST, priority: 10 }]);
    const checked = await t.c.get(`/domains/${t.domainBody.id}/verify`).expect(200);
    expect(checked.body.records.find((r: { purpose: string }) => r.purpose === 'inbound').status).toBe('VERIFIED');
    const bad = await t.c.patch(`/domains/${t.domainBody.id}`).send({ inbound: 'yes' }).expect(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const off = await t.c.patch(`/domains/${t.domainBody.id}`).send({ inbound: false }).expect(200);
    expect(off.body.records.some((r: { type: string }) => r.type === 'MX')).toBe(false);
  });

  it('keeps a message with its attachment, records email.received on a new unsubscribed contact, and links a reply', async () => {
    const t = await senderTenant(stack);
    await inboundOn(t);
    const sent = await t.c
      .post('/v1/send')
      .send({ from: t.from, to: 'customer@client.example.test', subject: 'Your order', body: '<p>Thanks</p>' })
      .expect(200);
    const emailId = sent.body.data.emails[0].email;
    const attachment = randomBytes(20 * 1024);
    const info = await deliverInbound(stack, {
      from: 'Customer <Customer@client.example.test>',
      to: `support@${t.domain}`,
      cc: 'other@client.example.test',
      subject: 'Re: Your order',
      text: 'Where is it?',
      html: '<p>Where is it?</p>',
      inReplyTo: `<${emailId}@${t.domain}>`,
      attachments: [{ filename: 'photo.bin', content: attachment, contentType: 'application/octet-stream' }],
    });
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: kept as [0-9a-f-]{36}$/);

    const list = await t.c.get('/inbound').expect(200);
    expect(list.body.total).toBe(1);
    const item = list.body.data[0];
    expect(item).not.toHaveProperty('text');
    expect(item.from).toEqual({ email: 'customer@client.example.test', name: 'Customer' });
    expect(item.to).toEqual([{ email: `support@${t.domain}`, name: null }]);
    expect(item.cc).toEqual([{ email: 'other@client.example.test', name: null }]);
    expect(item.inReplyToEmail).toEqual({ id: emailId, campaignId: null, executionId: null });

    const one = await t.c.get(`/inbound/${item.id}`).expect(200);
    expect(one.body.data).toMatchObject({ subject: 'Re: Your order', text: 'Where is it?\n', html: '<p>Where is it?</p>\n' });
    expect(one.body.data.auth).toEqual({ spf: expect.any(String), dkim: 'none', dmarc: expect.any(String) });
    expect(one.body.data.headers).toContainEqual({ name: 'Subject', value: 'Re: Your order' });
    expect(one.body.data.attachments).toEqual([
      {
        filename: 'photo.bin',
        contentType: 'application/octet-stream',
        size: attachment.length,
        url: expect.stringMatching(/\/attachments\/0$/),
      },
    ]);
    const bytes = await t.c
      .get(`/inbound/${item.id}/attachments/0`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(bytes.status).toBe(200);
    expect(Buffer.compare(bytes.body as Buffer, attachment)).toBe(0);
    await t.c.get(`/inbound/${item.id}/attachments/1`).expect(404);

    const raw = await t.c
      .get(`/inbound/${item.id}/raw`)
      .expect(200)
      .expect('Content-Type', /message\/rfc822/);
    const text = raw.text ?? (raw.body as Buffer).toString();
    expect(text).toMatch(/^Received: from /);
    expect(text).toMatch(/Authentication-Results: /);
    expect(text).toMatch(/Subject: Re: Your order/);

    const byContact = await t.c.get(`/inbound?contactId=${one.body.data.contactId}`).expect(200);
    expect(byContact.body.data.map((m: { id: string }) => m.id)).toEqual([item.id]);
    expect((await t.c.get(`/inbound?contactId=${t.project.id}`).expect(200)).body.total).toBe(0);
    await t.c.get('/inbound?campaignId=not-a-uuid').expect(400);
    const contact = await t.c.get(`/contacts/${one.body.data.contactId}`).expect(200);
    expect(contact.body.email ?? contact.body.data?.email).toBe('customer@client.example.test');
    expect(contact.body.subscribed ?? contact.body.data?.subscribed).toBe(false);
    const events = await t.c.get('/events?name=email.received').expect(200);
    expect(events.body.data).toHaveLength(1);
    const [received] = events.body.data;
    expect(received.contactId ?? received.contact?.id).toBe(one.body.data.contactId);
    const activity = await t.c.get('/activity?type=RECEIVED').expect(200);
    expect(JSON.stringify(activity.body)).toContain(item.id);
    expect(received.data).toEqual({
      inboundId: item.id,
      to: [`support@${t.domain}`],
      subject: 'Re: Your order',
      inReplyToEmail: { id: emailId, campaignId: null, executionId: null },
    });
  });

  it("links a reply to a campaign's email through References, counts it as INBOUND, and lists it among the campaign's replies", async () => {
    const t = await senderTenant(stack);
    await inboundOn(t);
    const campaign = await createCampaign(t);
    const [email] = await enqueueEmails(stack.deps.orm.em.fork(), [
      {
        projectId: t.project.id,
        contactId: null,
        to: { email: 'fan@client.example.test' },
        from: { email: t.from },
        subject: 'Spring sale',
        html: '<p>Sale</p>',
        sourceType: 'CAMPAIGN',
        marketing: true,
        campaignId: campaign.id,
      },
    ]);
    await deliverInbound(stack, {
      from: 'fan@client.example.test',
      to: `news@${t.domain}`,
      subject: 'Re: Spring sale',
      text: 'Count me in',
      references: [`<${email!.id}@${t.domain}>`, '<older@client.example.test>'],
    });
    const replies = await t.c.get(`/inbound?campaignId=${campaign.id}`).expect(200);
    expect(replies.body.data).toHaveLength(1);
    expect(replies.body.data[0].inReplyToEmail).toEqual({ id: email!.id, campaignId: campaign.id, executionId: null });
    const billing = await stack
      .http()
      .get(`/users/@me/projects/${t.project.id}/billing-consumption`)
      .set('Cookie', t.user.cookie)
      .expect(200);
    expect(billing.body.categories.INBOUND.used).toBe(1);
  });

  it('refuses recipients it does not take, and keeps each project apart', async () => {
    const a = await senderTenant(stack);
    const b = await senderTenant(stack);
    await inboundOn(a);
    // b's domain is verified but takes no inbound mail.
    await expect(
      deliverInbound(stack, { from: 'x@client.example.test', to: `support@${b.domain}`, subject: 'Hi', text: 'Hi' }),
    ).rejects.toMatchObject({ responseCode: 550, response: expect.stringMatching(/^550 5\.1\.1 /) });
    await expect(
      deliverInbound(stack, { from: 'x@client.example.test', to: 'someone@nowhere.example.test', subject: 'Hi', text: 'Hi' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await deliverInbound(stack, { from: 'x@client.example.test', to: `support@${a.domain}`, subject: 'For a', text: 'Hi' });
    const list = await a.c.get('/inbound').expect(200);
    expect(list.body.data.map((m: { subject: string }) => m.subject)).toEqual(['For a']);
    const id = list.body.data[0].id;
    await b.c.get(`/inbound/${id}`).expect(404);
    await b.c.get(`/inbound/${id}/raw`).expect(404);
    await b.c.get(`/inbound/${id}/attachments/0`).expect(404);
    expect((await b.c.get('/inbound').expect(200)).body.total).toBe(0);
    const stranger = await tenant(stack);
    await stranger.c.get(`/inbound/${id}`).expect(404);
  });

  it('searches by sender and subject, newest first', async () => {
    const t = await senderTenant(stack);
    await inboundOn(t);
    await deliverInbound(stack, { from: 'alice@client.example.test', to: `a@${t.domain}`, subject: 'First', text: '1' });
    await deliverInbound(stack, { from: 'bob@client.example.test', to: `b@${t.domain}`, subject: 'Second', text: '2' });
    const all = await t.c.get('/inbound').expect(200);
    expect(all.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    const alice = await t.c.get('/inbound?search=ALICE').expect(200);
    expect(alice.body.data.map((m: { subject: string }) => m.subject)).toEqual(['First']);
    await waitFor('both contacts', async () => ((await t.c.get('/contacts').expect(200)).body.total >= 2 ? true : undefined));
  });
});
