import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { addContact } from '../segments/helpers';
import { beginSend, enqueueBatch, snapshotBatch } from '../../src/modules/campaigns/send-run';
import { campaignState, createCampaign, sentCampaign } from './helpers';
import { campaignTenant, setFrequencyCap, tenant, type SenderTenant } from '../helpers/tenants';
import { executionIn, linearWorkflow, startExecution } from '../automation/helpers';

// Limits, not targets: a shared, loaded machine can take a while to run a send and its simulated outcomes.
jest.setTimeout(180_000);
const SEND_LIMIT_MS = 120_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    env: { CAMPAIGN_BATCH_SIZE: '2', SANDBOX_ENABLED: 'true' },
    worker: startWorker,
    pump: true,
    terminateWorkflows: true,
  });
});
afterAll(() => stack?.close());

type Recipient = Record<string, unknown> & { position: number; email: string | null; status: string };

async function recipients(t: SenderTenant, id: string, query: Record<string, string | number> = {}) {
  return (await t.c.get(`/campaigns/${id}/recipients`).query(query).expect(200)).body as {
    data: Recipient[];
    cursor: string | null;
    hasMore: boolean;
    total: number;
  };
}

/** Every recipient, walking the pages `limit` at a time. */
async function allRecipients(t: SenderTenant, id: string, query: Record<string, string | number> = {}): Promise<Recipient[]> {
  const all: Recipient[] = [];
  let cursor: string | null = null;
  do {
    const page = await recipients(t, id, { ...query, ...(cursor ? { cursor } : {}) });
    all.push(...page.data);
    cursor = page.cursor;
    expect(page.hasMore).toBe(cursor !== null);
  } while (cursor);
  return all;
}

const byEmail = (rows: Recipient[]) => Object.fromEntries(rows.map((r) => [r.email, r]));
const SIMULATOR = 'simulator.postwire.test';

describe('GET /campaigns/{id}/recipients', () => {
  it('answers, after a send, who was sent, delivered, opened, bounced, skipped and why, and who was deleted since', async () => {
    const t = await campaignTenant(stack);
    const tag = t.project.id.slice(0, 8);
    const address = {
      delivered: `delivered+${tag}@${SIMULATOR}`,
      bounce: `bounce+${tag}@${SIMULATOR}`,
      open: `open+${tag}@${SIMULATOR}`,
      slow: `slow-${tag}@example.test`,
      typo: `nobody-${tag}@${SIMULATOR}`,
      plain: `plain-${tag}@example.test`,
    };
    await addContact(t, address.delivered);
    await addContact(t, address.bounce);
    await addContact(t, address.open);
    await addContact(t, address.slow, { slow: true });
    // A mailbox at the simulator domain that is none of its mailboxes: imported, say; no email may go to it.
    await sql(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data) values (gen_random_uuid(), now(), now(), ?, ?, true, '{}')`,
      [t.project.id, address.typo],
    );
    const plainId = await addContact(t, address.plain);
    const campaign = await createCampaign(t, {
      body: '<p>Hi</p>{% if slow %}{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}{% endif %}<a href="https://example.test/x">x</a>',
    });

    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    await sentCampaign(t, campaign.id, SEND_LIMIT_MS);
    // The simulator reports delivery, the bounce and the open a moment after each message is accepted.
    const settled = await waitFor(
      'the simulated outcomes',
      async () => {
        const rows = byEmail(await allRecipients(t, campaign.id));
        const done =
          rows[address.delivered]?.status === 'DELIVERED' &&
          rows[address.bounce]?.status === 'BOUNCED' &&
          rows[address.open]?.status === 'OPENED';
        return done ? rows : undefined;
      },
      SEND_LIMIT_MS,
    );
    expect(Object.keys(settled)).toHaveLength(6);
    expect(settled[address.slow]).toMatchObject({
      status: 'SKIPPED',
      reason: 'RENDER_FAILED',
      detail: expect.stringMatching(/render limit/),
      emailId: null,
      sentAt: null,
    });
    expect(settled[address.typo]).toMatchObject({
      status: 'SKIPPED',
      reason: 'ADDRESS_REFUSED',
      detail: expect.stringContaining('is no simulator mailbox'),
      emailId: null,
    });
    expect(settled[address.plain]).toMatchObject({ status: 'SENT', reason: null, emailId: expect.any(String), sentAt: expect.any(String) });
    expect(settled[address.bounce]).toMatchObject({ bouncedAt: expect.any(String), reason: null });
    expect(settled[address.open]).toMatchObject({ deliveredAt: expect.any(String), openedAt: expect.any(String) });

    // Positions are the audience order (contact ids), each once, walked here one at a time.
    const walked = await allRecipients(t, campaign.id, { limit: 1 });
    expect(walked.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(walked.map((r) => r.contactId)).size).toBe(6);

    // The filters: a stage reached counts as the stats do; NOT_SENT is who did not get it.
    const stats = (await t.c.get(`/campaigns/${campaign.id}/stats`).expect(200)).body;
    const totalOf = async (status: string) => (await recipients(t, campaign.id, { status })).total;
    expect(await totalOf('SENT')).toBe(stats.sentCount);
    expect(stats.sentCount).toBe(4);
    expect(await totalOf('DELIVERED')).toBe(stats.deliveredCount);
    expect(await totalOf('BOUNCED')).toBe(stats.bouncedCount);
    expect(await totalOf('OPENED')).toBe(stats.openedCount);
    const notSent = await recipients(t, campaign.id, { status: 'NOT_SENT' });
    expect(new Set(notSent.data.map((r) => r.email))).toEqual(new Set([address.slow, address.typo]));
    expect(await totalOf('SKIPPED')).toBe(2);
    expect(await totalOf('NOT_ATTEMPTED')).toBe(0);
    expect(await totalOf('FAILED')).toBe(0);

    // A contact deleted since takes its email with it: the recipient stays, as CONTACT_DELETED.
    await t.c.delete(`/contacts/${plainId}`).expect(204);
    const deleted = await recipients(t, campaign.id, { status: 'CONTACT_DELETED' });
    expect(deleted.data).toEqual([expect.objectContaining({ contactId: plainId, email: null, status: 'CONTACT_DELETED', emailId: null })]);
    expect(await totalOf('NOT_SENT')).toBe(2);
  });

  it('while sending: the emails made so far, a recipient unsubscribed meanwhile (SKIPPED), one suppressed (SUPPRESSED, why), and the rest NOT_ATTEMPTED', async () => {
    const t = await campaignTenant(stack);
    const tag = t.project.id.slice(0, 8);
    const names = ['ann', 'bob', 'cat', 'dan', 'eve'];
    const ids: string[] = [];
    for (const n of names) ids.push(await addContact(t, `${n}-${tag}@example.test`));
    const campaign = await createCampaign(t);
    // The send's steps, run here one by one as the workflow's activities run them, to stop between two of them.
    const sendId = '00000000-0000-4000-8000-000000000001';
    await sql(stack, `update campaigns set status = 'SENDING', send_id = ? where id = ?`, [sendId, campaign.id]);
    const ref = { campaignId: campaign.id, sendId };
    const em = () => stack.deps.orm.em.fork();
    const begun = await beginSend(em(), ref);
    await snapshotBatch(em(), ref, { asOf: begun!.asOf, after: null, size: 10 });
    // Each recipient's email id is fixed with it, before any email exists.
    const fixedIds = (
      await sql<{ email_id: string }>(stack, 'select email_id from campaign_recipients where campaign_id = ? order by seq', [campaign.id])
    ).map((r) => r.email_id);
    expect(new Set(fixedIds).size).toBe(names.length);
    // Audience order is contact-id order.
    const ordered = [...names.map((n, i) => ({ email: `${n}-${tag}@example.test`, id: ids[i]! }))].sort((a, b) => (a.id < b.id ? -1 : 1));
    await addContact(t, ordered[1]!.email, {}, false);
    // Suppressed after the audience was fixed: its email is made, and the pump holds it back.
    await t.c
      .post('/suppressions')
      .send({ emails: [ordered[2]!.email] })
      .expect(200);
    await enqueueBatch(em(), stack.deps, ref, { from: 0, size: 3 });
    // A retried batch makes no email twice: each recipient's email is the one under its fixed id.
    await enqueueBatch(em(), stack.deps, ref, { from: 0, size: 3 });
    const made = await sql<{ id: string; html: string | null }>(stack, 'select id, html from emails where campaign_id = ? order by id', [
      campaign.id,
    ]);
    expect(made.map((e) => e.id)).toEqual([fixedIds[0], fixedIds[2]].sort());
    // Stored without a body: the pump renders it as it sends (campaigns/bodies.ts).
    expect(made.map((e) => e.html)).toEqual([null, null]);

    const rows = await waitFor(
      'the suppressed email to be held back',
      async () => {
        const all = await allRecipients(t, campaign.id);
        return all[2]?.status === 'SUPPRESSED' ? all : undefined;
      },
      SEND_LIMIT_MS,
    );
    expect(rows.map((r) => r.email)).toEqual(ordered.map((o) => o.email));
    expect(rows[1]).toMatchObject({ status: 'SKIPPED', reason: 'UNSUBSCRIBED', detail: null, emailId: null });
    expect(rows[2]).toMatchObject({
      status: 'SUPPRESSED',
      reason: null,
      detail: 'Held back by the suppression list (MANUAL)',
      emailId: expect.any(String),
      sentAt: null,
    });
    expect(rows[2]!.emailId).toBe(fixedIds[2]);
    expect(['PENDING', 'SENT']).toContain(rows[0]!.status);
    expect((await recipients(t, campaign.id, { status: 'SUPPRESSED' })).total).toBe(1);
    expect(rows.slice(3).map((r) => r.status)).toEqual(['NOT_ATTEMPTED', 'NOT_ATTEMPTED']);
    expect((await recipients(t, campaign.id, { status: 'NOT_ATTEMPTED' })).total).toBe(2);
    // Nothing of this send is left sending: the pump withdraws a cancelled campaign's queued emails.
    await sql(stack, `update campaigns set status = 'CANCELLED', send_id = null where id = ?`, [campaign.id]);
  });

  it('is empty before a campaign sends; refuses a bad status or cursor with a 400 that changes nothing; 404 for another project', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, `ann-${t.project.id.slice(0, 8)}@example.test`);
    const draft = await createCampaign(t);
    expect(await recipients(t, draft.id)).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });

    const before = await campaignState(stack, t.project.id);
    const badStatus = await t.c.get(`/campaigns/${draft.id}/recipients`).query({ status: 'LOST' }).expect(400);
    expect(badStatus.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    const forged = Buffer.from(JSON.stringify({ o: 'position:ALL', v: 'x', i: draft.id })).toString('base64url');
    for (const cursor of ['nonsense', forged]) {
      const res = await t.c.get(`/campaigns/${draft.id}/recipients`).query({ cursor }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Invalid cursor' });
    }
    const otherOrdering = Buffer.from(JSON.stringify({ o: 'position:SENT', v: '1', i: draft.id })).toString('base64url');
    await t.c.get(`/campaigns/${draft.id}/recipients`).query({ cursor: otherOrdering }).expect(400);
    expect(await campaignState(stack, t.project.id)).toEqual(before);

    const other = await tenant(stack);
    const res = await other.c.get(`/campaigns/${draft.id}/recipients`).expect(404);
    expect(res.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
  });
});

describe("the project's frequency cap in a send", () => {
  it('skips a contact at the cap (its emails of campaigns and automations counted), counts it, and never caps a TRANSACTIONAL campaign', async () => {
    const t = await campaignTenant(stack);
    await setFrequencyCap(stack, t, { maxEmails: 2, windowDays: 7 });
    const tag = t.project.id.slice(0, 8);
    const busy = `busy-${tag}@example.test`;
    const calm = `calm-${tag}@example.test`;
    const busyId = await addContact(t, busy);
    await addContact(t, calm);
    const send = async (overrides: Record<string, unknown>) => {
      const campaign = await createCampaign(t, overrides);
      await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
      await sentCampaign(t, campaign.id, SEND_LIMIT_MS);
      return campaign.id;
    };
    // Each gets one marketing campaign; the busy contact one more marketing email from an automation.
    await send({ name: 'First', type: 'MARKETING' });
    const template = await t.c
      .post('/templates')
      .send({ name: 'News', subject: 'Automated news', body: '<p>News</p>', from: t.from, type: 'MARKETING' })
      .expect(201);
    const { workflow } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: template.body.id }]]);
    const execution = await startExecution(t, workflow.id, { contactId: busyId });
    const done = await executionIn(t, workflow.id, execution.id, ['COMPLETED'], SEND_LIMIT_MS);
    expect((done.stepHistory as Array<{ output: unknown }>)[0]!.output).toEqual({ emailId: expect.any(String), to: busy });

    const second = await send({ name: 'Second', type: 'MARKETING' });
    const rows = byEmail(await allRecipients(t, second));
    expect(rows[busy]).toMatchObject({
      status: 'SKIPPED',
      reason: 'FREQUENCY_CAPPED',
      emailId: null,
      detail: expect.stringMatching(/frequency cap \(2 marketing emails in 7 days\) is reached until \d{4}-/),
    });
    expect(rows[calm]).toMatchObject({ emailId: expect.any(String), reason: null });
    const stats = (await t.c.get(`/campaigns/${second}/stats`).expect(200)).body;
    expect(stats).toMatchObject({ totalRecipients: 2, cappedCount: 1 });
    expect((await recipients(t, second, { status: 'SKIPPED' })).data.map((r) => r.email)).toEqual([busy]);

    const notice = await send({ name: 'Notice', type: 'TRANSACTIONAL' });
    expect(Object.values(byEmail(await allRecipients(t, notice))).map((r) => (r as Recipient).reason)).toEqual([null, null]);
    expect((await t.c.get(`/campaigns/${notice}/stats`).expect(200)).body.cappedCount).toBe(0);
  });

  it('lets one marketing email through a cap of 1 when a campaign and an automation reach the contact at once', async () => {
    const t = await campaignTenant(stack);
    await setFrequencyCap(stack, t, { maxEmails: 1, windowDays: 7 });
    const address = `race-${t.project.id.slice(0, 8)}@example.test`;
    const contactId = await addContact(t, address);
    const template = await t.c
      .post('/templates')
      .send({ name: 'News', subject: 'Automated news', body: '<p>News</p>', from: t.from, type: 'MARKETING' })
      .expect(201);
    const { workflow } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: template.body.id, onCap: 'skip' }]]);
    const campaign = await createCampaign(t, { type: 'MARKETING' });
    const [, execution] = await Promise.all([
      t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200),
      startExecution(t, workflow.id, { contactId }),
    ]);
    await sentCampaign(t, campaign.id, SEND_LIMIT_MS);
    const done = await executionIn(t, workflow.id, execution.id, ['COMPLETED'], SEND_LIMIT_MS);
    const step = (done.stepHistory as Array<{ output: Record<string, unknown> }>)[0]!.output;
    const [recipient] = (await recipients(t, campaign.id)).data;
    // Exactly one of the two made an email; the other says the cap held it back.
    const emails = await sql(stack, 'select id from emails where contact_id = ? and marketing', [contactId]);
    expect(emails).toHaveLength(1);
    expect([step.skipped === 'FREQUENCY_CAPPED', recipient!.reason === 'FREQUENCY_CAPPED'].filter(Boolean)).toHaveLength(1);
  });
});
