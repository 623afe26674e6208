import { startStack, type TestStack } from '../helpers/stack';
import { parseMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { senderTenant, tenant, type SenderTenant } from '../helpers/tenants';
import { recipient, settled, storedCounts } from '../emails/helpers';
import { headerOf } from '../tracking/helpers';
import { startWorker } from '../helpers/temporal';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, worker: startWorker, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const sendAs = (t: SenderTenant, body: Record<string, unknown>) =>
  t.c.post('/v1/send').send({ from: t.from, subject: 'Hello', body: '<p>Hello</p>', ...body });

describe('cc and bcc', () => {
  it('go to the server in one SMTP transaction with the To address: Cc in the headers, Bcc nowhere', async () => {
    const t = await senderTenant(stack);
    const [to, cc1, cc2, bcc] = [recipient('to'), recipient('cc'), recipient('cc'), recipient('bcc')];
    const res = await sendAs(t, { to: [{ name: 'Ann', email: to }], cc: [cc1, { name: 'Carl Copy', email: cc2 }], bcc }).expect(200);
    expect(res.body.data.emails).toEqual([
      { contact: { id: expect.any(String), email: to }, email: expect.any(String), scheduledAt: null },
    ]);
    const emailId = res.body.data.emails[0].email as string;
    expect((await settled(stack, emailId)).status).toBe('SENT');

    const transactions = stack.smtp.messages.filter((m) => m.to.includes(to) || m.to.includes(bcc));
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.to).toEqual([to, cc1, cc2, bcc]);
    const mail = await parseMail(transactions[0]!);
    expect(mail.cc?.map((a) => [a.name, a.address])).toEqual([
      ['', cc1],
      ['Carl Copy', cc2],
    ]);
    expect(headerOf(mail, 'bcc')).toBeUndefined();
    expect(transactions[0]!.raw).not.toContain(bcc);

    // Only the To recipient is a contact; the copies are recorded on the email.
    const contacts = await sql<{ email: string }>(stack, 'select email from contacts where project_id = ?', [t.project.id]);
    expect(contacts.map((c) => c.email)).toEqual([to]);
    const view = await t.c.get(`/v1/emails/${emailId}`).expect(200);
    expect(view.body.data).toMatchObject({ to, cc: [cc1, cc2], bcc: [bcc] });
  });

  it('refuses several To recipients beside cc or bcc (422 naming to), and more than 50 addresses in all, storing nothing', async () => {
    const t = await senderTenant(stack);
    const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.test`);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ to: [recipient(), recipient()], cc: recipient() }, 'to'],
      [{ to: [recipient(), recipient()], bcc: [recipient()] }, 'to'],
      [{ to: recipient(), cc: many(30, 'c'), bcc: many(20, 'b') }, 'bcc'],
      [{ to: recipient(), cc: many(50, 'c') }, 'cc'],
      [{ to: recipient(), cc: 'not an address' }, 'cc'],
      [{ to: recipient(), bcc: [] }, 'bcc'],
    ];
    for (const [body, field] of cases) {
      const res = await sendAs(t, body).expect(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field.split('.')[0])).toContain(field);
    }
    // One To recipient in an array is fine.
    await sendAs(t, { to: [recipient()], cc: recipient() }).expect(200);
    expect((await storedCounts(stack, t.project.id)).emails).toBe(1);
  });
});

describe('the plain-text part', () => {
  it('is made from the rendered HTML when none is given: multipart/alternative, links as label (url)', async () => {
    const t = await senderTenant(stack);
    const to = recipient();
    const body = '<h1>Welcome, {{ name }}</h1><p>Read <a href="https://example.com/guide?a=1&amp;b=2">the guide</a>.</p><img src="x.png">';
    const res = await sendAs(t, { to, body, data: { name: 'Ann' } }).expect(200);
    await settled(stack, res.body.data.emails[0].email as string);
    const raw = stack.smtp.to(to)[0]!;
    expect(raw.raw).toMatch(/Content-Type: multipart\/alternative/i);
    const mail = await parseMail(raw);
    expect(mail.text?.trim()).toBe('Welcome, Ann\n\nRead the guide (https://example.com/guide?a=1&b=2).');
    expect(mail.html).toContain('<h1>Welcome, Ann</h1>');
  });

  it('is the given text, with Liquid, from the request or a template', async () => {
    const t = await senderTenant(stack);
    const [to1, to2] = [recipient(), recipient()];
    const inline = await sendAs(t, { to: to1, text: 'Hi {{ name }}, plain.', data: { name: 'Bo' } }).expect(200);
    const template = await t.c
      .post('/templates')
      .send({ name: 'T', subject: 'S', body: '<p>html</p>', text: 'Template text for {{ name ?? "you" }}', from: t.from })
      .expect(201);
    expect(template.body.text).toBe('Template text for {{ name ?? "you" }}');
    const fromTemplate = await t.c.post('/v1/send').send({ to: to2, template: template.body.id }).expect(200);
    for (const res of [inline, fromTemplate]) await settled(stack, res.body.data.emails[0].email as string);
    expect((await parseMail(stack.smtp.to(to1)[0]!)).text?.trim()).toBe('Hi Bo, plain.');
    expect((await parseMail(stack.smtp.to(to2)[0]!)).text?.trim()).toBe('Template text for you');
  });
});

describe('tags', () => {
  it('are kept on the email, carried by its email.* events as data.tags, shown in the activity and filtered by ?tag=', async () => {
    const t = await senderTenant(stack);
    const [to, other] = [recipient(), recipient()];
    const tags = { order: 'A-1042', flow: 'checkout' };
    const res = await sendAs(t, { to, tags }).expect(200);
    await sendAs(t, { to: other, tags: { order: 'B-7' } }).expect(200);
    const emailId = res.body.data.emails[0].email as string;
    await settled(stack, emailId);
    expect((await t.c.get(`/v1/emails/${emailId}`).expect(200)).body.data.tags).toEqual(tags);
    const [sent] = await sql<{ data: Record<string, unknown> }>(
      stack,
      `select data from events where name = 'email.sent' and data->>'emailId' = ?`,
      [emailId],
    );
    expect(sent!.data.tags).toEqual(tags);

    const feed = await waitFor('the activity of both emails', async () => {
      const body = (await t.c.get('/activity?type=SENT').expect(200)).body;
      return body.data.length === 2 ? body : undefined;
    });
    expect(feed.data.find((i: { email: { id: string } }) => i.email.id === emailId).email.tags).toEqual(tags);
    const tagged = (await t.c.get('/activity?tag=order:A-1042').expect(200)).body;
    expect(tagged).toMatchObject({ total: 1, data: [{ type: 'SENT', email: { id: emailId, tags } }] });
    expect((await t.c.get('/activity?tag=order:nope').expect(200)).body).toMatchObject({ total: 0, data: [] });
    expect((await t.c.get('/activity?tag=no-colon').expect(400)).body.error.code).toBe('BAD_REQUEST');
  });

  it('refuses more than 10 keys, bad keys and long values with 422 naming tags', async () => {
    const t = await senderTenant(stack);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
    for (const tags of [eleven, { 'bad key': 'v' }, { '': 'v' }, { ['k'.repeat(65)]: 'v' }, { k: 'v'.repeat(257) }, { k: 1 }]) {
      const res = await sendAs(t, { to: recipient(), tags }).expect(422);
      expect(res.body.error.errors[0].field).toMatch(/^tags/);
    }
    await sendAs(t, { to: recipient(), tags: { ['k'.repeat(64)]: 'v'.repeat(256), 'A_b-9': '' } }).expect(200);
  });

  it('are carried by a campaign to its emails, with the campaign text', async () => {
    const t = await senderTenant(stack, 'news');
    const member = recipient('member');
    await t.c.post('/contacts').send({ email: member }).expect(201);
    const created = await t.c
      .post('/campaigns')
      .send({
        name: 'C',
        subject: 'S',
        body: '<p>B</p>',
        text: 'Spring, plain, for {{ email }}',
        from: t.from,
        audienceType: 'ALL',
        tags: { campaign: 'spring' },
      })
      .expect(201);
    expect(created.body.data).toMatchObject({ tags: { campaign: 'spring' }, text: 'Spring, plain, for {{ email }}' });
    await t.c
      .post(`/campaigns/${created.body.data.id as string}/send`)
      .send({})
      .expect(200);
    const [email] = await waitFor('the campaign email', async () => {
      const rows = await sql<{ tags: Record<string, string> }>(stack, 'select tags from emails where campaign_id = ?', [
        created.body.data.id,
      ]);
      return rows.length ? rows : undefined;
    });
    expect(email!.tags).toEqual({ campaign: 'spring' });
    // The text is rendered as the email is sent (docs/campaigns.md): the message carries it.
    const mail = await parseMail(await stack.smtp.waitFor((m) => m.to.includes(member)));
    expect(mail.text?.trim()).toBe(`Spring, plain, for ${member}`);
  });
});

describe('GET /v1/emails/{id}', () => {
  it("answers an email's fields in the envelope; another project's or an unknown id is 404", async () => {
    const t = await senderTenant(stack);
    const to = recipient();
    const res = await sendAs(t, { to, subject: 'Receipt' }).expect(200);
    const [{ email: id, contact }] = res.body.data.emails;
    await settled(stack, id as string);
    const view = await t.c.get(`/v1/emails/${id as string}`).expect(200);
    expect(view.body).toEqual({
      success: true,
      data: {
        id,
        status: 'SENT',
        to,
        cc: [],
        bcc: [],
        from: t.from,
        subject: 'Receipt',
        tags: {},
        scheduledAt: null,
        sentAt: expect.any(String),
        createdAt: expect.any(String),
        contact: { id: contact.id, email: to },
        campaignId: null,
        executionId: null,
        nextAttemptAt: null,
      },
    });
    const other = await tenant(stack);
    expect((await other.c.get(`/v1/emails/${id as string}`).expect(404)).body.error.code).toBe('NOT_FOUND');
    await t.c.get('/v1/emails/00000000-0000-4000-8000-000000000000').expect(404);
    await t.c.get('/v1/emails/not-an-id').expect(404);
  });
});
