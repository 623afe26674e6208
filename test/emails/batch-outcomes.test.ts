import { Client } from 'pg';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { CAMPAIGN_DRAINED_CHANNEL } from '../../src/modules/emails/campaign-queue';
import { enqueueEmails } from '../../src/modules/emails/enqueue';
import { startStack, type TestStack } from '../helpers/stack';
import { startPump } from '../helpers/pump';
import { rollupsAndRows } from '../helpers/rollups';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';
import { campaignDrafts } from '../campaigns/helpers';

/**
 * Outcomes are written a batch at a time (docs/delivery.md, "The queue"): one batch of a campaign's emails
 * whose recipients the server treats differently must still end each email on its own outcome, with counters,
 * events and the queue agreeing with the rows.
 */
let stack: TestStack;
let pump: DeliveryPump | undefined;
let t: SenderTenant;
beforeAll(async () => {
  stack = await startStack();
  t = await campaignTenant(stack);
});
afterAll(async () => {
  await pump?.stop();
  await stack?.close();
});

describe('a batch with partial SMTP refusals', () => {
  it('ends each email on its own outcome, and counts, events and the queue follow the rows', async () => {
    const { prefix, contacts, campaign, drafts } = await campaignDrafts(stack, t, 12, 'batch');
    const [rcptRefused, dataRefused, later] = [contacts.slice(0, 3), contacts.slice(3, 5), contacts.slice(5, 7)];
    for (const c of rcptRefused) stack.smtp.refuse(c.email, 550, '5.1.1 No such user');
    for (const c of dataRefused) stack.smtp.refuseMessage(c.email, 554, '5.7.1 Message rejected');
    for (const c of later) stack.smtp.refuseMessage(c.email, 451, '4.7.1 Try again later');
    await enqueueEmails(stack.deps.orm.em.fork(), drafts);

    const listener = new Client({ connectionString: stack.deps.config.DATABASE_URL });
    const drained: string[] = [];
    listener.on('notification', (n) => drained.push(n.payload ?? ''));
    await listener.connect();
    await listener.query(`listen ${CAMPAIGN_DRAINED_CHANNEL}`);
    try {
      // One claim takes all twelve: a single batch of outcomes.
      pump = await startPump(stack.deps, { batchSize: 50, concurrency: 50, retryBaseMs: 60_000, retryMaxMs: 60_000 });
      const statuses = () =>
        sql<{ email: string; status: string; error: string | null; attempts: number }>(
          stack,
          'select to_address as email, status, error, attempts from emails where campaign_id = ? order by to_address',
          [campaign.id],
        );
      const settledOnce = await waitFor('every email to have an outcome', async () => {
        const rows = await statuses();
        return rows.filter((r) => r.status !== 'PENDING' || r.error !== null).length === 12 ? rows : undefined;
      });
      const by = new Map(settledOnce.map((r) => [r.email, r]));
      for (const c of rcptRefused)
        expect(by.get(c.email)).toMatchObject({ status: 'FAILED', error: expect.stringContaining('550'), attempts: 1 });
      for (const c of dataRefused)
        expect(by.get(c.email)).toMatchObject({ status: 'FAILED', error: expect.stringContaining('554'), attempts: 1 });
      for (const c of later)
        expect(by.get(c.email)).toMatchObject({ status: 'PENDING', error: expect.stringContaining('451'), attempts: 1 });
      for (const c of contacts.slice(7)) expect(by.get(c.email)).toMatchObject({ status: 'SENT', error: null, attempts: 1 });
      // Each email put off has its deferral, written by the statement that rescheduled it.
      const deferrals = await sql<{ email: string; attempt: number }>(
        stack,
        `select c.email, (e.data->>'attempt')::int as attempt from events e join contacts c on c.id = e.contact_id
         where e.project_id = ? and e.name = 'email.deferred' order by c.email`,
        [t.project.id],
      );
      expect(deferrals).toEqual(later.map((c) => ({ email: c.email, attempt: 1 })));

      // Only the two to try again are left in the queue, and the campaign was not reported drained.
      const queued = await sql<{ email_id: string }>(stack, 'select email_id from email_queue where campaign_id = ?', [campaign.id]);
      expect(queued).toHaveLength(2);
      expect(drained).not.toContain(campaign.id);
      expect(stack.smtp.messages.filter((m) => m.to.some((a) => a.startsWith(prefix)))).toHaveLength(5);

      // The retries go through: the queue empties, and the campaign hears that its last email left, once.
      for (const c of later) stack.smtp.accept(c.email);
      await sql(stack, 'update email_queue set due_at = now() where campaign_id = ?', [campaign.id]);
      await waitFor('the retries to be sent', async () =>
        (await statuses()).filter((r) => r.status === 'SENT').length === 7 ? true : undefined,
      );
      await waitFor('the drained notification', async () => (drained.includes(campaign.id) ? true : undefined));
      expect(drained.filter((id) => id === campaign.id)).toHaveLength(1);
      expect(await sql(stack, 'select email_id from email_queue where campaign_id = ?', [campaign.id])).toHaveLength(0);

      const { rollups, rows, sentEvents, sentToContacts } = await rollupsAndRows(stack, t.project.id);
      expect(rollups).toEqual(rows);
      expect(rows).toMatchObject({ sent: 7, failed: 5, billable: 7 });
      expect(sentEvents).toBe(sentToContacts);
    } finally {
      for (const c of contacts) stack.smtp.accept(c.email);
      await listener.end();
    }
  });
});
