import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { senderTenant, tenant, type SenderTenant } from '../helpers/tenants';
import { recipient, settled } from '../emails/helpers';
import { eventsOf } from '../tracking/helpers';
import { createCampaign } from '../campaigns/helpers';
import { addContact } from '../segments/helpers';
import { SUPPRESSIONS_FROM_EVENTS } from '../../src/db/migrations/0050-sending-surface';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { startPump } from '../helpers/pump';
import { Simulator } from '../../src/modules/sandbox/simulator';

const SIM = 'simulator.postwire.test';

let stack: TestStack;
let pump: DeliveryPump | undefined;
let simulator: Simulator | undefined;
// The pump is this file's own (not the stack's), so that a test can stop it while it queues an email.
beforeAll(async () => {
  stack = await startStack({ env: { SANDBOX_ENABLED: 'true' }, worker: startWorker, terminateWorkflows: true });
  simulator = await Simulator.start(stack.deps);
  pump = await startPump(stack.deps);
});
afterAll(async () => {
  await pump?.stop();
  await simulator?.close();
  await stack?.close();
});

const unique = (mailbox: string) => `${mailbox}+${Math.random().toString(36).slice(2, 10)}@${SIM}`;

async function templateOf(t: SenderTenant, type: 'MARKETING' | 'TRANSACTIONAL'): Promise<string> {
  const res = await t.c
    .post('/templates')
    .send({ name: `${type} news`, subject: 'News', body: '<p>News</p>', from: t.from, type })
    .expect(201);
  return res.body.id as string;
}

/** Sends one email (inline content unless a template is given) and waits for its outcome. */
async function mail(t: SenderTenant, to: string, template?: string) {
  const body = template ? { to, template } : { to, from: t.from, subject: 'Receipt', body: '<p>Your receipt</p>' };
  const res = await t.c.post('/v1/send').send(body).expect(200);
  const [{ email, contact }] = res.body.data.emails;
  const row = await settled(stack, email as string);
  return { emailId: email as string, contactId: contact.id as string, status: row.status };
}

const suppressed = (emailId: string) =>
  sql<{ name: string; data: Record<string, unknown> }>(
    stack,
    `select name, data from events where name = 'email.suppressed' and data->>'emailId' = ?`,
    [emailId],
  );

describe('the suppression list endpoints', () => {
  it('adds MANUAL entries, counting those added and those already there, lists, finds and removes them', async () => {
    const t = await tenant(stack);
    const contactId = await addContact(t, 'known@example.test');
    const added = await t.c
      .post('/suppressions')
      .send({ emails: ['Known@Example.test', 'a@example.test', 'A@example.test', 'b@example.test'] })
      .expect(200);
    expect(added.body).toEqual({ added: 3, already: 0 });
    expect(
      (
        await t.c
          .post('/suppressions')
          .send({ emails: ['b@example.test', 'c@example.test'] })
          .expect(200)
      ).body,
    ).toEqual({
      added: 1,
      already: 1,
    });

    const page = await t.c.get('/suppressions?limit=2').expect(200);
    expect(page.body).toMatchObject({ total: 4, hasMore: true });
    expect(page.body.data).toEqual([
      { email: 'c@example.test', reason: 'MANUAL', emailId: null, createdAt: expect.any(String) },
      expect.objectContaining({ reason: 'MANUAL' }),
    ]);
    const next = await t.c.get(`/suppressions?limit=2&cursor=${page.body.cursor as string}`).expect(200);
    expect(next.body).toMatchObject({ total: 0, hasMore: false });
    const all = [...page.body.data, ...next.body.data].map((e: { email: string }) => e.email).sort();
    expect(all).toEqual(['a@example.test', 'b@example.test', 'c@example.test', 'known@example.test']);
    expect((await t.c.get('/suppressions?search=KNOWN').expect(200)).body.data.map((e: { email: string }) => e.email)).toEqual([
      'known@example.test',
    ]);
    expect((await t.c.get('/suppressions?reason=BOUNCE').expect(200)).body).toMatchObject({ data: [], total: 0 });

    expect((await t.c.get('/suppressions/KNOWN%40example.test').expect(200)).body).toMatchObject({
      email: 'known@example.test',
      reason: 'MANUAL',
    });
    await t.c.get('/suppressions/nobody@example.test').expect(404);
    await t.c.get('/suppressions/not-an-address').expect(404);

    await t.c.delete('/suppressions/known@example.test').expect(204);
    await t.c.delete('/suppressions/known@example.test').expect(404);
    await t.c.get('/suppressions/known@example.test').expect(404);
    expect(await eventsOf(stack, contactId)).toEqual([
      { name: 'suppression.added', data: { email: 'known@example.test', reason: 'MANUAL', emailId: null } },
      { name: 'suppression.removed', data: { email: 'known@example.test', reason: 'MANUAL', emailId: null } },
    ]);
    // Removing an entry does not resubscribe the contact.
    expect((await t.c.get(`/contacts/${contactId}`).expect(200)).body.subscribed).toBe(true);
  });

  it("keeps each project's list to itself", async () => {
    const [t, other] = [await tenant(stack), await tenant(stack)];
    await t.c
      .post('/suppressions')
      .send({ emails: ['mine@example.test'] })
      .expect(200);
    await other.c.get('/suppressions/mine@example.test').expect(404);
    await other.c.delete('/suppressions/mine@example.test').expect(404);
    expect((await other.c.get('/suppressions').expect(200)).body).toMatchObject({ data: [], total: 0 });
    await t.c.get('/suppressions/mine@example.test').expect(200);
  });

  it('refuses a bad body with 422 naming the field, adding nothing', async () => {
    const t = await tenant(stack);
    for (const body of [{ emails: [] }, { emails: ['nope'] }, { emails: ['a@example.test'], reason: 'BOUNCE' }, {}]) {
      const res = await t.c.post('/suppressions').send(body).expect(422);
      expect(res.body.error.errors[0].field).toMatch(/^(emails|reason)/);
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => `r${i}@example.test`);
    await t.c.post('/suppressions').send({ emails: tooMany }).expect(422);
    expect((await t.c.get('/suppressions').expect(200)).body.total).toBe(0);
  });

  it('refuses suppression.added and suppression.removed on /v1/track: the names are reserved', async () => {
    const t = await tenant(stack);
    for (const event of ['suppression.added', 'suppression.removed']) {
      const res = await t.c.track({ email: 'x@example.test', event }).expect(422);
      expect(res.body.error.errors[0].code).toBe('reserved_event');
    }
  });
});

describe('what the list holds back (docs/suppressions.md)', () => {
  it('MANUAL: neither transactional nor marketing mail is sent; SUPPRESSED with email.suppressed, and /v1/send still answers 200', async () => {
    const t = await senderTenant(stack);
    const to = recipient('manual');
    await t.c
      .post('/suppressions')
      .send({ emails: [to.toUpperCase()] })
      .expect(200);
    const marketing = await templateOf(t, 'MARKETING');
    for (const sent of [await mail(t, to), await mail(t, to, marketing)]) {
      expect(sent.status).toBe('SUPPRESSED');
      expect(await suppressed(sent.emailId)).toEqual([
        { name: 'email.suppressed', data: expect.objectContaining({ emailId: sent.emailId, reason: 'MANUAL', tags: {} }) },
      ]);
    }
    expect(stack.smtp.to(to)).toHaveLength(0);
    const [row] = await sql<{ status: string; sent_at: string | null }>(
      stack,
      `select status, sent_at from emails where to_address = ? order by created_at limit 1`,
      [to],
    );
    expect(row).toEqual({ status: 'SUPPRESSED', sent_at: null });
    // Never sent, so never billed.
    const consumption = await stack
      .http()
      .get(`/users/@me/projects/${t.project.id}/billing-consumption`)
      .set('Cookie', t.user.cookie)
      .expect(200);
    expect(consumption.body.categories.TRANSACTIONAL.used).toBe(0);
  });

  it('BOUNCE (a permanent bounce adds it): neither kind of mail goes; the entry names the email that bounced', async () => {
    const t = await senderTenant(stack);
    const to = unique('bounce');
    const first = await mail(t, to);
    const entry = await waitFor('the bounce to suppress the address', async () => {
      const res = await t.c.get(`/suppressions/${encodeURIComponent(to)}`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(entry).toEqual({ email: to, reason: 'BOUNCE', emailId: first.emailId, createdAt: expect.any(String) });
    expect(await eventsOf(stack, first.contactId)).toEqual(
      expect.arrayContaining([{ name: 'suppression.added', data: { email: to, reason: 'BOUNCE', emailId: first.emailId } }]),
    );
    expect((await mail(t, to)).status).toBe('SUPPRESSED');
    expect((await mail(t, to, await templateOf(t, 'MARKETING'))).status).toBe('SUPPRESSED');
  });

  it('COMPLAINT: marketing is held back, transactional mail (inline or a TRANSACTIONAL template) still goes', async () => {
    const t = await senderTenant(stack);
    const to = unique('complaint');
    const first = await mail(t, to);
    await waitFor('the complaint to suppress the address', async () =>
      (await t.c.get(`/suppressions/${encodeURIComponent(to)}`)).body.reason === 'COMPLAINT' ? true : undefined,
    );
    const [marketing, transactional] = [await templateOf(t, 'MARKETING'), await templateOf(t, 'TRANSACTIONAL')];
    // The simulator reports each delivery and, for this mailbox, a complaint soon after: an email that went may
    // already be DELIVERED or COMPLAINED when its outcome is read.
    const went = ['SENT', 'DELIVERED', 'COMPLAINED'];
    expect((await mail(t, to, marketing)).status).toBe('SUPPRESSED');
    expect(went).toContain((await mail(t, to, transactional)).status);
    expect(went).toContain((await mail(t, to)).status);
    expect(went).toContain(first.status);
  });

  it('sends to a removed entry again, leaving the contact unsubscribed', async () => {
    const t = await senderTenant(stack);
    const to = recipient('removed');
    await t.c
      .post('/suppressions')
      .send({ emails: [to] })
      .expect(200);
    const held = await mail(t, to);
    expect(held.status).toBe('SUPPRESSED');
    await t.c.delete(`/suppressions/${to}`).expect(204);
    const again = await mail(t, to);
    expect(again.status).toBe('SENT');
    expect(stack.smtp.to(to)).toHaveLength(1);
    expect((await t.c.get(`/contacts/${again.contactId}`).expect(200)).body.subscribed).toBe(false);
  });

  it('holds back an email queued before the address was suppressed, when the pump takes it', async () => {
    const t = await senderTenant(stack);
    const to = recipient('queued');
    await pump!.stop();
    const res = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Later', body: '<p>Later</p>' }).expect(200);
    const emailId = res.body.data.emails[0].email as string;
    await t.c
      .post('/suppressions')
      .send({ emails: [to] })
      .expect(200);
    pump = await startPump(stack.deps);
    expect((await settled(stack, emailId)).status).toBe('SUPPRESSED');
    expect(stack.smtp.to(to)).toHaveLength(0);
  });

  it('leaves suppressed cc and bcc addresses out of the transaction; the others get the email', async () => {
    const t = await senderTenant(stack);
    const [to, cc, bcc] = [recipient('to'), recipient('cc'), recipient('bcc')];
    await t.c
      .post('/suppressions')
      .send({ emails: [cc] })
      .expect(200);
    const res = await t.c.post('/v1/send').send({ to, cc, bcc, from: t.from, subject: 'Copies', body: '<p>Copies</p>' }).expect(200);
    expect((await settled(stack, res.body.data.emails[0].email as string)).status).toBe('SENT');
    const message = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(message.to).toEqual([to, bcc]);
  });
});

describe('campaign audiences', () => {
  it('leave suppressed members out when the audience is resolved: MARKETING any entry, TRANSACTIONAL not COMPLAINT ones', async () => {
    const t = await senderTenant(stack, 'news');
    const [kept, manual, complained] = ['kept', 'manual', 'complained'].map((n) => `${n}-${t.project.id.slice(0, 8)}@example.test`);
    for (const address of [kept, manual, complained]) await addContact(t, address);
    await t.c
      .post('/suppressions')
      .send({ emails: [manual] })
      .expect(200);
    await sql(stack, `insert into suppressions (project_id, email, reason, created_at) values (?, ?, 'COMPLAINT', now())`, [
      t.project.id,
      complained,
    ]);

    const marketing = await createCampaign(t, { type: 'MARKETING' });
    expect((await t.c.get(`/campaigns/${marketing.id}`).expect(200)).body.totalRecipients).toBe(1);
    await t.c.post(`/campaigns/${marketing.id}/send`).send({}).expect(200);
    const sent = await waitFor(
      'the marketing campaign to be SENT',
      async () => {
        const c = (await t.c.get(`/campaigns/${marketing.id}`).expect(200)).body;
        return c.status === 'SENT' ? c : undefined;
      },
      60_000,
    );
    expect(sent).toMatchObject({ totalRecipients: 1, sentCount: 1 });
    expect([kept, manual, complained].map((a) => stack.smtp.to(a).length)).toEqual([1, 0, 0]);

    const transactional = await createCampaign(t, { type: 'TRANSACTIONAL', name: 'Terms' });
    expect((await t.c.get(`/campaigns/${transactional.id}`).expect(200)).body.totalRecipients).toBe(2);
  });
});

describe('the migration of suppression state into the list', () => {
  it('lists the contacts suppressed before: a permanent bounce or a complaint no subscription came after, a bounce first', async () => {
    const t = await tenant(stack);
    const ids = {
      bounced: await addContact(t, 'bounced@example.test'),
      complained: await addContact(t, 'complained@example.test'),
      both: await addContact(t, 'both@example.test'),
      resubscribed: await addContact(t, 'resubscribed@example.test'),
      transient: await addContact(t, 'transient@example.test'),
    };
    const event = (contactId: string, name: string, data: object, minutesAgo: number) =>
      sql(
        stack,
        `insert into events (id, created_at, project_id, contact_id, name, data)
         values (gen_random_uuid(), now() - ? * interval '1 minute', ?, ?, ?, ?::jsonb)`,
        [minutesAgo, t.project.id, contactId, name, JSON.stringify(data)],
      );
    const emailId = '00000000-0000-4000-8000-000000000001';
    await event(ids.bounced, 'email.bounce', { emailId, bounceType: 'Permanent' }, 10);
    await event(ids.complained, 'email.complaint', { emailId: 'not-a-uuid' }, 10);
    await event(ids.both, 'email.complaint', {}, 20);
    await event(ids.both, 'email.bounce', { bounceType: 'Permanent' }, 30);
    await event(ids.resubscribed, 'email.bounce', { bounceType: 'Permanent' }, 30);
    await event(ids.resubscribed, 'contact.subscribed', {}, 5);
    await event(ids.transient, 'email.bounce', { bounceType: 'Transient' }, 5);

    await sql(stack, SUPPRESSIONS_FROM_EVENTS);
    const listed = (await t.c.get('/suppressions').expect(200)).body.data.map((e: Record<string, unknown>) => [
      e.email,
      e.reason,
      e.emailId,
    ]);
    expect(listed.sort()).toEqual([
      ['both@example.test', 'BOUNCE', null],
      ['bounced@example.test', 'BOUNCE', emailId],
      ['complained@example.test', 'COMPLAINT', null],
    ]);
  });
});
