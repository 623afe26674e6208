import { randomUUID } from 'node:crypto';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { claimDue } from '../../src/modules/emails/delivery/claim';
import { enqueueEmails, type EmailDraft } from '../../src/modules/emails/enqueue';
import { startStack, type TestStack } from '../helpers/stack';
import { startPump } from '../helpers/pump';
import { refusingOrm } from '../helpers/refusing-orm';
import { seedContact, sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { bearer } from '../domains/helpers';
import { emailRow, recipient, send, settled } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { draftTo } from '../helpers/drafts';

let stack: TestStack;
let sender: SenderTenant;
const pumps: DeliveryPump[] = [];

beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
  sender = await senderTenant(stack);
});
afterEach(async () => {
  await Promise.all(pumps.splice(0).map((p) => p.stop()));
});
afterAll(() => stack?.close());

async function pump(options: Parameters<typeof startPump>[1] = {}): Promise<DeliveryPump> {
  const started = await startPump(stack.deps, options);
  pumps.push(started);
  return started;
}

async function sendOne(to = recipient(), subject = 'Hello'): Promise<{ to: string; id: string }> {
  const res = await send(stack, sender.project, { to, from: sender.from, subject, body: '<p>Hi</p>' }).expect(200);
  return { to, id: res.body.data.emails[0].email };
}

const sentEvents = async (emailId: string) =>
  (await sql(stack, `select id from events where name = 'email.sent' and data->>'emailId' = ?`, [emailId])).length;

const IN = '(select jsonb_array_elements_text(?::jsonb))';

/** Long enough for a retry or a duplicate to show up, were there one. */
const settle = () => new Promise((r) => setTimeout(r, 1_500));

describe('delivery', () => {
  it('wakes as soon as an email commits, not at the next poll', async () => {
    await pump({ pollIntervalMs: 60_000 });
    // Once the first email is out, the pump has nothing due and sleeps until the poll.
    await settled(stack, (await sendOne()).id);
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const { id } = await sendOne();
    expect(await settled(stack, id)).toMatchObject({ status: 'SENT' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('retries while the SMTP server is down and delivers exactly once when it is back', async () => {
    await stack.smtp.down();
    let sent: { to: string; id: string };
    try {
      await pump();
      sent = await sendOne();
      const failing = await waitFor('two failed attempts', async () => {
        const row = await emailRow(stack, sent.id);
        return row.attempts >= 2 ? row : undefined;
      });
      expect(failing).toMatchObject({ status: 'PENDING' });
      expect(failing.error).toMatch(/ECONNREFUSED/);
      expect(stack.smtp.to(sent.to)).toHaveLength(0);
    } finally {
      await stack.smtp.up();
    }
    const { to, id } = sent;
    expect(await settled(stack, id)).toMatchObject({ status: 'SENT' });
    await settle();
    expect(stack.smtp.to(to)).toHaveLength(1);
    expect(await emailRow(stack, id)).toMatchObject({ status: 'SENT', error: null });
    expect(await sentEvents(id)).toBe(1);
  });

  it('marks a permanently refused email FAILED with the reason, and sends and records nothing for it', async () => {
    await pump();
    const to = recipient('nobody');
    stack.smtp.refuse(to, 550, 'No such user here');
    const { id } = await sendOne(to);
    const row = await settled(stack, id);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(row.error).toMatch(/550.*No such user here/);
    expect(row.failed_at).not.toBeNull();
    expect(stack.smtp.to(to)).toHaveLength(0);
    expect(await sentEvents(id)).toBe(0);
  });

  it('retries a temporary 4xx refusal until the server accepts', async () => {
    await pump();
    const to = recipient('busy');
    stack.smtp.refuse(to, 450, 'Mailbox busy, try later');
    const { id } = await sendOne(to);
    const retried = await waitFor('a retry', async () => {
      const row = await emailRow(stack, id);
      return row.attempts >= 2 ? row : undefined;
    });
    expect(retried).toMatchObject({ status: 'PENDING' });
    expect(retried.error).toMatch(/450.*Mailbox busy/);
    stack.smtp.accept(to);
    expect(await settled(stack, id)).toMatchObject({ status: 'SENT' });
    expect(stack.smtp.to(to)).toHaveLength(1);
  });

  it('sends nothing to a contact deleted while its email waits, and drops the email from the queue', async () => {
    const { to, id } = await sendOne();
    const [{ contact_id }] = await sql<{ contact_id: string }>(stack, 'select contact_id from emails where id = ?', [id]);
    await stack.http().delete(`/contacts/${contact_id}`).set('Authorization', bearer(sender.project)).expect(204);
    // The email went with its contact; its queue row is left for the next claim to drop.
    expect(await sql(stack, 'select id from emails where id = ?', [id])).toHaveLength(0);
    expect(await sql(stack, 'select email_id from email_queue where email_id = ?', [id])).toHaveLength(1);
    await pump();
    await waitFor('the queue row to be dropped', async () =>
      (await sql(stack, 'select email_id from email_queue where email_id = ?', [id])).length === 0 ? true : undefined,
    );
    await settle();
    expect(stack.smtp.to(to)).toHaveLength(0);
  });

  it("sends an email claimed by a worker that died once the dead worker's lease runs out", async () => {
    const { to, id } = await sendOne();
    // A worker claims the email and dies before sending it.
    const { claimed } = await claimDue(stack.deps.orm.em.fork(), { limit: 1000, leaseMs: 2_500, defaultRate: 0, maxRate: 0 });
    expect(claimed.map((e) => e.id)).toContain(id);
    await pump();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await emailRow(stack, id)).toMatchObject({ status: 'PENDING' });
    expect(await sql(stack, 'select attempts from email_queue where email_id = ?', [id])).toEqual([{ attempts: 1 }]);
    expect(stack.smtp.to(to)).toHaveLength(0);
    expect(await settled(stack, id)).toMatchObject({ status: 'SENT', attempts: 2 });
    expect(stack.smtp.to(to)).toHaveLength(1);
  });

  it('stops when the database no longer takes the outcome of a send under way, and the next claim records it', async () => {
    // A worker whose database refuses its statements while the server has yet to answer a message. Its gate
    // and hand-over rounds have connections of their own, so the message is handed over.
    const refusing = await refusingOrm(stack);
    const stopping = await startPump({ ...stack.deps, orm: refusing.orm });
    try {
      const to = recipient('stopping');
      let id: string;
      stack.smtp.hold();
      try {
        ({ id } = await sendOne(to));
        await waitFor('the message to wait for its answer', async () => (stack.smtp.to(to).length > 0 ? true : undefined), 30_000);
      } finally {
        // Before the answer comes; and whatever happened, so that no later message waits on the hold.
        await refusing.refuse().finally(() => stack.smtp.release());
      }
      // The answer comes, its SENT mark cannot be written, and the stop ends all the same.
      let stopped = false;
      void stopping.stop().then(() => (stopped = true));
      await waitFor('the pump to stop', async () => (stopped ? true : undefined), 30_000);
      expect(await emailRow(stack, id)).toMatchObject({ status: 'PENDING' });
      expect(await sql(stack, 'select handed_over_at is not null as "handed" from email_queue where email_id = ?', [id])).toEqual([
        { handed: true },
      ]);
      // Its lease runs out (made due now rather than waited for); the next claim finds the hand-over mark and
      // records the send, without sending again.
      await sql(stack, 'update email_queue set due_at = now() where email_id = ?', [id]);
      await pump();
      expect(await settled(stack, id, 30_000)).toMatchObject({ status: 'SENT', attempts: 1 });
      expect(await sentEvents(id)).toBe(1);
      await settle();
      expect(stack.smtp.to(to)).toHaveLength(1);
    } finally {
      await stopping.stop();
      await refusing.close();
    }
  }, 150_000);

  it('keeps a slow send to itself: its lease is renewed while the SMTP server takes its time', async () => {
    await Promise.all([pump({ leaseMs: 600 }), pump({ leaseMs: 600 })]);
    const to = recipient('slow');
    stack.smtp.slow(to, 2_500);
    const { id } = await sendOne(to);
    expect(await settled(stack, id)).toMatchObject({ status: 'SENT', attempts: 1 });
    await settle();
    expect(stack.smtp.to(to)).toHaveLength(1);
  });

  it('lets several workers share the queue: every email is sent exactly once', async () => {
    await Promise.all([pump({ batchSize: 5 }), pump({ batchSize: 5 }), pump({ batchSize: 5 })]);
    const recipients = Array.from({ length: 60 }, () => recipient('many'));
    const ids: string[] = [];
    for (let i = 0; i < recipients.length; i += 20) {
      const res = await send(stack, sender.project, {
        to: recipients.slice(i, i + 20),
        from: sender.from,
        subject: 'Many',
        body: 'x',
      }).expect(200);
      ids.push(...res.body.data.emails.map((e: { email: string }) => e.email));
    }
    await Promise.all(ids.map((id) => settled(stack, id)));
    await settle();
    expect(recipients.map((to) => stack.smtp.to(to).length)).toEqual(recipients.map(() => 1));
    const events = await sql(stack, `select id from events where name = 'email.sent' and data->>'emailId' in ${IN}`, [JSON.stringify(ids)]);
    expect(events).toHaveLength(60);
  });

  it('fails an email whose sender domain was removed before it was sent', async () => {
    const own = await senderTenant(stack);
    const res = await send(stack, own.project, { to: recipient(), from: own.from, subject: 'S', body: 'B' }).expect(200);
    await stack.http().delete(`/domains/${own.domainBody.id}`).set('Authorization', bearer(own.project)).expect(204);
    await pump();
    const row = await settled(stack, res.body.data.emails[0].email);
    expect(row).toMatchObject({ status: 'FAILED' });
    expect(row.error).toMatch(/sender domain was removed/);
  });
});

describe('order and throttle', () => {
  async function drafts(
    own: SenderTenant,
    n: number,
    sourceType: EmailDraft['sourceType'],
    campaignId: string | null = null,
  ): Promise<EmailDraft[]> {
    const list: EmailDraft[] = [];
    for (let i = 0; i < n; i++) {
      const contact = await seedContact(stack, own.project.id, recipient(sourceType.toLowerCase()));
      list.push(
        draftTo(own.project.id, contact, own.from, {
          subject: sourceType,
          html: 'x',
          sourceType,
          marketing: sourceType === 'CAMPAIGN',
          campaignId,
        }),
      );
    }
    return list;
  }

  async function sentAt(ids: string[]): Promise<Map<string, number>> {
    await Promise.all(ids.map((id) => settled(stack, id, 30_000)));
    const rows = await sql<{ id: string; sent_at: string }>(stack, `select id, sent_at from emails where id::text in ${IN}`, [
      JSON.stringify(ids),
    ]);
    return new Map(rows.map((r) => [r.id, new Date(r.sent_at).getTime()]));
  }

  it('claims transactional mail before a campaign queued earlier', async () => {
    const own = await senderTenant(stack);
    const campaign = await enqueueEmails(stack.deps.orm.em.fork(), await drafts(own, 30, 'CAMPAIGN', randomUUID()));
    const [transactional] = await enqueueEmails(stack.deps.orm.em.fork(), await drafts(own, 1, 'TRANSACTIONAL'));
    await pump({ batchSize: 5, concurrency: 5 });
    const order = stack.smtp.messages;
    await sentAt([...campaign.map((e) => e.id), transactional!.id]);
    const subjects = order.filter((m) => m.raw.includes(own.from)).map((m) => (/^Subject: (\w+)/m.exec(m.raw) ?? [])[1]);
    expect(subjects.indexOf('TRANSACTIONAL')).toBeLessThan(5);
  });

  const setRate = (own: SenderTenant, emailRatePerSecond: unknown) =>
    stack.http().patch(`/users/@me/projects/${own.project.id}`).set('Cookie', own.user.cookie).send({ emailRatePerSecond });

  it("takes a project's own rate from PATCH /users/@me/projects/{id}; null restores the deployment's", async () => {
    const own = await senderTenant(stack);
    expect((await setRate(own, 5).expect(200)).body).toMatchObject({ id: own.project.id, emailRatePerSecond: 5 });
    for (const bad of [-1, 1.5, '5', 100_001]) {
      const res = await setRate(own, bad).expect(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'emailRatePerSecond' });
    }
    const [stored] = await sql<{ email_rate_per_second: number | null }>(stack, 'select email_rate_per_second from projects where id = ?', [
      own.project.id,
    ]);
    expect(stored!.email_rate_per_second).toBe(5);
    expect((await setRate(own, null).expect(200)).body.emailRatePerSecond).toBeNull();
  });

  it('holds a project to its rate across workers, in each lane separately', async () => {
    const own = await senderTenant(stack);
    await setRate(own, 2).expect(200);
    const before = Date.now();
    const campaign = await enqueueEmails(stack.deps.orm.em.fork(), await drafts(own, 10, 'CAMPAIGN', randomUUID()));
    await Promise.all([pump({ batchSize: 3 }), pump({ batchSize: 3 })]);
    // While the campaign is held back, a transactional email of the same project goes at once.
    const transactional = await send(stack, own.project, { to: recipient(), from: own.from, subject: 'Now', body: 'x' }).expect(200);
    const times = await sentAt([...campaign.map((e) => e.id), transactional.body.data.emails[0].email]);
    const campaignTimes = campaign.map((e) => times.get(e.id)!).sort((a, b) => a - b);
    // 2 go at once (one second's burst), the other 8 at 2 per second: the last is released 4 s after the first
    // claim, which came after `before`, however slowly each email then took to leave.
    expect(campaignTimes.at(-1)! - before).toBeGreaterThanOrEqual(3_950);
    expect(times.get(transactional.body.data.emails[0].email)!).toBeLessThan(campaignTimes.at(-1)!);
  });
});
