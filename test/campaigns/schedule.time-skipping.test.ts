import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { startPump } from '../helpers/pump';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { addContact } from '../segments/helpers';
import { ENQUEUE_CONCURRENCY, campaignWorkflowId } from '../../workflows/campaigns/ids';
import { RUN_EVENTS } from '../../workflows/run-length';
import { campaignState, createCampaign, seedContacts } from './helpers';
import type { SenderTenant } from '../helpers/tenants';
import { quietSenderTenant, sleeping as sleepingOn } from '../helpers/time-skipping';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// Limits, not targets: a shared, loaded machine can take a while to run a send.
jest.setTimeout(180_000);
const SEND_LIMIT_MS = 90_000;

let env: TestWorkflowEnvironment;
let stack: TestStack;
let pump: DeliveryPump | null = null;
beforeAll(async () => {
  env = await timeSkippingEnv();
  // One recipient per activity: sends take many steps, so continue-as-new is reached with a small audience.
  stack = await startStack({
    temporal: gatewayFor(env, `campaigns-${randomBytes(4).toString('hex')}`),
    env: { CAMPAIGN_BATCH_SIZE: '1' },
    worker: (deps) => startWorker(deps, env.nativeConnection),
  });
});
afterEach(async () => {
  await pump?.stop();
  pump = null;
});
afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

const deliver = async () => {
  pump = await startPump(stack.deps);
};
const handle = (campaignId: string, runId?: string) => env.client.workflow.getHandle(campaignWorkflowId(campaignId), runId);
/** The test server's clock, which runs ahead of the real one by the time earlier tests skipped. */
const inDays = async (days: number) => new Date((await env.currentTimeMs()) + days * DAY);
/** Lets real time pass for workers to act on anything already due; nothing new is due without env.sleep. */
const settle = () => new Promise((r) => setTimeout(r, 1_000));

async function status(t: SenderTenant, id: string) {
  return (await t.c.get(`/campaigns/${id}`).expect(200)).body;
}

const reach = (t: SenderTenant, id: string, wanted: string) =>
  waitFor(
    `campaign ${id} to be ${wanted}`,
    async () => ((await status(t, id)).status === wanted ? status(t, id) : undefined),
    SEND_LIMIT_MS,
  );

const sleeping = (workflowId: string) => sleepingOn(env, workflowId);
const quietTenant = () => quietSenderTenant(stack, 'news');

/** A tenant with `names` as subscribed contacts; returns their addresses. */
async function audience(names: string[]): Promise<{ t: SenderTenant; addresses: string[] }> {
  const t = await quietTenant();
  const addresses = names.map((n) => `${n}-${t.project.id.slice(0, 8)}@example.test`);
  for (const address of addresses) await addContact(t, address);
  return { t, addresses };
}

const received = (addresses: string[]) => addresses.map((a) => stack.smtp.to(a).length);

const emailsOf = (campaignId: string) => sql<{ status: string }>(stack, 'select status from emails where campaign_id = ?', [campaignId]);

describe('scheduled campaigns (time-skipping)', () => {
  it('stays SCHEDULED until scheduledFor on a durable timer, then sends, without real waiting', async () => {
    await deliver();
    const { t, addresses } = await audience(['ann', 'bob']);
    const campaign = await createCampaign(t);
    const at = await inDays(1);
    await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: at.toISOString() }).expect(200);

    await env.sleep(DAY - 10 * MINUTE);
    await settle();
    expect(await status(t, campaign.id)).toMatchObject({ status: 'SCHEDULED', scheduledFor: at.toISOString() });
    expect(await emailsOf(campaign.id)).toEqual([]);

    await env.sleep(20 * MINUTE);
    const sent = await reach(t, campaign.id, 'SENT');
    expect(sent).toMatchObject({ totalRecipients: 2, sentCount: 2, scheduledFor: at.toISOString() });
    expect(received(addresses)).toEqual([1, 1]);
  });

  it('reschedules a SCHEDULED campaign (the old timer no longer sends) and sends it now on request', async () => {
    await deliver();
    const { t, addresses } = await audience(['ann']);
    const campaign = await createCampaign(t);
    await t.c
      .post(`/campaigns/${campaign.id}/send`)
      .send({ scheduledFor: (await inDays(1)).toISOString() })
      .expect(200);
    await sleeping(campaignWorkflowId(campaign.id));
    const later = (await inDays(3)).toISOString();
    await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: later }).expect(200);
    await sleeping(campaignWorkflowId(campaign.id));

    await env.sleep(DAY + 10 * MINUTE);
    await settle();
    expect(await status(t, campaign.id)).toMatchObject({ status: 'SCHEDULED', scheduledFor: later });
    expect(received(addresses)).toEqual([0]);

    const now = await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: null }).expect(200);
    expect(now.body.data).toMatchObject({ status: 'SENDING', scheduledFor: null });
    await reach(t, campaign.id, 'SENT');
    expect(received(addresses)).toEqual([1]);
  });

  it('cancels a SCHEDULED campaign back to DRAFT: its time passes and nothing is sent', async () => {
    await deliver();
    const { t, addresses } = await audience(['ann']);
    const campaign = await createCampaign(t);
    await t.c
      .post(`/campaigns/${campaign.id}/send`)
      .send({ scheduledFor: (await inDays(1)).toISOString() })
      .expect(200);
    await sleeping(campaignWorkflowId(campaign.id));
    const res = await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'DRAFT', scheduledFor: null });
    await env.sleep(2 * DAY);
    await settle();
    expect(await status(t, campaign.id)).toMatchObject({ status: 'DRAFT' });
    expect(received(addresses)).toEqual([0]);
    expect((await handle(campaign.id).describe()).status.name).toBe('TERMINATED');
  });

  it('stops by itself when its time comes and the campaign is no longer SCHEDULED under that send (a cancel that could not reach it)', async () => {
    await deliver();
    const { t, addresses } = await audience(['ann']);
    const campaign = await createCampaign(t);
    await t.c
      .post(`/campaigns/${campaign.id}/send`)
      .send({ scheduledFor: (await inDays(1)).toISOString() })
      .expect(200);
    await sleeping(campaignWorkflowId(campaign.id));
    // What a cancel leaves when Temporal is unreachable: the row is a DRAFT, the run still waits.
    await sql(stack, "update campaigns set status = 'DRAFT', scheduled_for = null, send_id = null where id = ?", [campaign.id]);
    await env.sleep(DAY + MINUTE);
    expect(await handle(campaign.id).result()).toBe('STOPPED');
    await settle();
    expect(await status(t, campaign.id)).toMatchObject({ status: 'DRAFT' });
    expect(received(addresses)).toEqual([0]);
  });
});

describe('cancelling a SENDING campaign (time-skipping)', () => {
  it('goes back to DRAFT while nothing has left: its queued emails are withdrawn, and it can be sent again', async () => {
    // No delivery pump yet: every email stays queued.
    const { t, addresses } = await audience(['ann', 'bob', 'cat']);
    const campaign = await createCampaign(t);
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    await waitFor('every email to be queued', async () => ((await emailsOf(campaign.id)).length === 3 ? true : undefined));

    const res = await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'DRAFT', scheduledFor: null, sentCount: 0, totalRecipients: 3 });
    expect(res.body.message).toMatch(/before anything was sent/);
    const state = await campaignState(stack, t.project.id);
    expect([state.emails, state.recipients]).toEqual([[], []]);
    expect((await handle(campaign.id).describe()).status.name).toBe('TERMINATED');

    await deliver();
    await settle();
    expect(received(addresses)).toEqual([0, 0, 0]);
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    await reach(t, campaign.id, 'SENT');
    expect(received(addresses)).toEqual([1, 1, 1]);
  });

  it('is CANCELLED for good once an email has left: the rest are withdrawn and never sent', async () => {
    const { t, addresses } = await audience(['ann', 'bob', 'cat', 'dan', 'eve']);
    // One email per second for this project: the first goes at once, the rest wait for their slots.
    await sql(stack, 'update projects set email_rate_per_second = 1 where id = ?', [t.project.id]);
    const campaign = await createCampaign(t);
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    await waitFor('every email to be queued', async () => ((await emailsOf(campaign.id)).length === 5 ? true : undefined));
    await deliver();
    await waitFor('the first email to leave', async () =>
      (await emailsOf(campaign.id)).some((e) => e.status === 'SENT') ? true : undefined,
    );

    const res = await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', sentCount: 1, totalRecipients: 5 });
    await new Promise((r) => setTimeout(r, 6_000));
    expect(received(addresses).reduce((a, b) => a + b, 0)).toBe(1);
    expect(await emailsOf(campaign.id)).toEqual([{ status: 'SENT' }]);
    expect(await status(t, campaign.id)).toMatchObject({ status: 'CANCELLED', sentAt: null });
    // Who did not get it: the withdrawn four were never handed to SMTP.
    const recipients = (await t.c.get(`/campaigns/${campaign.id}/recipients`).expect(200)).body;
    expect(recipients.total).toBe(5);
    expect(recipients.data.map((r: { status: string }) => r.status).sort()).toEqual([
      'NOT_ATTEMPTED',
      'NOT_ATTEMPTED',
      'NOT_ATTEMPTED',
      'NOT_ATTEMPTED',
      'SENT',
    ]);

    const again = await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(409);
    expect(again.body.error.details).toEqual({ status: 'CANCELLED' });
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(409);
    await t.c.put(`/campaigns/${campaign.id}`).send({ name: 'x', subject: 's', body: 'b', from: t.from, audienceType: 'ALL' }).expect(409);
    await t.c.delete(`/campaigns/${campaign.id}`).expect(204);
  });
});

describe('long sends (time-skipping)', () => {
  it(`continue as new once a run holds ${RUN_EVENTS} history events, keeping the workflow id, each recipient sent once`, async () => {
    await deliver();
    const t = await quietTenant();
    // One recipient per batch: snapshot steps of ten, enqueue steps of ENQUEUE_CONCURRENCY batches (up to 24 events each):
    // enough for a few runs.
    const total = 4 * ENQUEUE_CONCURRENCY * Math.ceil(RUN_EVENTS / 24);
    await seedContacts(stack, t.project.id, total, { prefix: `long-${t.project.id.slice(0, 8)}` });
    const campaign = await createCampaign(t);
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    const first = await handle(campaign.id).describe();
    const sent = await reach(t, campaign.id, 'SENT');
    expect(sent).toMatchObject({ totalRecipients: total, sentCount: total });
    expect((await handle(campaign.id, first.runId).describe()).status.name).toBe('CONTINUED_AS_NEW');
    expect(await handle(campaign.id).result()).toBe('SENT');
    const [counts] = await sql<{ emails: number; contacts: number }>(
      stack,
      'select count(*)::int as emails, count(distinct contact_id)::int as contacts from emails where campaign_id = ?',
      [campaign.id],
    );
    expect(counts).toEqual({ emails: total, contacts: total });
    const addresses = (await sql<{ to_address: string }>(stack, 'select to_address from emails where campaign_id = ?', [campaign.id])).map(
      (r) => r.to_address,
    );
    expect(received(addresses).every((n) => n === 1)).toBe(true);

    await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(409);
    await t.c.delete(`/campaigns/${campaign.id}`).expect(204);
    expect(await emailsOf(campaign.id)).toHaveLength(total);
  });
});
